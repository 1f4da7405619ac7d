#!/usr/bin/env bash
# tools/test-arm64.sh: the project on 64-bit ARM, under emulation. Installs what it needs
# (the arm64 architecture, Debian's cross tool chain, the :arm64 -dev packages and
# qemu-user: tools/debian-packages-arm64.txt), cross-builds into build-arm64/ with
# cmake/aarch64-linux-gnu.cmake and runs the tests under qemu-user:
#   tools/test-arm64.sh          every test but the slow ones (unit, corpus, e2e), then
#                                the answers check: perft, the judge and the corpus
#                                replays on arm64 give byte for byte the amd64 output
#   tools/test-arm64.sh --unit   only the unit tests (and only what they need is built)
#   tools/test-arm64.sh --core   only the unit tests labelled `unit-core` (CI's arm64 stage):
#                                the engine, the rules, the decoders and emulators, the
#                                wire format and the golden replays (tests/CMakeLists.txt)
# With CI=true warnings are errors. CMAKE_CXX_COMPILER_LAUNCHER (e.g. ccache) is passed on
# to the cross build. Every program runs several times slower under qemu-user than
# natively, so the end-to-end tests' bounded waits are stretched by EBOARD_TEST_TIME_SCALE
# (default here 10; tests/e2e_process.h): the same checks, more time before a wait fails.
# Each stage heading says how long the script has run so far.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=full
build="build-arm64"
case "${1:-}" in
  "") ;;
  --unit) mode=unit ;;
  --core) mode=core ;;
  *)
    echo "test-arm64.sh: unknown argument '$1' (--unit, --core)" >&2
    exit 2
    ;;
esac
jobs=$(nproc)
werror=OFF
[ "${CI:-false}" = "true" ] && werror=ON
step() { printf '\n=== arm64: %s (at %d min %02d s) ===\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

step "packages"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
  $sudo apt-get update -q
fi
tools/install-deps.sh
tools/install-deps.sh tools/debian-packages-arm64.txt

# Tests start programs (eboardd starts eboard-sim, the e2e tests eboardd): an arm64
# program started from an emulated one needs the kernel to hand it to qemu too. The core
# tests start only eboard-replay, and through qemu-aarch64 itself (tests/program_command.h),
# so they run where binfmt_misc cannot be had (a container without privileges).
binfmt_ready() {
  [ -f /proc/sys/fs/binfmt_misc/qemu-aarch64 ] \
    && grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64
}
if ! binfmt_ready; then
  [ -f /proc/sys/fs/binfmt_misc/register ] \
    || $sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true
  if [ -f /proc/sys/fs/binfmt_misc/register ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    $sudo sh -c 'cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register' || true
  fi
  if ! binfmt_ready; then
    if [ "$mode" != "core" ]; then
      echo "test-arm64.sh: cannot register qemu-aarch64 with binfmt_misc; tests that start" \
        "programs would fail" >&2
      exit 1
    fi
    echo "test-arm64.sh: no binfmt_misc for qemu-aarch64; the core tests do without" >&2
  fi
fi

step "configure $build"
launcher=()
[ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ] \
  || launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER="$CMAKE_CXX_COMPILER_LAUNCHER")
cmake -S . -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
  -DCMAKE_BUILD_TYPE=Release -DEBOARD_WERROR=$werror -DEBOARD_BENCHMARKS=OFF "${launcher[@]}"

step "build"
if [ "$mode" = "unit" ]; then
  cmake --build "$build" -j "$jobs" --target eboard_unit_tests
elif [ "$mode" = "core" ]; then
  cmake --build "$build" -j "$jobs" --target eboard_core_unit_tests
else
  cmake --build "$build" -j "$jobs"
fi
# The build really is for arm64 (a wrong tool chain would still pass every test).
file -L "$build/bin/eboard-replay" | grep -q 'ARM aarch64' || {
  echo "test-arm64.sh: $build/bin/eboard-replay is not an arm64 program" >&2
  exit 1
}

step "tests under qemu-user"
export EBOARD_TEST_TIME_SCALE=${EBOARD_TEST_TIME_SCALE:-10}
label=(-L unit)
[ "$mode" = "core" ] && label=(-L core)
[ "$mode" = "full" ] && label=(-LE slow)
ctest --test-dir "$build" --output-on-failure --timeout 1200 -j "$jobs" "${label[@]}"
[ "$mode" = "full" ] || exit 0

step "answers: arm64 against amd64"
tools/compare-answers.sh build "$build"
step "arm64 done"
