#!/usr/bin/env bash
# The packaging job. Packages land in BUILD/package/dist/:
#   - the release tarball, convcheck-VERSION-Linux-x86_64.tar.gz (+ .sha256), holding
#     convcheck-portable (cmake/Portable.cmake: the default build's objects linked with every
#     library static but glibc and libgcc_s, for glibc 2.31 or newer). The portability test runs
#     its demo in a Debian 11 root (glibc 2.31) and a Debian 12 root, both minbase (mmdebstrap,
#     chroot), with nothing installed but the tarball;
#   - the .deb, from the default build (Debian 12's shared libraries as its Depends), installed
#     with apt-get in a clean Debian 12 root where --help, the man page and the demo run;
#   - the container image from that same .deb (Containerfile, CONVCHECK_FROM=deb: nothing compiled
#     twice), its demo as the image's user, reports written to a directory of the host's user
#     mounted with --user, and its man page.
#
# `bash ci/package.sh cache` makes only what is kept in BUILD/package-cache (below) and the base
# image, and needs no build: .ci/run makes them while the default build compiles.
#
# BUILD_DIR: an already configured build tree to package as .deb (default: the default preset's
# build/). DEMO_ARGS: `convcheck run` options of the demo runs (default --tests 20). Made once and
# kept in BUILD/package-cache (delete a file to make it anew): the Debian 11 and 12 root file
# systems (debian-11.tar, debian-12-slim.tar), ci/portable-deps.sh's glibc 2.31 sysroot, static
# libcurl and libfmt, cpp-httplib's header (portable-deps/); ci/newcomer.sh reuses them, the
# tarball and BUILD/portable/example-webhook-portable.
set -euo pipefail
cd "$(dirname "$0")/.."
# mmdebstrap --mode=root, chroot and mount need root.
if [ "$(id -u)" -ne 0 ]; then exec sudo -E bash "$0" "$@"; fi
started=$SECONDS
step_started=$SECONDS
step() {
  echo "=== [$((SECONDS - started))s, last step $((SECONDS - step_started))s] $*"
  step_started=$SECONDS
}
. ci/roots.sh

mode=${1:-all}
case "$mode" in
  all | cache) ;;
  *) echo "usage: ci/package.sh [cache]" >&2; exit 2 ;;
esac

step "dependencies"
bash ci/install-deps.sh build package
build=${BUILD_DIR:-build}
podman=(podman --runtime /usr/sbin/runc)
base_image=localhost/convcheck-base:bookworm
# make_cache CACHE: what every run reuses: ci/portable-deps.sh's sysroot and static libraries, the
# Debian 11 and 12 minbase roots, and the base image imported from the Debian 12 root.
# The roots only wait on the network and dpkg: made while the static libraries compile.
make_cache() {
  step "portable dependencies (ci/portable-deps.sh) and the Debian 11 and 12 minbase roots" \
    "(mmdebstrap), cached"
  (make_root_tar bullseye "$1/debian-11.tar" && make_root_tar bookworm "$1/debian-12-slim.tar") &
  local roots=$!
  bash ci/portable-deps.sh "$1/portable-deps"
  wait "$roots"
  step "base image from the Debian 12 root (podman import, cached)"
  if ! "${podman[@]}" image exists "$base_image" \
      || [ "$1/debian-12-slim.tar" -nt "$1/base-image.imported" ]; then
    "${podman[@]}" import "$1/debian-12-slim.tar" "$base_image" >/dev/null
    touch "$1/base-image.imported"
  fi
}
if [ "$mode" = cache ]; then
  mkdir -p "$build/package-cache"
  make_cache "$(cd "$build/package-cache" && pwd)"
  step "done: the packaging job's inputs in $build/package-cache"
  exit 0
fi
if [ -z "${BUILD_DIR:-}" ]; then cmake --preset default >/dev/null; fi
cmake --build "$build" -j "$(nproc)" --target convcheck convcheck_man_page example-webhook
build=$(cd "$build" && pwd)
pkg=$build/package
cache=$build/package-cache
unmount_roots "$pkg"
rm -rf "$pkg" && mkdir -p "$pkg/dist" "$cache"
trap 'unmount_roots "$pkg"' EXIT

make_cache "$cache"

step "portable binaries: static libraries but glibc, glibc 2.31 (cmake/Portable.cmake)"
# The same build tree: its objects are linked again, nothing is compiled twice.
cmake -S . -B "$build" -DCONVCHECK_PORTABLE_DEPS="$cache/portable-deps" >/dev/null
# Each link is checked (cmake/portable/check_binary.cmake); the check runs again here.
cmake --build "$build" -j "$(nproc)" --target convcheck-portable example-webhook-portable \
  >"$pkg/portable-build.log" 2>&1 || { tail -n 60 "$pkg/portable-build.log"; exit 1; }
portable_convcheck=$build/portable/convcheck-portable
portable_webhook=$build/portable/example-webhook-portable
for binary in "$portable_convcheck" "$portable_webhook"; do
  cmake -DBINARY="$binary" -DMAX_GLIBC=2.31 -P cmake/portable/check_binary.cmake
done
echo "GLIBC_ versions convcheck-portable needs (objdump -T):" \
  "$(objdump -T "$portable_convcheck" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tr '\n' ' ')"

step "packages: .deb (cpack) and the release tarball"
(cd "$build" && cpack -G DEB -B "$pkg/cpack" >/dev/null)
mv "$pkg"/cpack/*.deb "$pkg/dist/"
deb=$(ls "$pkg"/dist/*.deb)
# The tarball: the installed tree (man page, docs, CI runner) with the portable convcheck, stripped.
version=$("$portable_convcheck" --version | awk '{print $2}')
name=convcheck-$version-Linux-x86_64
stage=$pkg/stage
cmake --install "$build" --prefix "$stage/$name" --component convcheck >/dev/null
strip -o "$stage/$name/bin/convcheck" "$portable_convcheck"
tarball=$pkg/dist/$name.tar.gz
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$tarball" "$name"
rm -rf "$stage"
(cd "$pkg/dist" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
dpkg-deb --field "$deb" Package Version Depends Installed-Size
ls -l "$pkg/dist"
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -x >/dev/null './usr/bin/convcheck'
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -x >/dev/null './usr/share/man/man1/convcheck.1.gz'
tar -tzf "$tarball" | grep -x >/dev/null "$name/bin/convcheck"
tar -tzf "$tarball" | grep -x >/dev/null "$name/share/man/man1/convcheck.1.gz"
tar -tzf "$tarball" | grep -x >/dev/null "$name/share/convcheck/convcheck-ci.sh"

# The demo's runs, kept short: the suite and ci/demo.sh itself cover convcheck's behaviour.
demo_args=${DEMO_ARGS:---tests 20}
pki=$pkg/pki
bash ci/make-certs.sh "$pki" >/dev/null
chmod a+r "$pki"/*.pem

# portability_test NAME TAR: the tarball unpacked in a fresh root with nothing else installed;
# --version, --help, the man page, no missing library, and the demo (the portable example webhook).
portability_test() {
  local root=$pkg/root-$1
  unpack_root "$2" "$root"
  chroot "$root" ldd --version | sed -n 1p
  tar -C "$root/opt" -xzf "$tarball"
  local prefix
  prefix=/opt/$(basename "$tarball" .tar.gz)
  if chroot "$root" ldd "$prefix/bin/convcheck" | grep 'not found'; then
    echo "package.sh: the tarball's convcheck misses a library on $1" >&2
    return 1
  fi
  chroot "$root" "$prefix/bin/convcheck" --version
  chroot "$root" "$prefix/bin/convcheck" --help >/dev/null
  chroot "$root" test -s "$prefix/share/man/man1/convcheck.1.gz"
  mkdir -p "$root/demo/ci" "$root/demo/examples"
  cp ci/demo.sh ci/make-certs.sh "$root/demo/ci/"
  cp -r examples/crds "$root/demo/examples/"
  cp -r "$pki" "$root/demo/pki"
  cp "$portable_webhook" "$root/demo/example-webhook"
  chroot "$root" env CONVCHECK_BIN="$prefix/bin/convcheck" EXAMPLE_WEBHOOK=/demo/example-webhook \
    DEMO_OUT=/demo/out DEMO_PKI=/demo/pki DEMO_ARGS="$demo_args" bash /demo/ci/demo.sh \
    >"$pkg/$1-demo.log" 2>&1 || { cat "$pkg/$1-demo.log"; return 1; }
  echo "$1: the demo passed with the tarball ($(tail -n 1 "$pkg/$1-demo.log"))"
  remove_root "$root"
}

step "portability test: the tarball in a Debian 11 root (glibc 2.31)"
portability_test debian-11 "$cache/debian-11.tar"
step "portability test: the tarball in a Debian 12 root (glibc 2.36)"
portability_test debian-12 "$cache/debian-12-slim.tar"

step "install the .deb in a clean Debian 12 root"
root=$pkg/root-deb
unpack_root "$cache/debian-12-slim.tar" "$root"
rm -f "$root"/etc/dpkg/dpkg.cfg.d/99mmdebstrap  # install the .deb in full, man page too
cp "$deb" "$root/tmp/"
chroot "$root" apt-get update -qq
# Only the .deb and what it declares: a library it forgot shows here as "not found".
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "/tmp/$(basename "$deb")" >/dev/null
if chroot "$root" ldd /usr/bin/convcheck | grep 'not found'; then
  echo "package.sh: the .deb does not depend on every library convcheck needs" >&2
  exit 1
fi
chroot "$root" convcheck --version
chroot "$root" convcheck --help >/dev/null
chroot "$root" test -s /usr/share/man/man1/convcheck.1.gz
chroot "$root" test -s /usr/share/doc/convcheck/LICENSE

step "demo in the clean root (installed .deb against the example webhook)"
mkdir -p "$root/demo/ci" "$root/demo/examples"
cp ci/demo.sh ci/make-certs.sh "$root/demo/ci/"
cp -r examples/crds "$root/demo/examples/"
cp -r "$pki" "$root/demo/pki"
# The portable example webhook: a test fixture, not in the package, needing no library.
cp "$portable_webhook" "$root/demo/example-webhook"
chroot "$root" env CONVCHECK_BIN=convcheck EXAMPLE_WEBHOOK=/demo/example-webhook \
  DEMO_OUT=/demo/out DEMO_PKI=/demo/pki DEMO_ARGS="$demo_args" bash /demo/ci/demo.sh \
  >"$pkg/chroot-demo.log" 2>&1 || { cat "$pkg/chroot-demo.log"; exit 1; }
tail -n 1 "$pkg/chroot-demo.log"
remove_root "$root"

step "container image from the .deb"
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
# The build context is the source tree (.containerignore keeps build trees out); dist/ holds the
# .deb and kubectl.
rm -rf dist && mkdir dist
cp "$deb" dist/
kubectl_from=debian
if kubectl_path=$(command -v kubectl); then
  cp -L "$kubectl_path" dist/kubectl
  kubectl_from=context
fi
image=localhost/convcheck:ci
"${podman[@]}" build "${limits[@]}" --network host -f Containerfile \
  --build-arg BASE="$base_image" --build-arg CONVCHECK_FROM=deb \
  --build-arg KUBECTL="$kubectl_from" \
  -t "$image" . >"$pkg/image-build.log" 2>&1 || { cat "$pkg/image-build.log"; exit 1; }
rm -rf dist
"${podman[@]}" image inspect --format 'image {{.Id}}: {{.Size}} bytes' "$image"
run=("${podman[@]}" run --rm "${limits[@]}" --network none)
[ "$("${run[@]}" --entrypoint id "$image" -u)" = 10001 ]
"${run[@]}" "$image" --version
"${run[@]}" --entrypoint kubectl "$image" version --client
# The man page, read with man as a user would.
"${run[@]}" --entrypoint man "$image" -P cat convcheck | grep 'convcheck run' >/dev/null

step "demo in the container (as user 10001, no network but loopback)"
"${run[@]}" -v "$PWD/ci:/demo/ci:ro" -v "$PWD/examples/crds:/demo/examples/crds:ro" \
  -v "$portable_webhook:/demo/example-webhook:ro" -v "$pki:/demo/pki:ro" \
  -e CONVCHECK_BIN=convcheck -e EXAMPLE_WEBHOOK=/demo/example-webhook -e DEMO_OUT=/tmp/demo \
  -e DEMO_PKI=/demo/pki -e DEMO_ARGS="$demo_args" --entrypoint bash "$image" /demo/ci/demo.sh \
  >"$pkg/image-demo.log" 2>&1 || { cat "$pkg/image-demo.log"; exit 1; }
tail -n 1 "$pkg/image-demo.log"

step "container: reports into a mounted directory of the host's user (--user)"
# The host user's directory (uid 4321 here, mode 0755): the image's user 10001 cannot write there,
# `--user UID:GID` (docs/install.md) can, and the files are the host user's.
mounted=$pkg/mounted-reports
mkdir -p "$mounted" && chown 4321:4321 "$mounted" && chmod 0755 "$mounted"
cp examples/crds/widgets.example.convcheck.dev.yaml "$mounted/crd.yaml"
chown 4321:4321 "$mounted/crd.yaml"
mounted_run=("${run[@]}" -v "$mounted:/work" -w /work -v "$portable_webhook:/webhook/example-webhook:ro")
if "${mounted_run[@]}" "$image" run --crd crd.yaml --seed 1 --tests 5 --report-dir out \
    -- /webhook/example-webhook --cert '{certdir}/tls.crt' --key '{certdir}/tls.key' \
    --port '{port}' >"$pkg/mounted-as-10001.log" 2>&1; then
  echo "package.sh: user 10001 wrote into a directory it does not own" >&2
  exit 1
fi
grep -m 1 -i 'permission denied' "$pkg/mounted-as-10001.log"
"${mounted_run[@]}" --user 4321:4321 "$image" run --crd crd.yaml --seed 1 --tests 5 \
  --report-dir out -- /webhook/example-webhook --cert '{certdir}/tls.crt' \
  --key '{certdir}/tls.key' --port '{port}' >"$pkg/mounted-as-user.log" 2>&1 \
  || { cat "$pkg/mounted-as-user.log"; exit 1; }
[ "$(stat -c %u "$mounted/out/junit.xml")" = 4321 ]
echo "reports written as the host's user: $(cd "$mounted/out" && ls | tr '\n' ' ')"
# Earlier runs' images and stages, untagged by this one (the disk of a long-lived runner).
"${podman[@]}" image prune -f >/dev/null
step "done: packages in $pkg/dist"
