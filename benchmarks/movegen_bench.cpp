// What the daemon pays per position: after each completed move the recognizer needs every
// legal successor and its placement key (docs/design.md "Incremental recognition").
#include <benchmark/benchmark.h>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

namespace {

using namespace eboard::engine;

constexpr const char* kPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // A quiet middlegame (position 6 of the usual perft results list).
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
};
constexpr const char* kNames[] = {"start", "middlegame", "kiwipete"};

struct Successor {
  Move move;
  Key placement_key;
};

void BM_SuccessorsWithPlacementKeys(benchmark::State& state) {
  Position pos = parse_fen(kPositions[state.range(0)]).value();
  MoveList moves;
  Successor successors[MoveList::kCapacity];
  for (auto _ : state) {
    generate_legal(pos, moves);
    int n = 0;
    for (Move m : moves) successors[n++] = {m, pos.placement_key_after(m)};
    benchmark::DoNotOptimize(successors);
    benchmark::ClobberMemory();
  }
  state.SetLabel(std::string(kNames[state.range(0)]) + ", " + std::to_string(moves.size()) +
                 " moves");
}
BENCHMARK(BM_SuccessorsWithPlacementKeys)->DenseRange(0, 2);

void BM_GenerateLegal(benchmark::State& state) {
  Position pos = parse_fen(kPositions[state.range(0)]).value();
  MoveList moves;
  for (auto _ : state) {
    generate_legal(pos, moves);
    benchmark::DoNotOptimize(moves);
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_GenerateLegal)->DenseRange(0, 2);

void BM_MakeUnmake(benchmark::State& state) {
  Position pos = parse_fen(kPositions[state.range(0)]).value();
  MoveList moves;
  generate_legal(pos, moves);
  for (auto _ : state) {
    for (Move m : moves) {
      pos.make(m);
      pos.unmake(m);
    }
    benchmark::DoNotOptimize(pos);
  }
  state.SetItemsProcessed(state.iterations() * moves.size());
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_MakeUnmake)->DenseRange(0, 2);

}  // namespace

BENCHMARK_MAIN();
