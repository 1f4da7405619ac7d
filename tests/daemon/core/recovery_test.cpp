#include "daemon/core/recovery.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::daemon {
namespace {

using Codes = std::array<engine::SquareCode, engine::kSquareCount>;

engine::Position position(std::string_view fen) { return engine::parse_fen(fen).value(); }

Codes codes_after(engine::Position pos, const std::vector<std::string>& ucis) {
  for (const auto& uci : ucis) pos.make(engine::parse_uci(pos, uci).value());
  Codes codes{};
  for (int s = 0; s < engine::kSquareCount; ++s) codes[s] = engine::SquareCode(pos.piece_on(engine::Square(s)));
  return codes;
}

std::vector<std::string> ucis(const std::vector<engine::Move>& moves) {
  std::vector<std::string> out;
  for (const auto m : moves) out.push_back(engine::to_uci(m));
  return out;
}

const engine::Position& start_position() {
  static const engine::Position pos = position(engine::kStartFen);
  return pos;
}

TEST(Recovery, UnchangedBoard) {
  const engine::Position& kStart = start_position();
  const auto r = find_missed_moves(kStart, codes_after(kStart, {}), std::nullopt);
  EXPECT_EQ(r.verdict, MissedMoves::Verdict::kUnchanged);
}

TEST(Recovery, OneMoveConfirmedByTheClock) {
  const engine::Position& kStart = start_position();
  const auto r = find_missed_moves(kStart, codes_after(kStart, {"e2e4"}), engine::kBlack);
  ASSERT_EQ(r.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(r.moves), (std::vector<std::string>{"e2e4"}));
}

TEST(Recovery, ClockDisagreesOrUnknown) {
  const engine::Position& kStart = start_position();
  const Codes board = codes_after(kStart, {"e2e4"});
  EXPECT_EQ(find_missed_moves(kStart, board, engine::kWhite).verdict, MissedMoves::Verdict::kUnexplained);
  EXPECT_EQ(find_missed_moves(kStart, board, std::nullopt).verdict, MissedMoves::Verdict::kUnexplained);
}

TEST(Recovery, ThreePlies) {
  const engine::Position& kStart = start_position();
  const auto r = find_missed_moves(kStart, codes_after(kStart, {"e2e4", "d7d5", "e4d5"}), engine::kBlack);
  ASSERT_EQ(r.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(r.moves), (std::vector<std::string>{"e2e4", "d7d5", "e4d5"}));
}

TEST(Recovery, TransposedOrderIsAmbiguous) {
  const engine::Position& kStart = start_position();
  // 1.e4 e5 2.d4 and 1.d4 e5 2.e4 end on the same placement: nothing is guessed.
  const auto r = find_missed_moves(kStart, codes_after(kStart, {"e2e4", "e7e5", "d2d4"}), engine::kBlack);
  EXPECT_EQ(r.verdict, MissedMoves::Verdict::kUnexplained);
}

TEST(Recovery, ImpossiblePlacementIsUnexplained) {
  const engine::Position& kStart = start_position();
  Codes board = codes_after(kStart, {});
  board[0] = engine::kEmptyCode;  // a rook vanished
  EXPECT_EQ(find_missed_moves(kStart, board, engine::kBlack).verdict, MissedMoves::Verdict::kUnexplained);
}

}  // namespace
}  // namespace eboard::daemon
