#!/usr/bin/env bash
# tools/journal-writes.sh [BUILD_DIR]: what the journal costs an SD card, in bytes written
# to the block device per move, under each --journal-fsync policy (BENCHMARKS.md, "SD
# card"). For each policy: a fresh ext4 file system on a loop device (mounted noatime,
# as Raspberry Pi OS mounts its root), eboardd journalling onto it while a sim: board
# plays the first EBOARD_JW_MOVES (default 40) moves of a real game, and the device's own
# count of sectors written
# (/sys/block/loopN/stat) from just after the mount to after the daemon stopped and the
# file system was synced. That includes ext4's own journal and metadata; what the card's
# controller adds on top (its write amplification) cannot be seen from here.
# Needs root (losetup, mount). EBOARD_JW_GAME (default 3) picks the game of the
# candidates collection, EBOARD_JW_SPEED (default 20) the emulator's speed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
game=${EBOARD_JW_GAME:-3}
max_moves=${EBOARD_JW_MOVES:-40}
speed=${EBOARD_JW_SPEED:-20}
pgn=../shared/data/pgn/candidates_matches_1950-2022.pgn
[ "$(id -u)" -eq 0 ] || {
  echo "journal-writes.sh: needs root (losetup, mount)" >&2
  exit 2
}
# A build directory is brought up to date; a folder with just bin/ is used as it is.
[ ! -f "$build/CMakeCache.txt" ] || cmake --build "$build" -j "$(nproc)" --target eboardd eboard-sim >/dev/null
work=$(mktemp -d)
mnt=$work/card
mkdir "$mnt"
cleanup() {
  mountpoint -q "$mnt" && umount "$mnt"
  [ -z "${loop:-}" ] || losetup -d "$loop" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
"$build/bin/eboard-sim" script --pgn "$pgn" --game "$game" --noise human --seed 1 >"$work/game.ebs"

sectors_written() { awk '{print $7}' "/sys/block/$(basename "$1")/stat"; }

printf '%-14s %6s %7s %9s %12s %10s %11s\n' policy moves events seconds bytes bytes/move bytes/event
# `none` is the file system alone (mount, the same wait, unmount): what the other rows
# include without any journal.
for policy in none always after-publish interval never; do
  truncate -s 128M "$work/card.img"
  # No lazy inode-table or journal initialisation: it would write in the background.
  mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$work/card.img"
  loop=$(losetup -f --show "$work/card.img")
  mount -o noatime "$loop" "$mnt"
  sync
  before=$(sectors_written "$loop")
  start=$(date +%s.%N)
  if [ "$policy" = none ]; then
    sleep 5
    sync -f "$mnt"
    umount "$mnt"
    after=$(sectors_written "$loop")
    losetup -d "$loop"
    loop=""
    printf '%-14s %6s %7s %9.1f %12d\n' none - - 5 $(((after - before) * 512))
    continue
  fi
  "$build/bin/eboardd" --board "g=sim:$work/game.ebs" --sim-speed "$speed" \
    --journal "$mnt/journal" --journal-fsync "$policy" --listen "unix:$work/events.sock" \
    --runtime-dir "$work" --print json >"$work/events.jsonl" 2>"$work/eboardd.log" &
  daemon=$!
  for _ in $(seq 1 6000); do
    grep -q '"gameEnded"' "$work/events.jsonl" && break
    [ "$(grep -c '"moveCompleted"' "$work/events.jsonl")" -lt "$max_moves" ] || break
    kill -0 "$daemon" 2>/dev/null || break
    sleep 0.1
  done
  [ "$(grep -c '"moveCompleted"' "$work/events.jsonl")" -gt 0 ] || {
    cat "$work/eboardd.log" >&2
    echo "journal-writes.sh: no move was played" >&2
    exit 1
  }
  kill -TERM "$daemon"
  wait "$daemon" || true
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  sync -f "$mnt"
  umount "$mnt"
  after=$(sectors_written "$loop")
  losetup -d "$loop"
  loop=""
  moves=$(grep -c '"moveCompleted"' "$work/events.jsonl" || true)
  events=$(wc -l <"$work/events.jsonl")
  bytes=$(((after - before) * 512))
  printf '%-14s %6d %7d %9.1f %12d %10d %11d\n' "$policy" "$moves" "$events" "$seconds" "$bytes" \
    $((bytes / (moves > 0 ? moves : 1))) $((bytes / (events > 0 ? events : 1)))
done
