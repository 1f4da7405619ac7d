#!/usr/bin/env python3
"""Perft speed of eboard-perft against Debian's stockfish (`go perft N`, one thread).

Same positions, same machine, same run; the two programs alternate case by case and each
case is repeated (--rounds), keeping each program's best time. eboard-perft is timed from
outside (process start to exit, so its table set-up counts against it); stockfish runs as
one process and is timed from sending `go perft` to reading `Nodes searched`, so its
start-up (loading the network) is not counted. Usage:
  tools/bench_vs_stockfish.py [--perft build/bin/eboard-perft] [--stockfish /usr/games/stockfish]
"""
import argparse
import subprocess
import time

CASES = [  # the usual perft results list: start, Kiwipete, positions 3 to 6
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
]


def run_ours(perft, fen, depth):
    t0 = time.perf_counter()
    out = subprocess.run([perft, "--fen", fen, "--depth", str(depth)], check=True,
                         capture_output=True, text=True).stdout
    dt = time.perf_counter() - t0
    return int(out.strip().splitlines()[-1].split()[1]), dt


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line

    def perft(self, fen, depth):
        self.send("position fen " + fen)
        self.send("isready")
        self.wait_for("readyok")
        t0 = time.perf_counter()
        self.send("go perft %d" % depth)
        line = self.wait_for("Nodes searched")
        return int(line.split(":")[1]), time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perft", default="build/bin/eboard-perft")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sf = Stockfish(args.stockfish)
    total_nodes = ours_total = sf_total = 0.0
    print("%-9s %5s %12s %10s %10s %7s" % ("position", "depth", "nodes", "ours Mn/s", "sf Mn/s", "ratio"))
    for name, fen, depth in CASES:
        best_ours = best_sf = float("inf")
        for _ in range(args.rounds):
            n1, t1 = run_ours(args.perft, fen, depth)
            n2, t2 = sf.perft(fen, depth)
            if n1 != n2:
                raise SystemExit("node counts differ on %s: ours %d, stockfish %d" % (name, n1, n2))
            best_ours, best_sf = min(best_ours, t1), min(best_sf, t2)
        total_nodes += n1
        ours_total += best_ours
        sf_total += best_sf
        print("%-9s %5d %12d %10.1f %10.1f %7.2f" % (name, depth, n1, n1 / best_ours / 1e6,
                                                     n1 / best_sf / 1e6, best_sf / best_ours))
    print("%-9s %5s %12d %10.1f %10.1f %7.2f" % ("total", "", total_nodes, total_nodes / ours_total / 1e6,
                                                 total_nodes / sf_total / 1e6, sf_total / ours_total))
    sf.send("quit")


if __name__ == "__main__":
    main()
