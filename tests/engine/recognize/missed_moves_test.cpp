#include "engine/recognize/missed_moves.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::engine {
namespace {

using Codes = std::array<SquareCode, kSquareCount>;

Codes codes_after(Position pos, const std::vector<std::string>& ucis) {
  for (const auto& uci : ucis) pos.make(parse_uci(pos, uci).value());
  Codes codes{};
  for (int s = 0; s < kSquareCount; ++s) codes[s] = SquareCode(pos.piece_on(Square(s)));
  return codes;
}

std::vector<std::string> ucis(const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (const auto m : moves) out.push_back(to_uci(m));
  return out;
}

const Position& start_position() {
  static const Position pos = parse_fen(kStartFen).value();
  return pos;
}

TEST(MissedMoves, UnchangedBoard) {
  const Position& kStart = start_position();
  const auto r = find_missed_moves(kStart, codes_after(kStart, {}), std::nullopt);
  EXPECT_EQ(r.verdict, MissedMoves::Verdict::kUnchanged);
}

TEST(MissedMoves, OneMoveConfirmedByTheClock) {
  const Position& kStart = start_position();
  const auto r = find_missed_moves(kStart, codes_after(kStart, {"e2e4"}), kBlack);
  ASSERT_EQ(r.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(r.moves), (std::vector<std::string>{"e2e4"}));
}

TEST(MissedMoves, ClockDisagreesOrUnknown) {
  const Position& kStart = start_position();
  const Codes board = codes_after(kStart, {"e2e4"});
  EXPECT_EQ(find_missed_moves(kStart, board, kWhite).verdict, MissedMoves::Verdict::kUnexplained);
  EXPECT_EQ(find_missed_moves(kStart, board, std::nullopt).verdict,
            MissedMoves::Verdict::kUnexplained);
}

TEST(MissedMoves, ThreePlies) {
  const Position& kStart = start_position();
  const auto r = find_missed_moves(kStart, codes_after(kStart, {"e2e4", "d7d5", "e4d5"}), kBlack);
  ASSERT_EQ(r.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(r.moves), (std::vector<std::string>{"e2e4", "d7d5", "e4d5"}));
}

TEST(MissedMoves, TransposedOrderIsAmbiguous) {
  const Position& kStart = start_position();
  // 1.e4 e5 2.d4 and 1.d4 e5 2.e4 end on the same placement: nothing is guessed.
  const auto r = find_missed_moves(kStart, codes_after(kStart, {"e2e4", "e7e5", "d2d4"}), kBlack);
  EXPECT_EQ(r.verdict, MissedMoves::Verdict::kUnexplained);
}

TEST(MissedMoves, ImpossiblePlacementIsUnexplained) {
  const Position& kStart = start_position();
  Codes board = codes_after(kStart, {});
  board[0] = kEmptyCode;  // a rook vanished
  EXPECT_EQ(find_missed_moves(kStart, board, kBlack).verdict, MissedMoves::Verdict::kUnexplained);
}

// Without a clock nothing checks whose turn it is: the one shortest sequence stands, of
// either parity, and an ambiguous or impossible board is still not guessed.
TEST(MissedMoves, WithoutAClockTheUniqueSequenceStandsOnItsOwn) {
  const Position& kStart = start_position();
  EXPECT_EQ(find_missed_moves_without_clock(kStart, codes_after(kStart, {})).verdict,
            MissedMoves::Verdict::kUnchanged);
  const auto one = find_missed_moves_without_clock(kStart, codes_after(kStart, {"g1f3"}));
  ASSERT_EQ(one.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(one.moves), (std::vector<std::string>{"g1f3"}));
  const auto three =
      find_missed_moves_without_clock(kStart, codes_after(kStart, {"e2e4", "d7d5", "e4d5"}));
  ASSERT_EQ(three.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(three.moves), (std::vector<std::string>{"e2e4", "d7d5", "e4d5"}));
  EXPECT_EQ(find_missed_moves_without_clock(kStart, codes_after(kStart, {"e2e4", "e7e5", "d2d4"}))
                .verdict,
            MissedMoves::Verdict::kUnexplained);
  Codes lifted = codes_after(kStart, {"e2e4"});
  lifted[6] = kEmptyCode;  // g1: White's knight in the hand
  EXPECT_EQ(find_missed_moves_without_clock(kStart, lifted).verdict,
            MissedMoves::Verdict::kUnexplained);
}

// A move seen standing before the gap was made: 1. e4 e5 2. d4 is ambiguous from the start
// (1. d4 e5 2. e4), not once e4 was seen.
TEST(MissedMoves, WithoutAClockTheMovesSeenStandingComeFirst) {
  const Position& kStart = start_position();
  const Codes board = codes_after(kStart, {"e2e4", "e7e5", "d2d4"});
  const Move e4 = parse_uci(kStart, "e2e4").value();
  const auto r = find_missed_moves_without_clock(kStart, board, {e4});
  ASSERT_EQ(r.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(r.moves), (std::vector<std::string>{"e2e4", "e7e5", "d2d4"}));
  // A move seen that the board no longer shows (taken back, another played) is not used.
  const Move nf3 = parse_uci(kStart, "g1f3").value();
  EXPECT_EQ(find_missed_moves_without_clock(kStart, board, {nf3}).verdict,
            MissedMoves::Verdict::kUnexplained);
  const auto other = find_missed_moves_without_clock(kStart, codes_after(kStart, {"d2d4"}), {nf3});
  ASSERT_EQ(other.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(other.moves), (std::vector<std::string>{"d2d4"}));
}

// A piece in the hand is a piece missing, which captures can explain too: after
// 15...Bc6 of a candidates game, the rook put on d1 and the queen lifted from d8 to answer
// is also 16.Re1 Qd1 17.Rxd1. That board is a move being made, not a sequence to complete,
// with or without the clock (Black's runs after either), whether Rd1 was seen or not.
TEST(MissedMoves, PiecesInTheHandsAreAMoveBeingMade) {
  const Position pos =
      parse_fen("r2q1r1k/pp2bpp1/2b1pn1p/4Q3/8/P1N5/1PP1BPPP/R1B2RK1 w - - 1 15").value();
  Codes board = codes_after(pos, {"f1d1"});
  board[59] = kEmptyCode;  // d8: the black queen in the hand
  const Move rd1 = parse_uci(pos, "f1d1").value();
  EXPECT_EQ(find_missed_moves_without_clock(pos, board, {rd1}).verdict,
            MissedMoves::Verdict::kUnexplained);
  EXPECT_EQ(find_missed_moves_without_clock(pos, board).verdict,
            MissedMoves::Verdict::kUnexplained);
  EXPECT_EQ(find_missed_moves(pos, board, kBlack).verdict, MissedMoves::Verdict::kUnexplained);
  // Both pieces of a capture in the hands: the queen and the rook it takes on d1.
  Codes capture = codes_after(pos, {"f1d1"});
  capture[59] = kEmptyCode;
  capture[3] = kEmptyCode;  // d1
  EXPECT_EQ(find_missed_moves_without_clock(pos, capture, {rd1}).verdict,
            MissedMoves::Verdict::kUnexplained);
  // Once the queen is put down, the move is there.
  const auto made = find_missed_moves_without_clock(pos, codes_after(pos, {"f1d1", "d8b8"}), {rd1});
  ASSERT_EQ(made.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(made.moves), (std::vector<std::string>{"f1d1", "d8b8"}));
}

// An exchange finished while nobody listened is still found: every piece is down.
TEST(MissedMoves, AnExchangeMadeIsNotAMoveBeingMade) {
  const Position& kStart = start_position();
  const auto r =
      find_missed_moves_without_clock(kStart, codes_after(kStart, {"e2e4", "d7d5", "e4d5"}));
  ASSERT_EQ(r.verdict, MissedMoves::Verdict::kMoves);
  EXPECT_EQ(ucis(r.moves), (std::vector<std::string>{"e2e4", "d7d5", "e4d5"}));
}

}  // namespace
}  // namespace eboard::engine
