#!/usr/bin/env bash
# The shapes of generated objects (bench/shape_bench.cpp) over the example CRDs and over the CRD
# zoo: list lengths and how often lists reach maxItems, map keys and free-form depth, punctuation
# in free strings, repeated type/name fields, the int-or-string range, realistic metadata
# (managedFields, last-applied-configuration), object sizes and each version pair's 500-object
# LIST chunk as a default run draws it.
# Usage: bash bench/shapes.sh   (env: OBJECTS per version (default 500), SEED (default 1),
# BUILD_DIR, CONVCHECK_ZOO_DIR (default corpora/crds))
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
[ -x "$build/bench/shape_bench" ] || cmake --build "$build" --target shape_bench >/dev/null
objects=${OBJECTS:-500}
seed=${SEED:-1}
zoo=${CONVCHECK_ZOO_DIR:-corpora/crds}
for corpus in examples/crds "$zoo"; do
  echo "== $corpus ($objects objects per version, seed $seed)"
  "$build/bench/shape_bench" --objects "$objects" --seed "$seed" "$corpus"
done
