#!/usr/bin/env bash
# Cases/s of `convcheck fuzz` (one process) against the example webhook answering every call after
# DELAY_MS milliseconds (default 40, as real webhooks do), for each flight size of IN_FLIGHT
# (--in-flight, default "1 64": one case at a time, then the default). The goal: at least 100
# cases/s at 40 ms with the default flight.
# Usage: bash bench/fuzz_slow_webhook.sh   (env: DELAY_MS, IN_FLIGHT, SECONDS_EACH (default 20),
# SEED, CRD, BUILD_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
delay=${DELAY_MS:-40}
flights=${IN_FLIGHT:-1 64}
budget=${SECONDS_EACH:-20}
seed=${SEED:-1}
crd=${CRD:-examples/crds/widgets.example.convcheck.dev.yaml}
source bench/webhook.sh
bench_setup
start_webhook --delay-ms "$delay"
printf '%8s %9s %8s %9s %8s\n' "delay ms" "in-flight" "cases" "cases/s" "goal"
for flight in $flights; do
  "$build/app/convcheck" fuzz --crd "$crd" --url "$url" --ca-file "$work/pki/ca.pem" \
    --seed "$seed" --max-total-time "${budget}s" --in-flight "$flight" --shrink-budget 0 \
    --color never >"$work/fuzz.out" 2>"$work/fuzz.err" || true
  # The report's note: "fuzz: N case(s) in S s (X/s) over J process(es); ...".
  note=$(sed -n 's/.*fuzz: \([0-9]*\) case(s) in [0-9.]* s (\([0-9.]*\)\/s).*/\1 \2/p' \
    "$work/fuzz.out" | head -n1)
  [ -n "$note" ] || { echo "no fuzz note for --in-flight $flight:" >&2; tail -5 "$work/fuzz.err" >&2; exit 2; }
  read -r cases rate <<<"$note"
  printf '%8s %9s %8s %9s %8s\n' "$delay" "$flight" "$cases" "$rate" ">=100"
done
