#!/usr/bin/env bash
# Debian root file systems for ci/package.sh and ci/newcomer.sh (sourced): made once with
# mmdebstrap as tar files, unpacked for each test and entered with chroot. Needs root.

# make_root_tar SUITE TAR: a minbase root of bullseye (Debian 11) or bookworm (Debian 12) like
# debian:SUITE-slim: without manuals, documentation and translations (dpkg path excludes); for
# bookworm merged /usr set up by the hook (not the usrmerge package, which brings perl; bullseye
# has no usr-is-merged package and its images are not merged). dpkg unpacks without fsync
# (force-unsafe-io, as debian:SUITE-slim's docker-apt-speedup sets it): a root that a crash would
# leave half-written is made anew. Kept when TAR exists.
make_root_tar() {
  local suite=$1 tar=$2 hooks=()
  [ -s "$tar" ] && return 0
  [ "$suite" = bullseye ] || hooks=(--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr)
  mkdir -p "$(dirname "$tar")"
  rm -f "$tar"
  mmdebstrap --quiet --variant=minbase --mode=root --format=tar "${hooks[@]}" \
    --dpkgopt=force-unsafe-io \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    "$suite" "$tar.part" \
    "deb http://deb.debian.org/debian $suite main" \
    "deb http://deb.debian.org/debian $suite-updates main" \
    "deb http://deb.debian.org/debian-security $suite-security main" \
    && mv "$tar.part" "$tar"
}

# unpack_root TAR DIR: DIR made anew from TAR, with the host's resolv.conf and /proc mounted.
unpack_root() {
  local tar=$1 root=$2
  remove_root "$root"
  mkdir -p "$root"
  tar -C "$root" -xf "$tar"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"
}

# remove_root DIR: /proc unmounted, DIR removed.
remove_root() {
  umount "$1/proc" 2>/dev/null || true
  if mountpoint -q "$1/proc" 2>/dev/null; then
    echo "roots.sh: $1/proc is still mounted; not removing $1" >&2
    return 1
  fi
  rm -rf "$1"
}

# unmount_roots DIR: every root under DIR (root-*) unmounted, as an interrupted run leaves them.
unmount_roots() {
  local proc
  for proc in "$1"/root-*/proc; do
    if [ -d "$proc" ]; then umount "$proc" 2>/dev/null || true; fi
  done
}
