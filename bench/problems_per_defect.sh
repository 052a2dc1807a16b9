#!/usr/bin/env bash
# Problems per defect on a kit of buggy webhooks with documented, switchable defects (a directory
# with run-one.sh, DEFECTS.md, node/ and python/, as a triage kit has them): every defect alone,
# all at once and none, for each webhook, then the example webhook's faults
# (bench/problems_per_fault.sh). Per run: exit code, problems (and the ideal), console lines,
# bytes under the report directory, the share of requests spent shrinking, and each problem's
# key; at the end the totals that decide "one defect, one problem".
# Usage: bash bench/problems_per_defect.sh KIT_DIR [convcheck run args...]
#   env: BUILD_DIR (default build), NICE (passed to run-one.sh), SKIP_FAULTS=1 (kit only)
set -euo pipefail
cd "$(dirname "$0")/.."
kit=${1:?usage: bench/problems_per_defect.sh KIT_DIR [convcheck run args...]}
shift
kit=$(cd "$kit" && pwd)
build=${BUILD_DIR:-build}
[ -x "$build/app/convcheck" ] || bash ci/build.sh default >/dev/null
export CONVCHECK
CONVCHECK=$(cd "$build/app" && pwd)/convcheck
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

# The defect ids of a webhook, in the order DEFECTS.md's table lists them.
defects_of() {
  awk -F'|' -v lang="$1" '/^\| `[a-z0-9-]+` \|/ {
      id = $2; gsub(/[ `]/, "", id); hooks = $3
      if (index(hooks, lang)) print id }' "$kit/DEFECTS.md"
}

printf '%-8s %-24s %4s %8s %6s %8s %10s %7s  %s\n' webhook defects exit problems ideal console \
  bytes shrink% "problem keys"
for lang in node python; do
  flag=()
  [ "$lang" = node ] || flag=(--python)
  mapfile -t ids < <(defects_of "$lang")
  for run in "${ids[@]}" all none; do
    ideal=1
    [ "$run" != none ] || ideal=0
    [ "$run" != all ] || ideal=${#ids[@]}
    out=$(bash "$kit/run-one.sh" "${flag[@]}" "$run" "$@" 2>&1) && code=0 || code=$?
    work=$(sed -n 's/^work: \([^ ]*\).*/\1/p' <<<"$out")
    if [ -z "$work" ]; then
      echo "$lang $run: run-one.sh failed (exit $code): $out" >&2
      continue
    fi
    bytes=$(du -sb "$work/report" 2>/dev/null | cut -f1)
    python3 - "$work/report/results.json" "$lang" "$run" "$code" "$ideal" \
      "$(wc -l <"$work/console.txt")" "${bytes:-0}" "$rows" <<'PY'
import json, sys
path, lang, run, code, ideal, lines, size, rows = sys.argv[1:]
try:
    kinds = json.load(open(path))["kinds"]
except (OSError, ValueError):
    kinds = []
problems, keys, requests, shrinking, unshrunk = 0, [], 0, 0, 0
for k in kinds:
    requests += k.get("requests", 0)
    for p in k.get("problems", []):
        problems += 1
        keys.append(p["key"])
        shrink = p["example"].get("shrink")
        shrinking += (shrink or {}).get("calls", 0)
        unshrunk += 0 if shrink and shrink.get("reproduced", True) else 1
share = 100.0 * shrinking / requests if requests else 0.0
shown = "; ".join(k if len(k) < 50 else k[:47] + "..." for k in keys[:3])
if len(keys) > 3:
    shown += "; +%d" % (len(keys) - 3)
print("%-8s %-24s %4s %8d %6s %8s %10s %6.0f%%  %s" % (lang, run, code, problems, ideal, lines, size,
                                                     share, shown))
with open(rows, "a") as out:
    out.write("%s %s %s %d %s %s %s %.1f %d\n" % (lang, run, code, problems, ideal, lines, size,
                                               share, unshrunk))
PY
    rm -rf "$work"
  done
done
python3 - "$rows" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
single = [r for r in rows if r[1] not in ("all", "none")]
exact = sum(1 for r in single if int(r[3]) == int(r[4]))
print("single defects: %d runs, %d with exactly one problem, %d problems for %d defects"
      % (len(single), exact, sum(int(r[3]) for r in single), len(single)))
for r in rows:
    if r[1] == "all":
        print("%s all: %s problems for %s defects (%.2f x), %s console lines, %s bytes, "
              "shrinking %s%% of requests, %s problems without a shrunk example"
              % (r[0], r[3], r[4], int(r[3]) / max(int(r[4]), 1), r[5], r[6], r[7], r[8]))
    if r[1] == "none":
        print("%s none: %s problems, exit %s" % (r[0], r[3], r[2]))
PY
if [ "${SKIP_FAULTS:-0}" != 1 ]; then
  echo
  echo "example webhook faults (bench/problems_per_fault.sh, one at a time):"
  PAIRS=none BUILD_DIR=$build bash bench/problems_per_fault.sh
fi
