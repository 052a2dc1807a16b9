#!/usr/bin/env bash
# Installs dependencies, then configures and builds one CMake preset (default: "default").
# Used by ci/demo.sh and ci/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
bash ci/install-deps.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
