#!/usr/bin/env bash
# The README's test command: installs missing Debian packages, configures, builds and
# runs the whole suite. With CI=true it also treats warnings as errors, builds the Debian
# package and checks it, runs the unit tests again under AddressSanitizer +
# UndefinedBehaviorSanitizer (clang), runs every fuzz target for a bounded time
# (EBOARD_FUZZ_SECONDS each, default 10) and runs the core unit tests cross-built for
# arm64 under qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
ci=${CI:-false}
werror=OFF
[ "$ci" = "true" ] && werror=ON

tools/install-deps.sh

# Each stage's heading says how long the run has taken so far (the CI log's stage costs).
step() { printf '\n=== %s (at %d min %02d s) ===\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }
passed=0
# Runs ctest, adding its count of passed tests to the closing summary.
run_ctest() {
  local log
  log=$(mktemp)
  ctest "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local n
  n=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  rm -f "$log"
  [ "$status" -eq 0 ] || exit "$status"
  passed=$((passed + ${n:-0}))
}

if [ "$ci" = "true" ]; then
  step "format"
  tools/check-format.sh
fi

step "release build"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DEBOARD_WERROR=$werror
cmake --build build -j "$jobs"

step "test suite"
run_ctest --test-dir build --output-on-failure --timeout 600 -j "$jobs" -LE slow

# The Debian package, from the Release build's programs (no new build): lintian clean,
# installed, upgraded and removed on this machine (root) by tools/check-package.sh.
if [ "$ci" = "true" ] || [ "${EBOARD_PACKAGE_TESTS:-}" = "1" ]; then
  step "Debian package"
  tools/package.sh amd64
  tools/check-package.sh build/packages/eboardd_*_amd64.deb build/packages/eboardd-dbgsym_*_amd64.deb
  passed=$((passed + 1))
fi

# One clang build serves both sanitizer stages: every translation unit is compiled with
# ASan+UBSan (and libFuzzer's coverage hooks, harmless to a test program), so the unit
# tests and the fuzz targets share the objects instead of paying for two builds.
sanitize=false
fuzz=false
{ [ "$ci" = "true" ] || [ "${EBOARD_SANITIZE_TESTS:-}" = "1" ]; } && sanitize=true
{ [ "$ci" = "true" ] || [ "${EBOARD_FUZZ_TESTS:-}" = "1" ]; } && fuzz=true
if [ "$sanitize" = "true" ] || [ "$fuzz" = "true" ]; then
  step "sanitizer build (clang, ASan+UBSan, libFuzzer)"
  targets=()
  [ "$sanitize" = "true" ] && targets+=(eboard_unit_tests)
  [ "$fuzz" = "true" ] && targets+=(eboard_fuzzers)
  CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DEBOARD_FUZZ=ON -DEBOARD_BENCHMARKS=OFF -DEBOARD_WERROR=$werror
  cmake --build build-fuzz -j "$jobs" --target "${targets[@]}"
fi

if [ "$sanitize" = "true" ]; then
  step "unit tests under ASan+UBSan"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    run_ctest --test-dir build-fuzz --output-on-failure --timeout 600 -j "$jobs" -L unit
fi

if [ "$fuzz" = "true" ]; then
  # libFuzzer runs on one thread: one target per core, each for the same time as alone.
  step "fuzz targets ($jobs at a time)"
  seconds=${EBOARD_FUZZ_SECONDS:-10}
  fuzzers=(build-fuzz/bin/fuzz_*)
  printf '%s\n' "${fuzzers[@]}" | xargs -P "$jobs" -I{} tools/fuzz-one.sh {} "$seconds"
  passed=$((passed + ${#fuzzers[@]}))
fi
# arm64 (the Raspberry Pi): unit tests cross-built and run under qemu-user. CI runs the
# core ones (tools/test-arm64.sh --core: the engine, the rules, the decoders, the wire
# format, the golden replays), whose cross build fits CI's 40 minutes; EBOARD_ARM64_TESTS=1
# runs every unit test instead (about 17 min on a fresh machine, BENCHMARKS.md "CI
# stages"). The whole arm64 suite and the amd64/arm64 answers check: tools/test-arm64.sh.
arm64=""
[ "$ci" = "true" ] && arm64="--core"
[ "${EBOARD_ARM64_TESTS:-}" = "1" ] && arm64="--unit"
if [ -n "$arm64" ]; then
  step "arm64 unit tests under qemu-user (tools/test-arm64.sh $arm64)"
  log=$(mktemp)
  CI=$ci tools/test-arm64.sh "$arm64" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  n=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  rm -f "$log"
  [ "$status" -eq 0 ] || exit "$status"
  passed=$((passed + ${n:-0}))
fi
step "all passed"
# The closing line counts every ctest test and every fuzz target run.
echo "tests: $passed passed, 0 failed"
