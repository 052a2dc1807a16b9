#!/usr/bin/env bash
# Installs every build, test and fuzz dependency of convcheck from Debian packages.
# Idempotent: packages already present are left alone; safe to run on every CI job.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev clang-format
  nlohmann-json3-dev librapidcheck-dev libvalijson-dev libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev libyaml-dev libcurl4-openssl-dev libcpp-httplib-dev libssl-dev libcli11-dev
  libfmt-dev libpugixml-dev libre2-dev zlib1g-dev libjemalloc-dev openssl ca-certificates nodejs
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "install-deps: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
