// What the missed-move search costs when it explains nothing: the board shows a piece no
// legal sequence can put there, so every sequence of 1, 2 and 3 plies is tried
// (engine/recognize/missed_moves.h). That is its worst case. After a gap (lost bytes, a
// reconnect, a restart) the session runs it for the board's dump again at each square
// change and clock reading until the board is explained (daemon/core/board_session_sync.cpp):
// with a clock once, without one once per prefix of the moves seen standing and once
// from the committed position (with three seen, four searches).
#include <benchmark/benchmark.h>

#include <array>
#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/recognize/missed_moves.h"

namespace {

using namespace eboard::engine;
using SensedBoard = std::array<SquareCode, kSquareCount>;

// The positions: the start (20 moves), a middlegame with many captures and checks
// (perft's "Kiwipete", 48 moves).
const char* const kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
};

Position position(int index) { return parse_fen(kFens[index]).value(); }

// The committed placement with a second white king on an empty square of the middle of
// the board: no legal sequence of moves ends there.
SensedBoard unexplainable(const Position& pos) {
  SensedBoard board{};
  for (int s = 0; s < kSquareCount; ++s) board[s] = SquareCode(pos.piece_on(Square(s)));
  for (int s = 24; s < 40; ++s) {
    if (board[s] == kEmptyCode) {
      board[s] = SquareCode(make_piece(kWhite, kKing));
      break;
    }
  }
  return board;
}

// Three plies seen standing: the first legal move at each step.
std::vector<Move> three_seen(Position pos) {
  std::vector<Move> seen;
  for (int i = 0; i < 3; ++i) {
    MoveList moves;
    generate_legal(pos, moves);
    seen.push_back(*moves.begin());
    pos.make(seen.back());
  }
  return seen;
}

void BM_MissedMovesUnexplained(benchmark::State& state) {
  const Position pos = position(static_cast<int>(state.range(0)));
  const SensedBoard board = unexplainable(pos);
  for (auto _ : state) {
    auto result = find_missed_moves(pos, board, kWhite);
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_MissedMovesUnexplained)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_MissedMovesWithoutClockThreeSeen(benchmark::State& state) {
  const Position pos = position(static_cast<int>(state.range(0)));
  const SensedBoard board = unexplainable(pos);
  const std::vector<Move> seen = three_seen(pos);
  for (auto _ : state) {
    auto result = find_missed_moves_without_clock(pos, board, seen);
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_MissedMovesWithoutClockThreeSeen)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
