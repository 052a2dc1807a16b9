#!/usr/bin/env bash
# The test job: set up, build one preset ("default", or "asan" for ASan+UBSan) and run ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
bash ci/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)" --timeout 900
