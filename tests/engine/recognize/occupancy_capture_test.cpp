// Captures on boards that sense occupancy only (docs/protocols.md §10): every capture by one
// piece shows the same occupancy (its square empties, the victim's stays occupied), so
// the victim's square is the one lifted last. Found by the occupancy corpus test
// (candidates 1950-2022 game 104, rough seed 1): a flicker on another capturable square
// while the player thought made the recognizer pick Rxe5 for Rxd8.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;
// The rook on d5 can take on d8 or on e5: both leave d5 empty and nothing else changed.
constexpr const char* kTwoVictimsFen = "3rk3/8/8/3Rp3/8/8/8/4K3 w - - 0 1";

BoardDriver occupancy_board() {
  return BoardDriver(config_for(kTwoVictimsFen, "fide-standard", SensingMode::kOccupancy));
}

TEST(OccupancyCapture, EarlierFlickerOnAnotherVictimDoesNotChooseTheCapture) {
  for (const bool victim_first : {false, true}) {
    BoardDriver b = occupancy_board();
    b.lift("e5", 500);  // a sensor flicker while White thinks
    b.put("e5", '?', 540);
    if (victim_first) b.lift("d8", 1000);
    b.lift("d5", 1100);
    if (!victim_first) b.lift("d8", 1200);
    b.put("d8", '?', 1300);
    b.press(kWhite, 1600);
    EXPECT_EQ(b.completed_ucis(), (Strings{"d5d8"})) << "victim first: " << victim_first;
  }
}

}  // namespace
}  // namespace eboard::engine::testing

// Illegal moves on an occupancy-only board: as precise as occupancy allows
// (illegal_analysis.h says what it cannot tell).
namespace eboard::engine::testing {
namespace {

BoardDriver occupancy_board(const char* fen) {
  return BoardDriver(config_for(fen, "fide-standard", SensingMode::kOccupancy));
}

TEST(OccupancyIllegal, CaptureThePieceCannotMakeIsAnIllegalMoveNotAPressWithoutOne) {
  BoardDriver b = occupancy_board("4k3/8/8/3R4/4p3/8/8/4K3 w - - 0 1");
  b.lift("e4", 1000);  // the rook "takes" diagonally
  b.lift("d5", 1100);
  b.put("e4", '?', 1200);
  b.press(kWhite, 1500);
  ASSERT_TRUE(b.of<events::ClockPressWithoutMove>().empty());
  const auto* e = b.last<events::IllegalMoveCompleted>();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->reason, IllegalReason::kPieceMovement);
  EXPECT_EQ(e->description,
            "the rook cannot move Rd5-e4 (occupancy-only board: the capture is inferred from the "
            "square lifted last)");
}

TEST(OccupancyIllegal, CaptureOfAnOwnPieceIsNamed) {
  BoardDriver b = occupancy_board("4k3/8/8/3R4/3P4/8/8/4K3 w - - 0 1");
  b.lift("d5", 1000);
  b.lift("d4", 1100);
  b.put("d4", '?', 1200);
  b.press(kWhite, 1500);
  const auto* e = b.last<events::IllegalMoveCompleted>();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->reason, IllegalReason::kOwnPieceCaptured);
}

TEST(OccupancyIllegal, PendingCaptureIsReportedOnceNoHandCanStillHoldAPiece) {
  // Until disarranged_after the board cannot tell a capture from a piece held in the hand.
  BoardDriver b = occupancy_board("4k3/8/8/3R4/4p3/8/8/4K3 w - - 0 1");
  b.lift("e4", 1000);
  b.lift("d5", 1100);
  b.put("e4", '?', 1200);
  b.advance(5000);
  EXPECT_TRUE(b.of<events::IllegalMovePending>().empty());
  b.advance(12000);
  const auto* e = b.last<events::IllegalMovePending>();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->reason, IllegalReason::kPieceMovement);
  EXPECT_EQ(e->from, kD5);
  EXPECT_EQ(e->to, kE4);
}

TEST(OccupancyIllegal, PieceHeldWithNothingLiftedIsStillAPressWithoutAMove) {
  BoardDriver b = occupancy_board("4k3/8/8/3R4/4p3/8/8/4K3 w - - 0 1");
  b.lift("d5", 1000);
  b.press(kWhite, 1500);
  EXPECT_EQ(b.of<events::ClockPressWithoutMove>().size(), 1u);
}

TEST(OccupancyIllegal, EnPassantAndCastlingAreToldByTheirSquares) {
  {
    BoardDriver b = occupancy_board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");  // no double step
    b.lift("d5", 1000);
    b.lift("e5", 1100);
    b.put("d6", '?', 1200);
    b.press(kWhite, 1500);
    const auto* e = b.last<events::IllegalMoveCompleted>();
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->description, "e5-d6 en passant is not possible now");
  }
  {
    BoardDriver b = occupancy_board("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");  // no rights
    b.move("e1", "g1", 1000);
    b.move("h1", "f1", 1300);
    b.press(kWhite, 1800);
    const auto* e = b.last<events::IllegalMoveCompleted>();
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->reason, IllegalReason::kCastling);
    EXPECT_EQ(e->description, "O-O is no longer allowed: the king or that rook has moved");
  }
}

}  // namespace
}  // namespace eboard::engine::testing
