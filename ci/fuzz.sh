#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset "fuzz", or "asan": clang, ASan+UBSan) and runs each one for
# SECONDS (default 60) on its seed corpus in corpora/fuzz/<target>/ (example_converter: the
# example webhook's converter fuzzed in-process, examples/inprocess). New inputs go to a scratch
# corpus under out/fuzz/ (the checked-in seeds stay small); a crash stops the script with the
# reproducer under out/fuzz/<target>/. Usage: bash ci/fuzz.sh [SECONDS] [TARGET...]
# FUZZ_JOBS: how many targets fuzz at once (default 1; each runs one process on one core).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(review_response crd_loader schema_model pattern_gen bundle_reader corpus_reader
           example_converter)
fi
# FUZZ_PRESET=asan uses the asan preset's build (it builds the fuzz targets too, so CI compiles
# the sanitized libraries once); the default is the fuzz preset (build-fuzz).
preset=${FUZZ_PRESET:-fuzz}
case "$preset" in
  fuzz) build=build-fuzz ;;
  asan) build=build-asan ;;
  *) echo "FUZZ_PRESET must be fuzz or asan" >&2; exit 2 ;;
esac
bash ci/install-deps.sh >/dev/null
cmake --preset "$preset" >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

# fuzz_one TARGET: TARGET for SECONDS on its corpus; its lines printed once it is done.
fuzz_one() {
  local t=$1 out="out/fuzz/$1"
  local log="$out/fuzz.log"
  mkdir -p "$out/corpus"
  # -rss_limit_mb: a parser of untrusted input must stay bounded; -timeout: no input may hang it.
  # CONVCHECK_REPORT_DIR: where the in-process converter target (example_converter) writes a
  # failure's bundle and shrunk case.
  if CONVCHECK_REPORT_DIR="$out/report" "$build/fuzz/fuzz_$t" "$out/corpus" "corpora/fuzz/$t" \
      -max_total_time="$seconds" \
      -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$out/" >"$log" 2>&1; then
    echo "=== fuzz_$t for ${seconds}s: $(grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$log" | tr '\n' ' ')"
  else
    echo "fuzz_$t FAILED; reproducer and log in $out/" >&2
    tail -40 "$log" >&2
    return 1
  fi
}

jobs=${FUZZ_JOBS:-1}
status=0
running=()
for t in "${targets[@]}"; do
  if [ "${#running[@]}" -ge "$jobs" ]; then
    wait "${running[0]}" || status=1
    running=("${running[@]:1}")
  fi
  fuzz_one "$t" &
  running+=($!)
done
for pid in "${running[@]}"; do wait "$pid" || status=1; done
exit $status
