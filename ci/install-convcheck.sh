#!/usr/bin/env bash
# Installs convcheck from its release tarball (any x86_64 Linux with glibc 2.31 or newer): the
# GitHub Action's install step (action.yml), ci/newcomer.sh and docs/install.md use it.
#
#   install-convcheck.sh [VERSION] [PREFIX]
#
# Downloads BASE/vVERSION/convcheck-VERSION-Linux-x86_64.tar.gz and the .sha256 file beside it,
# checks the tarball against it, unpacks it into PREFIX/convcheck-VERSION-Linux-x86_64 and prints
# the bin/ directory to put on PATH. With curl, else wget, else python3.
#
#   VERSION (or CONVCHECK_VERSION)  0.2.0 or v0.2.0; default: the Action's own ref
#                                   (CONVCHECK_ACTION_REF, e.g. v0.2.0) when it is a version
#   PREFIX (or CONVCHECK_PREFIX)    default: $RUNNER_TOOL_CACHE/convcheck under GitHub Actions,
#                                   else ~/.local/share/convcheck
#   CONVCHECK_DOWNLOAD_BASE         where releases are downloaded from (default
#                                   $GITHUB_SERVER_URL/$CONVCHECK_ACTION_REPOSITORY/releases/download,
#                                   the Action's own repository's releases); tests point it at a
#                                   local server
#   CONVCHECK_BIN                   with no version at all: the convcheck already installed, kept
#
# Under GitHub Actions it adds the bin/ directory to $GITHUB_PATH (later steps find convcheck) and
# writes the output convcheck (the binary's path) to $GITHUB_OUTPUT.
set -euo pipefail

fail() {
  echo "install-convcheck: $*" >&2
  exit 2
}

version=${1:-${CONVCHECK_VERSION:-}}
if [ -z "$version" ] && [[ "${CONVCHECK_ACTION_REF:-}" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+ ]]; then
  version=$CONVCHECK_ACTION_REF
fi
if [ -z "$version" ]; then
  bin=${CONVCHECK_BIN:-convcheck}
  if found=$(command -v "$bin"); then
    echo "install-convcheck: no version given; using the installed $found" >&2
    [ -z "${GITHUB_OUTPUT:-}" ] || echo "convcheck=$found" >>"$GITHUB_OUTPUT"
    exit 0
  fi
  fail "no version given (the version input, e.g. 0.2.0) and no $bin installed"
fi
version=${version#v}
[[ "$version" =~ ^[0-9A-Za-z.+~-]+$ ]] || fail "not a version: $version"

case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  *) fail "no release tarball for $(uname -m): build from source (docs/install.md)" ;;
esac

base=${CONVCHECK_DOWNLOAD_BASE:-}
if [ -z "$base" ]; then
  [ -n "${CONVCHECK_ACTION_REPOSITORY:-}" ] \
    || fail "no download location: set CONVCHECK_DOWNLOAD_BASE (e.g. https://github.com/OWNER/convcheck/releases/download)"
  base=${GITHUB_SERVER_URL:-https://github.com}/$CONVCHECK_ACTION_REPOSITORY/releases/download
fi
name=convcheck-$version-Linux-$arch
url=${base%/}/v$version/$name.tar.gz

prefix=${2:-${CONVCHECK_PREFIX:-}}
if [ -z "$prefix" ]; then
  if [ -n "${RUNNER_TOOL_CACHE:-}" ]; then
    prefix=$RUNNER_TOOL_CACHE/convcheck
  else
    prefix=${HOME:?}/.local/share/convcheck
  fi
fi

# download URL FILE
download() {
  if command -v curl >/dev/null; then
    curl -fsSL --retry 3 -o "$2" "$1"
  elif command -v wget >/dev/null; then
    wget -q -O "$2" "$1"
  elif command -v python3 >/dev/null; then
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
      "$1" "$2"
  else
    fail "neither curl, wget nor python3 is installed to download $1 (e.g. apt-get install curl ca-certificates)"
  fi
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "install-convcheck: downloading $url" >&2
download "$url" "$work/$name.tar.gz" || fail "cannot download $url"
download "$url.sha256" "$work/$name.tar.gz.sha256" || fail "cannot download $url.sha256"
expected=$(awk 'NR == 1 {print $1}' "$work/$name.tar.gz.sha256")
actual=$(sha256sum "$work/$name.tar.gz" | awk '{print $1}')
[ "$expected" = "$actual" ] \
  || fail "$name.tar.gz does not match its .sha256 (expected $expected, got $actual): not installed"

mkdir -p "$prefix"
rm -rf "${prefix:?}/$name"
tar -C "$prefix" -xzf "$work/$name.tar.gz"
bin_dir=$(cd "$prefix/$name/bin" && pwd)
"$bin_dir/convcheck" --version >/dev/null \
  || fail "the installed $bin_dir/convcheck does not run here (it needs glibc 2.31 or newer)"
echo "install-convcheck: $("$bin_dir/convcheck" --version) in $bin_dir" >&2
[ -z "${GITHUB_PATH:-}" ] || echo "$bin_dir" >>"$GITHUB_PATH"
[ -z "${GITHUB_OUTPUT:-}" ] || echo "convcheck=$bin_dir/convcheck" >>"$GITHUB_OUTPUT"
echo "$bin_dir"
