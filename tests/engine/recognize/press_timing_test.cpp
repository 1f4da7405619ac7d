// A press is judged on the placement at that instant (docs/rules.md D3): a press while the
// mover still holds the piece, with nothing put down, has no made move (4.7) and is a
// press without a move (7.5.3), never an illegal move; what the player releases after it
// is a pending move like any other.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;
constexpr const char* kCaptureFen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";

TEST(PressTiming, CaptureWithTheCapturingPieceStillInTheHandIsAPressWithoutAMove) {
  BoardDriver b(kCaptureFen);
  b.lift("d5", 1000);  // the victim is off the board...
  b.lift("e4", 1100);  // ...and the capturing pawn in the hand
  b.press(kWhite, 1200);
  ASSERT_NE(b.last<events::ClockPressWithoutMove>(), nullptr);
  EXPECT_EQ(b.last<events::ClockPressWithoutMove>()->classification, PressClass::kIllegal);
  const auto* illegal = b.last<events::IllegalMoveCompleted>();
  ASSERT_NE(illegal, nullptr);
  EXPECT_EQ(illegal->reason, IllegalReason::kPressWithoutMove);  // not REASON_UNEXPLAINED
  EXPECT_TRUE(b.completed_ucis().empty());
  // The capture released after the press is pending; Black replies and presses over it
  // (6.2.2), White's next move completes the capture (6.2.1.2) and then Black's reply.
  b.put("d5", 'P', 1300);
  EXPECT_EQ(b.tentative_ucis(), Strings{"e4d5"});
  b.move("e8", "e7", 2000);
  b.press(kBlack, 2500);
  EXPECT_EQ(b.of<events::ClockPressWithoutMove>().size(), 1u);
  b.move("e1", "e2", 3000);
  b.advance(3200);
  b.press(kWhite, 3500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e4d5", "e8e7", "e1e2"}));
  EXPECT_EQ(b.tracker.illegal_count(kWhite), 1);
  EXPECT_EQ(b.tracker.illegal_count(kBlack), 0);
}

TEST(PressTiming, ARestartPressRuleSetDoesNotCountIt) {
  BoardDriver b(config_for(kCaptureFen, "legacy-blitz"));
  b.lift("d5", 1000);
  b.lift("e4", 1100);
  b.press(kWhite, 1200);
  ASSERT_NE(b.last<events::ClockPressWithoutMove>(), nullptr);
  EXPECT_EQ(b.last<events::ClockPressWithoutMove>()->classification, PressClass::kRestartAllowed);
  EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty());
}

TEST(PressTiming, APieceLiftedAndHeldIsNoMove) {
  BoardDriver b;
  b.lift("g1", 1000);
  b.press(kWhite, 1500);
  ASSERT_NE(b.last<events::IllegalMoveCompleted>(), nullptr);
  EXPECT_EQ(b.last<events::IllegalMoveCompleted>()->reason, IllegalReason::kPressWithoutMove);
}

TEST(PressTiming, AMadeMoveWithAnotherPieceInTheHandIsCompleted) {
  BoardDriver b;
  b.move("e2", "e4", 1000);
  b.lift("b8", 1300);  // the opponent already holds a piece to reply (6.2.2)
  b.press(kWhite, 1500);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
  EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty());
}

TEST(PressTiming, ACaptureReleasedBeforeThePressIsTheMove) {
  BoardDriver b(kCaptureFen);
  b.lift("e4", 1000);  // capturing piece first, victim still on the board
  b.lift("d5", 1100);
  b.put("d5", 'P', 1150);
  b.press(kWhite, 1200);
  EXPECT_EQ(b.completed_ucis(), Strings{"e4d5"});
}

}  // namespace
}  // namespace eboard::engine::testing
