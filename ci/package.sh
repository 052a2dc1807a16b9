#!/usr/bin/env bash
# The packaging job: builds the .deb and the .tar.gz with cpack from the default build, installs
# the .deb in a clean Debian 12 root (mmdebstrap, chroot) and runs `convcheck --help` and the demo
# there, then builds the container image from that same .deb (Containerfile, CONVCHECK_FROM=deb: nothing
# compiled twice) and runs the demo in it. Packages land in BUILD/package/dist/.
#
# BUILD_DIR: an already configured build tree to package (default: the default preset's build/).
# DEMO_ARGS: `convcheck run` options of the demo runs (default --tests 20). The Debian root file
# system is cached as BUILD/package-cache/debian-12-slim.tar (delete it to make it anew).
set -euo pipefail
cd "$(dirname "$0")/.."
# mmdebstrap --mode=root, chroot and mount need root.
if [ "$(id -u)" -ne 0 ]; then exec sudo -E bash "$0" "$@"; fi
started=$SECONDS
step() { echo "=== [$((SECONDS - started))s] $*"; }

step "dependencies"
bash ci/install-deps.sh build package
build=${BUILD_DIR:-build}
if [ -z "${BUILD_DIR:-}" ]; then cmake --preset default >/dev/null; fi
cmake --build "$build" -j "$(nproc)" --target convcheck convcheck_man_page example-webhook
build=$(cd "$build" && pwd)
pkg=$build/package
umount "$pkg/root/proc" 2>/dev/null || true  # left mounted by an interrupted run
rm -rf "$pkg" && mkdir -p "$pkg/dist"

step "cpack: .deb and .tar.gz"
(cd "$build" && cpack -G "DEB;TGZ" -B "$pkg/cpack" >/dev/null)
mv "$pkg"/cpack/*.deb "$pkg"/cpack/*.tar.gz "$pkg/dist/"
deb=$(ls "$pkg"/dist/*.deb)
dpkg-deb --field "$deb" Package Version Depends Installed-Size
ls -l "$pkg/dist"
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -qx './usr/bin/convcheck'
dpkg-deb --contents "$deb" | awk '{print $6}' | grep -qx './usr/share/man/man1/convcheck.1.gz'
tar -tzf "$pkg"/dist/*.tar.gz | grep -q '/bin/convcheck$'

step "clean Debian 12 root (mmdebstrap minbase, cached)"
# Like debian:12-slim: minbase, merged /usr set up by the hook (not the usrmerge package, which
# brings perl), without manuals, documentation and translations (dpkg path excludes, kept in the
# image); the chroot drops the excludes to install the .deb in full.
cache=$build/package-cache
base_tar=$cache/debian-12-slim.tar
if [ ! -s "$base_tar" ]; then
  mkdir -p "$cache"
  mmdebstrap --variant=minbase --mode=root --format=tar \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    bookworm "$base_tar.part" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  mv "$base_tar.part" "$base_tar"
fi
root=$pkg/root
mkdir -p "$root"
tar -C "$root" -xf "$base_tar"
rm -f "$root"/etc/dpkg/dpkg.cfg.d/99mmdebstrap
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT

# The demo's runs, kept short: the suite and ci/demo.sh itself cover convcheck's behaviour.
demo_args=${DEMO_ARGS:---tests 20}

step "install the .deb in the clean root"
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

step "demo in the clean root (installed convcheck against the example webhook)"
# The example webhook is a test fixture, not in the package: copy it with its libraries' packages,
# and openssl, with which the demo makes its certificates.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
webhook_packages=$(ldd "$build/examples/webhook/example-webhook" | awk '/=> \//{print "*/" $1}' \
  | xargs dpkg -S | grep ": \(/usr\)\?/lib/$multiarch/" | cut -d: -f1 | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086 # a list of package names
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  openssl $webhook_packages >/dev/null
mkdir -p "$root/demo/ci" "$root/demo/examples"
cp ci/demo.sh ci/make-certs.sh "$root/demo/ci/"
cp -r examples/crds "$root/demo/examples/"
cp "$build/examples/webhook/example-webhook" "$root/demo/"
chroot "$root" env CONVCHECK_BIN=convcheck EXAMPLE_WEBHOOK=/demo/example-webhook \
  DEMO_OUT=/demo/out DEMO_ARGS="$demo_args" bash /demo/ci/demo.sh >"$pkg/chroot-demo.log" 2>&1 \
  || { cat "$pkg/chroot-demo.log"; exit 1; }
tail -n 1 "$pkg/chroot-demo.log"
umount "$root/proc"
trap - EXIT
rm -rf "$root"

step "container image from the .deb"
podman=(podman --runtime /usr/sbin/runc)
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
base_image=localhost/convcheck-base:bookworm
if ! "${podman[@]}" image exists "$base_image" \
    || [ "$base_tar" -nt "$cache/base-image.imported" ]; then
  "${podman[@]}" import "$base_tar" "$base_image" >/dev/null
  touch "$cache/base-image.imported"
fi
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

step "demo in the container (as user 10001, no network but loopback)"
# A test image on top adds the example webhook's libraries; convcheck is the image's own.
cat >"$pkg/Containerfile.demo" <<EOF
FROM $image
USER 0
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends $webhook_packages \\
 && rm -rf /var/lib/apt/lists/*
USER 10001:10001
EOF
"${podman[@]}" build "${limits[@]}" --network host -f "$pkg/Containerfile.demo" -t "$image-demo" \
  "$pkg" >>"$pkg/image-build.log" 2>&1 || { cat "$pkg/image-build.log"; exit 1; }
pki=$pkg/pki
bash ci/make-certs.sh "$pki" >/dev/null
chmod a+r "$pki"/*.pem
"${run[@]}" -v "$PWD/ci:/demo/ci:ro" -v "$PWD/examples/crds:/demo/examples/crds:ro" \
  -v "$build/examples/webhook/example-webhook:/demo/example-webhook:ro" -v "$pki:/demo/pki:ro" \
  -e CONVCHECK_BIN=convcheck -e EXAMPLE_WEBHOOK=/demo/example-webhook -e DEMO_OUT=/tmp/demo \
  -e DEMO_PKI=/demo/pki -e DEMO_ARGS="$demo_args" --entrypoint bash "$image-demo" /demo/ci/demo.sh \
  >"$pkg/image-demo.log" 2>&1 || { cat "$pkg/image-demo.log"; exit 1; }
tail -n 1 "$pkg/image-demo.log"
"${podman[@]}" rmi "$image-demo" >/dev/null
# Earlier runs' images and stages, untagged by this one (the disk of a long-lived runner).
"${podman[@]}" image prune -f >/dev/null
step "done: packages in $pkg/dist"
