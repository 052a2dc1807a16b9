#!/usr/bin/env bash
# Wall time of a default `convcheck run` (no --tests, --jobs or --duration) against the bundled
# example webhook answering every call after DELAY_MS milliseconds (default 40, what real webhooks
# take), for each example CRD and each FAULT given (default: the correct webhook).
# Usage: bash bench/default_run.sh [FAULT...]   (env: DELAY_MS, SEED, BUILD_DIR)
# Prints one row per run: CRD, fault, versions, exit code, wall seconds, requests, requests/s.
set -euo pipefail
cd "$(dirname "$0")/.."
delay=${DELAY_MS:-40}
seed=${SEED:-1}
source bench/webhook.sh
bench_setup
faults=("$@")
[ ${#faults[@]} -gt 0 ] || faults=(none)
printf '%-34s %-20s %8s %4s %8s %9s %9s\n' crd fault versions exit seconds requests "req/s"
for fault in "${faults[@]}"; do
  args=(--delay-ms "$delay")
  [ "$fault" = none ] || args+=(--fault "$fault")
  start_webhook "${args[@]}"
  for crd in examples/crds/*.yaml; do
    start=$(date +%s.%N)
    code=0
    convcheck_run --crd "$crd" --seed "$seed" --json "$work/r.json" >/dev/null 2>&1 || code=$?
    end=$(date +%s.%N)
    read -r versions requests < <(python3 -c 'import json,sys
k=json.load(open(sys.argv[1]))["kinds"][0]; print(len(k["versions"]), k["requests"])' "$work/r.json")
    secs=$(python3 -c "print(f'{$end-$start:.1f}')")
    rate=$(python3 -c "print(f'{$requests/($end-$start):.0f}')")
    printf '%-34s %-20s %8s %4s %8s %9s %9s\n' "$(basename "$crd" .yaml)" "$fault" "$versions" \
      "$code" "$secs" "$requests" "$rate"
  done
  stop_webhook
done
