#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS from its seed corpus (tests/fuzz/corpus/NAME, when
# there is one) in a scratch corpus folder. Quiet when nothing is found; on a finding it
# prints the tail of the fuzzer's log and exits 1. tools/test.sh runs one per core.
# Usage: tools/fuzz-one.sh build-fuzz/bin/fuzz_NAME SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
fuzzer=$1
seconds=$2
name=$(basename "$fuzzer")
corpus=$(mktemp -d)
trap 'rm -rf "$corpus" "$corpus.log"' EXIT
seeds="tests/fuzz/corpus/${name#fuzz_}"
[ -d "$seeds" ] || seeds=""
echo "$name: ${seconds}s"
# shellcheck disable=SC2086 # $seeds is one folder or nothing
if ! "$fuzzer" -max_total_time="$seconds" -print_final_stats=0 "$corpus" $seeds 2>"$corpus.log"; then
  tail -50 "$corpus.log"
  echo "$name found a failure" >&2
  exit 1
fi
