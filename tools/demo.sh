#!/usr/bin/env bash
# The README's first command: installs missing Debian packages, builds (Release, in
# build/) and runs the daemon's demo - one real game played by the emulated DGT board and
# clock on a pseudo-terminal through the real driver, at 10x speed, events shown in the
# text view; it exits when the game ends. Extra arguments go to eboardd (for example
# `--demo-speed 1` for real time, `--print json` for the JSON lines).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

tools/install-deps.sh

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target eboardd eboard-sim eboard-events
exec build/bin/eboardd "$@"
