#!/usr/bin/env bash
# Installs convcheck's dependencies from Debian packages, by group:
#   build    compile convcheck and package it (cpack: .deb and .tar.gz)
#   test     the test suite, sanitizers, fuzzing (afl++: the AFL-built example webhook),
#            formatting, benchmarks, the HTML report opened in headless Chromium (chromium)
#   package  ci/package.sh and ci/newcomer.sh: Debian roots (mmdebstrap), containers (podman,
#            runc), the portable build's extras (static nghttp2; dpkg-dev to unpack Debian's
#            curl and cpp-httplib sources), python3 with PyYAML (the Action's steps)
# The test group also installs the CEL evaluator's test oracles from the npm registry
# (tests/kube/cel/oracle: @bufbuild/cel and the cel-spec conformance data; never shipped).
# Usage: install-deps.sh [GROUP...] (default: build test). Idempotent: packages already present
# are left alone; safe to run on every CI job.
set -euo pipefail

groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then groups=(build test); fi

packages=()
for group in "${groups[@]}"; do
  case "$group" in
    build)
      packages+=(build-essential cmake ninja-build pkg-config file nlohmann-json3-dev
        librapidcheck-dev libvalijson-dev libyaml-cpp-dev libyaml-dev libcurl4-openssl-dev
        libcpp-httplib-dev libssl-dev libcli11-dev libfmt-dev libpugixml-dev libre2-dev zlib1g-dev
        libjemalloc-dev libclang-rt-14-dev) ;;
    test)
      packages+=(clang clang-format libgtest-dev libgmock-dev libbenchmark-dev
        openssl ca-certificates nodejs python3 python3-yaml zsh libxml2-utils afl++ chromium) ;;
    package)
      packages+=(mmdebstrap podman runc openssl ca-certificates libnghttp2-dev dpkg-dev
        binutils python3 python3-yaml) ;;
    *) echo "install-deps: unknown group $group (build, test, package)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# The CEL oracles for the tests (Node.js from the machine, or Debian's nodejs/npm).
install_cel_oracle() {
  local dir
  dir="$(cd "$(dirname "$0")/.." && pwd)/tests/kube/cel/oracle"
  [ -d "$dir/node_modules/@bufbuild/cel" ] && [ -d "$dir/node_modules/@bufbuild/cel-spec" ] && return 0
  command -v npm >/dev/null || return 0
  echo "install-deps: installing the CEL test oracles (npm) into $dir"
  (cd "$dir" && npm install --no-audit --no-fund --silent >/dev/null)
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present (${groups[*]})"
  for group in "${groups[@]}"; do if [ "$group" = test ]; then install_cel_oracle; fi; done
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
for group in "${groups[@]}"; do if [ "$group" = test ]; then install_cel_oracle; fi; done
