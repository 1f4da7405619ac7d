#!/usr/bin/env bash
# tools/compare-answers.sh AMD64_BUILD ARM64_BUILD: the same questions to both builds'
# programs, the answers compared byte for byte (tools/test-arm64.sh runs it; arm64
# programs run under qemu-user through binfmt_misc). Builds what is missing in
# AMD64_BUILD (eboard-perft, eboard-judge, eboard-sim, eboard-replay).
#   perft:   every position of the perft suite, `--divide` at the deepest depth of at
#            most EBOARD_ANSWERS_PERFT_NODES nodes (default 200000): every root move's count
#   judge:   both unwinnability files, full and --quick: every verdict
#   replays: every EBOARD_ANSWERS_GAME_STEP-th game (default 10) of both PGN collections as
#            a rough sensor script (eboard-sim script, seeded by the game number), replayed
#            by eboard-replay: the script, every event line and the PGN written back
# Prints one line per check and exits 1 at the first difference (a diff of it on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
amd64=${1:?usage: compare-answers.sh AMD64_BUILD ARM64_BUILD}
arm64=${2:?usage: compare-answers.sh AMD64_BUILD ARM64_BUILD}
data=$(cd .. && pwd)/shared/data
max_nodes=${EBOARD_ANSWERS_PERFT_NODES:-200000}
game_step=${EBOARD_ANSWERS_GAME_STEP:-10}
programs=(eboard-perft eboard-judge eboard-sim eboard-replay)
if [ ! -f "$amd64/CMakeCache.txt" ]; then
  cmake -S . -B "$amd64" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$amd64" -j "$(nproc)" --target "${programs[@]}" >/dev/null
for program in "${programs[@]}"; do
  file -L "$arm64/bin/$program" | grep -q 'ARM aarch64' || {
    echo "compare-answers.sh: $arm64/bin/$program is not an arm64 program" >&2
    exit 1
  }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs "$@" with each build's programs (the command's first word names the program) and
# compares the two outputs; $1 is a label for the report.
same() {
  local label=$1
  shift
  local program=$1
  shift
  "$amd64/bin/$program" "$@" >"$work/amd64.out" 2>&1 || echo "exit $?" >>"$work/amd64.out"
  "$arm64/bin/$program" "$@" >"$work/arm64.out" 2>&1 || echo "exit $?" >>"$work/arm64.out"
  if ! cmp -s "$work/amd64.out" "$work/arm64.out"; then
    echo "compare-answers.sh: $label differs between amd64 and arm64:" >&2
    diff "$work/amd64.out" "$work/arm64.out" | head -20 >&2
    exit 1
  fi
  cat "$work/amd64.out" >>"$work/all-$program"
}

positions=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  fen=${line%% ;*}
  depth=0
  for field in $(tr ';' '\n' <<<"${line#* ;}" | sed -n 's/^ *D\([0-9]*\) \([0-9]*\) *$/\1:\2/p'); do
    [ "${field#*:}" -le "$max_nodes" ] && depth=${field%%:*}
  done
  [ "$depth" -gt 0 ] || continue
  same "perft $fen depth $depth" eboard-perft --fen "$fen" --depth "$depth" --divide
  positions=$((positions + 1))
done <"$data/perft/perft_suite.epd"
echo "perft: $positions positions, every root move's count at depth <= $max_nodes nodes: identical" \
  "($(grep -c '^nodes' "$work/all-eboard-perft") totals, $(md5sum <"$work/all-eboard-perft" | cut -c1-12))"

for file in cha_vectors lichess_final_positions; do
  same "judge $file" eboard-judge "$data/unwinnability/$file.txt"
  same "judge --quick $file" eboard-judge --quick "$data/unwinnability/$file.txt"
done
echo "judge: $(grep -c '^W:' "$work/all-eboard-judge") verdict lines (full and --quick, both files):" \
  "identical ($(md5sum <"$work/all-eboard-judge" | cut -c1-12))"

games=0
for pgn in "$data"/pgn/*.pgn; do
  total=$(grep -c '^\[Event ' "$pgn")
  for ((game = 1; game <= total; game += game_step)); do
    same "script $(basename "$pgn") game $game" eboard-sim script --pgn "$pgn" --game "$game" \
      --noise rough --seed "$game"
    cp "$work/amd64.out" "$work/game.ebs"
    for arch in amd64 arm64; do
      build=$amd64
      [ "$arch" = arm64 ] && build=$arm64
      "$build/bin/eboard-replay" --pgn-out "$work/$arch.pgn" "$work/game.ebs" >"$work/$arch.out"
      cat "$work/$arch.pgn" >>"$work/$arch.out"
    done
    cmp -s "$work/amd64.out" "$work/arm64.out" || {
      echo "compare-answers.sh: the replay of $(basename "$pgn") game $game differs:" >&2
      diff "$work/amd64.out" "$work/arm64.out" | head -20 >&2
      exit 1
    }
    cat "$work/amd64.out" >>"$work/all-eboard-replay"
    games=$((games + 1))
  done
done
echo "replays: $games games (every ${game_step}th of both collections, rough noise): scripts," \
  "events and PGN identical ($(wc -l <"$work/all-eboard-replay") lines," \
  "$(md5sum <"$work/all-eboard-replay" | cut -c1-12))"
