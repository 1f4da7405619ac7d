#!/usr/bin/env bash
# The broadcast set-up of an event on one machine: a local
# mosquitto broker on a loopback port, two eboardd daemons ("pi1" with two boards, "pi2"
# with one) playing real games on emulated DGT boards, each publishing to the broker and
# serving its live PGN and overlay, the event relay (eboard-relay: the round's PGN for a
# lichess broadcast, the event page, every board's overlay), and the event-wide view
# (eboard-events --mqtt) in the foreground. Prints the URLs. Ctrl-C stops everything.
#
#   tools/broadcast-demo.sh [SPEED]      SPEED: how much faster than the players (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
speed=${1:-10}
build=${BUILD_DIR:-build}

tools/install-deps.sh
programs=(eboardd eboard-sim eboard-events eboard-relay)
for p in "${programs[@]}"; do
  if [ ! -x "$build/bin/$p" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j "$(nproc)" --target "${programs[@]}"
    break
  fi
done
bin=$(cd "$build/bin" && pwd)

work=$(mktemp -d /tmp/eboard-broadcast-XXXXXX)
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "logs and journals kept in $work"
}
trap stop EXIT INT TERM

# A free loopback port (the kernel picks it; the gap before it is reused is harmless here).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
broker_port=$(free_port)
http1=$(free_port)
http2=$(free_port)
relay=$(free_port)

cat >"$work/mosquitto.conf" <<CONF
listener $broker_port 127.0.0.1
allow_anonymous true
set_tcp_nodelay true
log_dest stderr
log_type error
log_type warning
log_type notice
log_type information
CONF
[ "$(id -u)" -eq 0 ] && echo "user root" >>"$work/mosquitto.conf"
/usr/sbin/mosquitto -c "$work/mosquitto.conf" 2>"$work/mosquitto.log" &
pids+=($!)
for _ in $(seq 100); do grep -q " running" "$work/mosquitto.log" && break; sleep 0.05; done
grep -q " running" "$work/mosquitto.log" || { echo "mosquitto did not start: $(cat "$work/mosquitto.log")" >&2; exit 1; }

games=../shared/data/pgn/candidates_matches_1950-2022.pgn
for k in 1 2 3; do
  "$bin/eboard-sim" script --pgn "$games" --game "$k" --noise human --seed "$k" >"$work/game$k.ebs"
done

daemon() {  # node http-port boards...
  local node=$1 port=$2
  shift 2
  mkdir -p "$work/$node"
  local args=()
  for b in "$@"; do args+=(--board "$b"); done
  "$bin/eboardd" "${args[@]}" --sim-speed "$speed" --journal "$work/$node/journal" \
    --journal-fsync interval --runtime-dir "$work/$node" --listen "unix:$work/$node/events.sock" \
    --mqtt "127.0.0.1:$broker_port" --mqtt-site demo --mqtt-node "$node" \
    --http "127.0.0.1:$port" 2>"$work/$node/eboardd.log" &
  pids+=($!)
}
daemon pi1 "$http1" "board1=sim:$work/game1.ebs" "board2=sim:$work/game2.ebs"
daemon pi2 "$http2" "board3=sim:$work/game3.ebs"

"$bin/eboard-relay" --mqtt "127.0.0.1:$broker_port" --site demo --http "127.0.0.1:$relay" \
  2>"$work/relay.log" &
pids+=($!)

cat <<TEXT
broker      127.0.0.1:$broker_port   (topics eboard/v1/demo/#)
event page  http://127.0.0.1:$relay/            (the relay: every board, players, results)
round PGN   http://127.0.0.1:$relay/round.pgn   (a lichess broadcast's source URL)
TV overlay  http://127.0.0.1:$relay/overlay?board=pi1/board1
lower third http://127.0.0.1:$relay/overlay?board=pi1/board1&layout=lower-third&transparent=1
daemons'    http://127.0.0.1:$http1/overlay?board=board1
            http://127.0.0.1:$http1/overlay?board=board2
            http://127.0.0.1:$http2/overlay?board=board3
live PGN    http://127.0.0.1:$http1/live.pgn   http://127.0.0.1:$http2/live.pgn
logs        $work
The event-wide view follows (one line per board); Ctrl-C stops everything.
TEXT
"$bin/eboard-events" --mqtt "127.0.0.1:$broker_port" --site demo
