#!/usr/bin/env bash
# Problems reported per example-webhook fault: a default run (seed 1) of each fault alone, then of
# pairs of faults, against each example CRD; per run: the problems found (one fault should be one
# problem unless it truly breaks two things), console lines, bytes under --report-dir, and the
# share of the run's requests spent shrinking.
# Usage: bash bench/problems_per_fault.sh [FAULT...]   (default: every fault of `example-webhook
# --fault list`; env: TESTS (cases per pair, default 100), SEED (default 1), BUILD_DIR,
# PAIRS=all|next|none (default next: each fault with the next one in the list; all: every pair)).
# delay-3s runs with --timeout 1s and needs-default with --raw-objects, as their tests do.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=${TESTS:-100}
seed=${SEED:-1}
pairs=${PAIRS:-next}
source bench/webhook.sh
bench_setup
faults=("$@")
if [ ${#faults[@]} -eq 0 ]; then
  mapfile -t faults < <("$build/examples/webhook/example-webhook" --fault list | awk '{print $1}')
fi
runs=()
for f in "${faults[@]}"; do runs+=("$f"); done
n=${#faults[@]}
if [ "$pairs" = all ]; then
  for ((i = 0; i < n; i++)); do for ((j = i + 1; j < n; j++)); do
    runs+=("${faults[i]},${faults[j]}")
  done; done
elif [ "$pairs" = next ]; then
  for ((i = 0; i + 1 < n; i++)); do runs+=("${faults[i]},${faults[i + 1]}"); done
fi
: >"$work/rows"
printf '%-44s %-8s %4s %8s %8s %9s %6s  %s\n' faults crd exit problems console bytes shrink% "problem keys"
for run in "${runs[@]}"; do
  IFS=, read -r -a chosen <<<"$run"
  hook_args=()
  extra=()
  for f in "${chosen[@]}"; do
    hook_args+=(--fault "$f")
    [ "$f" != delay-3s ] || extra+=(--timeout 1s)
    [ "$f" != needs-default ] || extra+=(--raw-objects)
  done
  start_webhook "${hook_args[@]}"
  for crd in examples/crds/*.yaml; do
    code=0
    rm -rf "$work/report"
    convcheck_run --crd "$crd" --seed "$seed" --tests "$tests" "${extra[@]}" \
      --report-dir "$work/report" >"$work/run.log" 2>&1 || code=$?
    bytes=$(du -sb "$work/report" 2>/dev/null | cut -f1)
    python3 - "$work/report/results.json" "$run" "$crd" "$code" "$(wc -l <"$work/run.log")" \
      "${bytes:-0}" "$work/rows" <<'PY'
import json, os, sys
path, run, crd, code, lines, size, rows = sys.argv[1:]
name = "widget" if "widget" in os.path.basename(crd) else "crontab"
try:
    kinds = json.load(open(path))["kinds"]
except (OSError, ValueError):
    kinds = []
problems, keys, requests, shrinking = 0, [], 0, 0
for k in kinds:
    requests += k.get("requests", 0)
    if "problems" in k:
        problems += len(k["problems"])
        keys += [p["key"] for p in k["problems"]]
        shrinking += sum(p["example"].get("shrink", {}).get("calls", 0) for p in k["problems"])
    else:  # a report without problems: its causes, each shrunk on its own
        for r in k["results"]:
            problems += len(r.get("findings", [])) + r.get("moreCauses", 0)
            keys += [f["cause"]["key"] for f in r.get("findings", [])]
            shrinking += sum(f.get("shrink", {}).get("calls", 0) for f in r.get("findings", []))
share = 100.0 * shrinking / requests if requests else 0.0
shown = "; ".join(k if len(k) < 60 else k[:57] + "..." for k in keys[:4])
if len(keys) > 4:
    shown += "; +%d" % (len(keys) - 4)
print("%-44s %-8s %4s %8d %8s %9s %5.0f%%  %s" % (run, name, code, problems, lines, size, share, shown))
with open(rows, "a") as out:
    out.write("%s %s %d %s %s %.1f\n" % (run, name, problems, lines, size, share))
PY
  done
  stop_webhook
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
alone = [r for r in rows if "," not in r[0]]
paired = [r for r in rows if "," in r[0]]
for label, part in (("one fault", alone), ("two faults", paired)):
    if not part:
        continue
    problems = [int(r[2]) for r in part]
    lines = [int(r[3]) for r in part]
    shares = [float(r[5]) for r in part]
    print("%s: %d runs; problems median %g, max %d; console lines median %g, max %d; "
          "shrinking share median %.0f%%, max %.0f%%" % (label, len(part), statistics.median(problems),
          max(problems), statistics.median(lines), max(lines), statistics.median(shares), max(shares)))
PY
