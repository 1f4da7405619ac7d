#!/usr/bin/env bash
# tools/package.sh [amd64|arm64]: the Debian package of a finished build, into
# build/packages/eboardd_<version>_<arch>.deb (and eboardd-dbgsym_..., the split-off debug
# symbols). The architecture defaults to this machine's. Reuses the programs already
# built (build/ for this machine's architecture, build-arm64/ for a cross build on an
# amd64 machine, or EBOARD_PACKAGE_BUILD_DIR), building only the programs and manual
# pages that are missing; a missing build directory is configured first (Release; a
# cross build with cmake/aarch64-linux-gnu.cmake). The package is put together with Debian's own tools:
# cmake --install into a staging tree, dpkg-shlibdeps for Depends, dpkg-gencontrol for
# the control file from debian/control and debian/changelog, dpkg-deb to pack.
# tools/check-package.sh runs lintian on the result and installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
native=$(dpkg --print-architecture)
arch=${1:-$native}
case "$arch" in
  amd64) triplet=x86_64-linux-gnu ;;
  arm64) triplet=aarch64-linux-gnu ;;
  *)
    echo "package.sh: architecture must be amd64 or arm64, not '$arch'" >&2
    exit 2
    ;;
esac
cross=false
[ "$arch" = "$native" ] || cross=true
default_build=build
tools_prefix=""
if [ "$cross" = true ]; then
  [ "$arch" = arm64 ] || {
    echo "package.sh: this machine ($native) cross-builds only arm64" >&2
    exit 2
  }
  default_build="build-arm64"
  tools_prefix="$triplet-"
fi
build=${EBOARD_PACKAGE_BUILD_DIR:-$default_build}
out=$root/build/packages
mkdir -p "$out"

if [ ! -f "$build/CMakeCache.txt" ]; then
  if [ "$cross" = true ]; then
    # The cross tool chain and the :arm64 libraries (tools/debian-packages-arm64.txt).
    dpkg --print-foreign-architectures | grep -qx arm64 || {
      echo "package.sh: run 'dpkg --add-architecture arm64 && apt-get update' first" >&2
      exit 1
    }
    tools/install-deps.sh tools/debian-packages-arm64.txt
    cmake -S . -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
      -DCMAKE_BUILD_TYPE=Release -DEBOARD_TESTS=OFF -DEBOARD_BENCHMARKS=OFF
  else
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DEBOARD_TESTS=OFF \
      -DEBOARD_BENCHMARKS=OFF
  fi
fi
cmake --build "$build" -j "$(nproc)" --target eboard_programs

version=$(dpkg-parsechangelog -l debian/changelog -S Version)
project_version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
if [ "$version" != "$project_version" ]; then
  echo "package.sh: debian/changelog is at $version but CMakeLists.txt at $project_version;" \
    "add a changelog entry (dch -v $project_version)" >&2
  exit 1
fi
# The changelog's date, not the build's, for every timestamp that dpkg-deb and gzip write.
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l debian/changelog -S Timestamp)
export SOURCE_DATE_EPOCH

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/eboardd
debug=$work/eboardd-dbgsym
DESTDIR=$stage cmake --install "$build" --prefix /usr >/dev/null
doc=$stage/usr/share/doc/eboardd
install -m 644 debian/copyright "$doc/copyright"
gzip -9n <debian/changelog >"$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"

# Strip every program; its debug information goes to the -dbgsym package under
# /usr/lib/debug/.build-id/, where gdb looks for it (as dh_strip does).
build_ids=()
for program in "$stage"/usr/bin/*; do
  id=$(${tools_prefix}readelf -n "$program" | sed -n 's/^.*Build ID: \([0-9a-f]*\)$/\1/p')
  [ -n "$id" ] || {
    echo "package.sh: $program has no build id" >&2
    exit 1
  }
  build_ids+=("$id")
  target=$debug/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
  mkdir -p "$(dirname "$target")"
  ${tools_prefix}objcopy --only-keep-debug --compress-debug-sections "$program" "$target"
  chmod 644 "$target"
  ${tools_prefix}strip --remove-section=.comment --remove-section=.note "$program"
  ${tools_prefix}objcopy --add-gnu-debuglink="$target" "$program"
done

# Every program needs its manual page (lintian: binary-without-manpage).
for program in "$stage"/usr/bin/*; do
  name=$(basename "$program")
  [ -f "$stage/usr/share/man/man1/$name.1.gz" ] || {
    echo "package.sh: $name has no manual page: is help2man installed?" >&2
    exit 1
  }
done

find "$stage" "$debug" -type d -exec chmod 755 {} +
find "$stage" -type f -exec chmod 644 {} +
chmod 755 "$stage"/usr/bin/*

# Depends from the libraries the programs link (dpkg-shlibdeps reads debian/control).
DEB_HOST_ARCH=$arch dpkg-shlibdeps -T"$work/substvars" -e "$stage"/usr/bin/* 2>"$work/shlibdeps.log" \
  || {
    cat "$work/shlibdeps.log" >&2
    exit 1
  }

echo "misc:Depends=" >>"$work/substvars"  # nothing added by debhelper: there is none

mkdir -p "$stage/DEBIAN"
install -m 644 debian/conffiles "$stage/DEBIAN/conffiles"
for script in postinst prerm postrm; do
  install -m 755 "debian/$script" "$stage/DEBIAN/$script"
done
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
  | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/md5sums"
DEB_HOST_ARCH=$arch dpkg-gencontrol -peboardd -cdebian/control -ldebian/changelog \
  -T"$work/substvars" -P"$stage" -f"$work/files"
chmod 644 "$stage/DEBIAN/control"

# The -dbgsym package: what dh_strip and dh_gencontrol would write for it.
mkdir -p "$debug/DEBIAN" "$debug/usr/share/doc"
ln -s eboardd "$debug/usr/share/doc/eboardd-dbgsym"
(cd "$debug" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
  | xargs -0 md5sum) >"$debug/DEBIAN/md5sums"
cat >"$debug/DEBIAN/control" <<EOF
Package: eboardd-dbgsym
Source: eboardd
Version: $version
Auto-Built-Package: debug-symbols
Architecture: $arch
Maintainer: $(sed -n 's/^Maintainer: //p' debian/control)
Installed-Size: $(du -sk --exclude=DEBIAN "$debug" | cut -f1)
Depends: eboardd (= $version)
Section: debug
Priority: optional
Description: debug symbols for eboardd
Build-Ids: ${build_ids[*]}
EOF
chmod 644 "$debug/DEBIAN/control" "$debug/DEBIAN/md5sums"

rm -f "$out"/eboardd_*_"$arch".deb "$out"/eboardd-dbgsym_*_"$arch".deb  # one version here
deb=$out/eboardd_${version}_${arch}.deb
dbgsym=$out/eboardd-dbgsym_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
dpkg-deb --root-owner-group -Zxz --build "$debug" "$dbgsym" >/dev/null
echo "$deb"
echo "$dbgsym"
