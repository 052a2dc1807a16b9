#!/usr/bin/env bash
# What the portable build (CMake preset "portable", cmake/Portable.cmake) needs beyond Debian 12's
# packages, made under PREFIX and kept there (a second call with the same sources does nothing):
#
#   PREFIX/sysroot   glibc 2.31's libraries and start files (Debian 11's libc6-dev, extracted by
#                    mmdebstrap): the portable binaries link against it, so that they cannot use a
#                    glibc symbol newer than 2.31.
#   PREFIX/lib/libcurl.a
#                    libcurl as a static library, built from Debian 12's curl source package.
#                    Debian's libcurl.a is built with GSSAPI (krb5) and LDAP, which Debian ships
#                    as shared libraries only; this one has what convcheck uses (HTTP/1.1 and
#                    HTTPS with OpenSSL, HTTP/2 with nghttp2, zlib, proxies) and nothing else: no
#                    other protocol, authentication scheme or MIME form code is compiled.
#   PREFIX/lib/libfmt.a
#                    fmt as a static library, from Debian 12's fmt source package (Debian ships
#                    libfmt.so only).
#   PREFIX/include/httplib.h
#                    cpp-httplib as one header, from Debian 12's cpp-httplib source package:
#                    Debian's libcpp-httplib-dev splits it into a shared library and a header of
#                    declarations; the example webhook (the portability demo's) needs no library.
#
# Usage: portable-deps.sh PREFIX. Needs root (mmdebstrap), dpkg-dev and the build group of
# ci/install-deps.sh plus its package group (libnghttp2-dev, mmdebstrap).
set -euo pipefail
prefix=${1:?usage: portable-deps.sh PREFIX}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
jobs=$(nproc)

# The glibc 2.31 sysroot: Debian 11's libc6-dev and what it depends on, extracted (not installed).
if [ ! -e "$prefix/sysroot/.complete" ]; then
  rm -rf "$prefix/sysroot"
  mmdebstrap --quiet --variant=extract --include=libc6-dev --mode=root --format=directory \
    bullseye "$prefix/sysroot" \
    "deb http://deb.debian.org/debian bullseye main" \
    "deb http://deb.debian.org/debian-security bullseye-security main"
  # Absolute links (/lib64/ld-linux-x86-64.so.2 -> /lib/...) made relative: the linker reads them
  # on this machine, where they would point at Debian 12's files.
  find "$prefix/sysroot" -type l -lname '/*' -not -path "$prefix/sysroot/dev/*" -print0 \
    | while IFS= read -r -d '' link; do
      ln -sfr "$prefix/sysroot$(readlink "$link")" "$link"
    done
  touch "$prefix/sysroot/.complete"
fi

# Debian 12's source packages through an apt configuration of our own (deb-src lines), leaving the
# machine's sources alone.
apt_dir=$prefix/apt
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -qq)
sources_fetched=""
source_version() {  # source_version PACKAGE: the newest version of a source package in bookworm
  if [ -z "$sources_fetched" ]; then
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    cat >"$apt_dir/sources.list" <<'EOF'
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
EOF
    apt-get "${apt_opts[@]}" update
    sources_fetched=1
  fi
  local version
  version=$(apt-cache "${apt_opts[@]}" showsrc "$1" | sed -n 's/^Version: //p' | sort -V | tail -n 1)
  [ -n "$version" ] || { echo "portable-deps: no source package $1 in bookworm" >&2; return 1; }
  echo "$version"
}
unpack_source() {  # unpack_source PACKAGE VERSION: the unpacked tree's path on stdout
  local dir=$prefix/src/$1-$2
  if [ ! -d "$dir" ]; then
    mkdir -p "$prefix/src/download"
    (cd "$prefix/src/download" && apt-get "${apt_opts[@]}" source --download-only "$1=$2" >&2 \
      && dpkg-source --no-check -x "$1_${2#*:}.dsc" "$dir" >&2)
  fi
  echo "$dir"
}

# curl: static, HTTP and HTTPS (HTTP/1.1, HTTP/2) only: convcheck sets CURLOPT_PROTOCOLS_STR to
# "http,https" and uses no cookie, form, netrc, DNS-over-HTTPS or authentication option of
# libcurl's (a Kubernetes API server's token is a header it sets). The built-in CA locations are
# Debian's (and Ubuntu's); the webhook's CA is always given to libcurl by convcheck (--ca-file or
# the CRD's caBundle).
stamp=$prefix/lib/.curl-version
if [ ! -s "$stamp" ]; then
  version=$(source_version curl)
  src=$(unpack_source curl "$version")
  build=$prefix/src/curl-build
  rm -rf "$build" && mkdir -p "$build"
  (cd "$build" && "$src/configure" --quiet --prefix="$prefix" --disable-shared --enable-static \
    --disable-dependency-tracking --with-pic --with-openssl --with-nghttp2 --with-zlib \
    --without-libpsl --without-libidn2 --without-librtmp --without-libssh2 --without-gssapi \
    --without-zstd --without-brotli --without-libgsasl \
    --disable-ftp --disable-file --disable-ldap --disable-ldaps --disable-rtsp --disable-dict \
    --disable-telnet --disable-tftp --disable-pop3 --disable-imap --disable-smb --disable-smtp \
    --disable-gopher --disable-mqtt --disable-manual --disable-ntlm --disable-ntlm-wb \
    --disable-tls-srp --disable-crypto-auth --disable-cookies --disable-mime --disable-netrc \
    --disable-doh --disable-alt-svc --disable-hsts --disable-unix-sockets \
    --with-ca-bundle=/etc/ssl/certs/ca-certificates.crt --with-ca-path=/etc/ssl/certs >/dev/null)
  make -C "$build/lib" -j "$jobs" --quiet >/dev/null
  make -C "$build/lib" install --quiet >/dev/null
  make -C "$build/include" install --quiet >/dev/null
  make -C "$build" install-pkgconfigDATA --quiet >/dev/null
  rm -rf "$build"
  echo "$version" >"$stamp"
fi

# fmt: static, as Debian's headers describe it.
stamp=$prefix/lib/.fmt-version
if [ ! -s "$stamp" ]; then
  version=$(source_version fmtlib)
  src=$(unpack_source fmtlib "$version")
  build=$prefix/src/fmt-build
  rm -rf "$build"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DFMT_TEST=OFF -DFMT_DOC=OFF -DFMT_INSTALL=OFF >/dev/null
  cmake --build "$build" --target fmt >/dev/null
  install -D -m 0644 "$build/libfmt.a" "$prefix/lib/libfmt.a"
  rm -rf "$build"
  echo "$version" >"$stamp"
fi

# cpp-httplib: its single header, as upstream ships it.
stamp=$prefix/include/.httplib-version
if [ ! -s "$stamp" ]; then
  version=$(source_version cpp-httplib)
  src=$(unpack_source cpp-httplib "$version")
  install -D -m 0644 "$src/httplib.h" "$prefix/include/httplib.h"
  echo "$version" >"$stamp"
fi
glibc=$(find "$prefix/sysroot" -name 'libc-*.so' -printf '%f\n' | sed 's/libc-\(.*\)\.so/\1/')
echo "portable-deps: glibc $glibc sysroot, curl $(cat "$prefix/lib/.curl-version")," \
  "fmt $(cat "$prefix/lib/.fmt-version"), cpp-httplib $(cat "$prefix/include/.httplib-version")" \
  "in $prefix"
