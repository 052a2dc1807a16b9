#!/usr/bin/env bash
# Webhook calls spent shrinking, per example-webhook fault: a default run (shrink budget 200 per
# failure) of each fault against each example CRD; for the property the fault names, the calls of
# each problem's shrunk counterexample of that property and whether the budget ran out.
# Goal: median calls to the final counterexample <= 200 (per fault, and over all of them).
# Usage: bash bench/shrink_calls.sh [FAULT...]   (default: every fault of `example-webhook --fault
# list`; env: TESTS (cases per pair, default 100), SEED (default 1), BUILD_DIR).
# delay-3s runs with --timeout 1s and needs-default with --raw-objects, as their tests do.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=${TESTS:-100}
seed=${SEED:-1}
source bench/webhook.sh
bench_setup
faults=("$@")
if [ ${#faults[@]} -eq 0 ]; then
  mapfile -t faults < <("$build/examples/webhook/example-webhook" --fault list | awk '{print $1}')
fi
: >"$work/rows"
printf '%-22s %-8s %-26s %4s %8s %6s  %s\n' fault crd property exit examples median "calls per counterexample (* = budget ran out)"
for fault in "${faults[@]}"; do
  property=$("$build/examples/webhook/example-webhook" --fault list | awk -v f="$fault" '$1 == f {print $2}')
  extra=()
  [ "$fault" != delay-3s ] || extra+=(--timeout 1s)
  [ "$fault" != needs-default ] || extra+=(--raw-objects)
  start_webhook --fault "$fault"
  for crd in examples/crds/*.yaml; do
    code=0
    convcheck_run --crd "$crd" --seed "$seed" --tests "$tests" "${extra[@]}" \
      --json "$work/r.json" >"$work/run.log" 2>&1 || code=$?
    python3 - "$work/r.json" "$fault" "$crd" "$property" "$code" "$work/rows" <<'PY'
import json, os, sys
path, fault, crd, prop, code, rows = sys.argv[1:]
name = "widget" if "widget" in os.path.basename(crd) else "crontab"
try:
    kinds = json.load(open(path))["kinds"]
except (OSError, ValueError):
    kinds = []
calls = []
for k in kinds:
    for p in k.get("problems", []):
        f = p["example"]
        if f["property"] != prop:
            continue
        s = f.get("shrink")
        if s:
            calls.append((s["calls"], s["budgetExhausted"]))
if not calls:
    print("%-22s %-8s %-26s %4s %8s %6s  %s" % (fault, name, prop, code, 0, "-",
                                              "not failed here, nothing shrunk"))
    sys.exit(0)
import statistics
with open(rows, "a") as out:
    for c, _ in calls:
        out.write("%s %s %d\n" % (fault, name, c))
print("%-22s %-8s %-26s %4s %8d %6g  %s" % (fault, name, prop, code, len(calls),
      statistics.median(c for c, _ in calls), " ".join("%d%s" % (c, "*" if e else "") for c, e in calls)))
PY
  done
  stop_webhook
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
calls = [int(r[2]) for r in rows]
if calls:
    per_fault = {}
    for fault, _, c in rows:
        per_fault.setdefault(fault, []).append(int(c))
    medians = [statistics.median(v) for v in per_fault.values()]
    m = statistics.median(calls)
    print("\nmedian calls to the final counterexample: %g over %d counterexamples of %d faults; "
          "median of the per-fault medians %g; worst fault median %g (goal <= 200: %s)"
          % (m, len(calls), len(per_fault), statistics.median(medians), max(medians),
             "yes" if m <= 200 and max(medians) <= 200 else "no"))
PY
