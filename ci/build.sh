#!/usr/bin/env bash
# Installs dependencies, then configures and builds one CMake preset (default: "default"), all of
# it or only the targets named after it. Used by ci/demo.sh and ci/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-default}
shift || true
bash ci/install-deps.sh
cmake --preset "$preset" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" -j "$(nproc)" --target "$@"
else
  cmake --build --preset "$preset" -j "$(nproc)"
fi
