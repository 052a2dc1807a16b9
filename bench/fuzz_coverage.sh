#!/usr/bin/env bash
# `convcheck fuzz -- COMMAND` with the webhook's AFL++ code coverage, against fuzz on the
# webhook's behaviour alone and `run`, on the example webhook's deep fault (stash-overflow: a
# Widget with more than 8 tags loses the rest through an older version), each with the same
# wall-clock budget per seed: whether round-trip failed, the time to the first failure (the
# note of fuzz's report; stash-overflow breaks only round-trip), execs/s and libFuzzer's final
# feature count. Then the engine alone
# (fuzz_decode_loop: the same decoding, mutation and input feedback, no webhook) for its execs/s.
#   run        the example webhook (run -- COMMAND), --duration BUDGET
#   fuzz       the example webhook, behaviour only (the notice: no coverage)
#   fuzz-afl   example-webhook-afl with --no-coverage (the instrumentation's own cost)
#   fuzz+cov   example-webhook-afl with its coverage map
# Usage: bash bench/fuzz_coverage.sh   (env: BUDGET seconds per seed, default 60; SEEDS, default
# "1 2 3"; BUILD_DIR, configured with CONVCHECK_BENCH=ON and afl++ installed).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${BUDGET:-60}
seeds=${SEEDS:-1 2 3}
source bench/webhook.sh
bench_setup
plain="$build/examples/webhook/example-webhook"
afl="$build/examples/webhook/afl/example-webhook-afl"
loop="$build/bench/fuzz_decode_loop"
[ -x "$afl" ] || { echo "$afl missing: install afl++ (ci/install-deps.sh test), rebuild" >&2; exit 2; }
[ -x "$loop" ] || { echo "$loop missing: configure with -DCONVCHECK_BENCH=ON" >&2; exit 2; }
crd=examples/crds/widgets.example.convcheck.dev.yaml
hook_args=(--cert '{certdir}/tls.crt' --key '{certdir}/tls.key' --host 127.0.0.1 --port '{port}'
  --fault stash-overflow)

# The value of libFuzzer's last "ft: N" and of its execs/s statistic in $1, or "?".
final_features() { grep -o 'ft: [0-9]*' "$1" | tail -n1 | cut -d' ' -f2 || true; }
execs_per_second() { sed -n 's/^stat::average_exec_per_sec: *//p' "$1" | tail -n1; }

printf '%-9s %-5s %-6s %10s %8s %6s\n' tool seed found "first (s)" "execs/s" ft
for seed in $seeds; do
  start=$(date +%s.%N)
  "$build/app/convcheck" run --crd "$crd" --seed "$seed" --duration "${budget}s" \
    --shrink-budget 0 --properties round-trip --max-failures 1 --json "$work/r.json" \
    -- "$plain" "${hook_args[@]}" >"$work/run.log" 2>&1 || true
  took=$(echo "$(date +%s.%N) - $start" | bc)
  hit=$(round_trip_failed "$work/r.json")
  # run stops at its first failure (--max-failures 1): its wall time is the time to it.
  printf '%-9s %-5s %-6s %10s %8s %6s\n' run "$seed" "$hit" \
    "$([ "$hit" = yes ] && printf '%.1f' "$took" || echo -)" - -
  for tool in fuzz fuzz-afl fuzz+cov; do
    case "$tool" in
      fuzz) command=(-- "$plain" "${hook_args[@]}") ;;
      fuzz-afl) command=(--no-coverage -- "$afl" "${hook_args[@]}") ;;
      fuzz+cov) command=(-- "$afl" "${hook_args[@]}") ;;
    esac
    rm -rf "$work/corpus"
    "$build/app/convcheck" fuzz --crd "$crd" --seed "$seed" --max-total-time "${budget}s" \
      --shrink-budget 0 --corpus "$work/corpus" --report-dir "$work/fuzz" "${command[@]}" \
      >"$work/fuzz.out" 2>"$work/fuzz.err" || true
    first=$(sed -n 's/.*first problem after \([0-9.]*\) s.*/\1/p' "$work/fuzz.out" | head -n1)
    printf '%-9s %-5s %-6s %10s %8s %6s\n' "$tool" "$seed" \
      "$([ -n "$first" ] && echo yes || echo no)" "${first:--}" \
      "$(execs_per_second "$work/fuzz.err")" "$(final_features "$work/fuzz.err")"
  done
done

echo "the engine alone (fuzz_decode_loop, no webhook), ${budget} s:"
"$loop" "$crd" "$budget" 1 >"$work/loop.out" 2>"$work/loop.err" || true
printf '%-9s %-5s %-6s %10s %8s %6s\n' loop 1 - - "$(execs_per_second "$work/loop.err")" \
  "$(final_features "$work/loop.err")"
