#!/usr/bin/env bash
# `convcheck fuzz` against `convcheck run` on the deep fault of the example webhook
# (stash-overflow: a Widget with more than 8 tags loses the rest through an older version), each
# with the same wall-clock budget per seed: whether round-trip failed, the time to the first
# failure (fuzz prints it; run's is its whole wall time when it failed), and fuzz's execs/s.
# First, 10 default runs (--tests 100) with different seeds, as a user would run `run`.
# fuzz stops at its first problem (--stop-on-problem) and runs JOBS processes.
# Usage: bash bench/fuzz_vs_run.sh   (env: BUDGET seconds per seed, default 120; SEEDS, default
# "1 2 3"; JOBS, default 1; BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${BUDGET:-120}
seeds=${SEEDS:-1 2 3}
jobs=${JOBS:-1}
source bench/webhook.sh
bench_setup
crd=examples/crds/widgets.example.convcheck.dev.yaml
start_webhook --fault stash-overflow

echo "default run (--tests 100), 10 seeds:"
found=0
for seed in $(seq 1 10); do
  start=$(date +%s.%N)
  convcheck_run --crd "$crd" --seed "$seed" --shrink-budget 0 --json "$work/r.json" \
    >"$work/run.log" 2>&1 || true
  took=$(echo "$(date +%s.%N) - $start" | bc)
  hit=$(round_trip_failed "$work/r.json")
  [ "$hit" = no ] || found=$((found + 1))
  printf '  seed %-3s round-trip failed: %-3s  %6.1f s\n' "$seed" "$hit" "$took"
done
echo "  found in $found of 10"

echo "same wall-clock budget: ${budget} s per seed"
printf '%-5s %-5s %-6s %12s %8s\n' tool seed found "first (s)" "execs/s"
for seed in $seeds; do
  convcheck_run --crd "$crd" --seed "$seed" --duration "${budget}s" --shrink-budget 0 \
    --json "$work/r.json" >"$work/run.log" 2>&1 || true
  hit=$(round_trip_failed "$work/r.json")
  printf '%-5s %-5s %-6s %12s %8s\n' run "$seed" "$hit" "-" "-"
  rm -rf "$work/corpus"
  "$build/app/convcheck" fuzz --crd "$crd" --url "$url" --ca-file "$work/pki/ca.pem" \
    --seed "$seed" --max-total-time "${budget}s" --shrink-budget 0 --corpus "$work/corpus" \
    --jobs "$jobs" --stop-on-problem --report-dir "$work/fuzz" --color never \
    >"$work/fuzz.out" 2>"$work/fuzz.err" || true
  # The report's note: "fuzz: N case(s) in S s (X/s) over J process(es); ...; first problem
  # after T s (...)".
  first=$(sed -n 's/.*first problem after \([0-9.]*\) s.*/\1/p' "$work/fuzz.out" | head -n1)
  execs=$(sed -n 's/.*note: fuzz: [0-9]* case(s) in [0-9.]* s (\([0-9.]*\)\/s).*/\1/p' \
    "$work/fuzz.out" | head -n1)
  printf '%-5s %-5s %-6s %12s %8s\n' fuzz "$seed" "$([ -n "$first" ] && echo yes || echo no)" \
    "${first:--}" "${execs:-?}"
done
