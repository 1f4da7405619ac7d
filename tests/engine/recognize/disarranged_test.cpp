// Boards that stand wrong without any move in them (docs/rules.md D2, 7.4): pieces missing for
// longer than a player holds one (knocked off, taken away), and a board turned round
// after the first move. Reported as disarranged with a restore request, never as a move,
// and withdrawn when the board is set right.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;

TEST(Disarranged, APieceMissingForLongIsDisarrangedAndWithdrawnWhenPutBack) {
  BoardDriver b;
  b.lift("d7", 500);  // knocked off the board while White thinks
  b.advance(10499);   // a piece held in a hand is not yet suspicious
  EXPECT_TRUE(b.of<events::IllegalMovePending>().empty());
  EXPECT_TRUE(b.of<events::RestoreRequested>().empty());
  EXPECT_EQ(b.tracker.next_deadline(), Millis(10500));
  b.advance(10500);
  const auto* pending = b.last<events::IllegalMovePending>();
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(pending->reason, IllegalReason::kUnexplained);
  EXPECT_EQ(pending->description, "board disarranged: pieces missing from d7");
  EXPECT_EQ(pending->from, kNoSquare);
  const auto* restore = b.last<events::RestoreRequested>();
  ASSERT_NE(restore, nullptr);
  EXPECT_EQ(b.last_event<events::RestoreRequested>()->at.count(), 10500);
  EXPECT_EQ(to_fen(restore->position), std::string(kStartFen));
  EXPECT_EQ(restore->squares, std::vector<Square>{kD7});
  b.put("d7", 'p', 12000);
  EXPECT_EQ(b.of<events::IllegalMoveCorrected>().size(), 1u);
  b.move("e2", "e4", 13000);
  b.press(kWhite, 13500);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
  EXPECT_EQ(b.of<events::RestoreRequested>().size(), 1u);
}

TEST(Disarranged, ACaptureVictimTakenAwayIsNeverAMove) {
  BoardDriver b("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  b.lift("d5", 1000);
  b.advance(20000);
  ASSERT_NE(b.last<events::RestoreRequested>(), nullptr);
  EXPECT_TRUE(b.tentative_ucis().empty());
  EXPECT_TRUE(b.completed_ucis().empty());
  // The capture completed later is an ordinary move; the request is withdrawn by it.
  b.move("e4", "d5", 21000);
  EXPECT_EQ(b.of<events::IllegalMoveCorrected>().size(), 1u);
  b.press(kWhite, 21500);
  EXPECT_EQ(b.completed_ucis(), Strings{"e4d5"});
}

TEST(Disarranged, TheParameterSetsTheTime) {
  TrackerConfig c = config_for();
  c.rules.disarranged_after = Millis(4000);
  BoardDriver b(c);
  b.lift("a8", 1000);
  b.advance(4999);
  EXPECT_TRUE(b.of<events::RestoreRequested>().empty());
  b.advance(5000);
  EXPECT_NE(b.last<events::RestoreRequested>(), nullptr);
}

TEST(Disarranged, ABoardTurnedRoundAfterTheFirstMoveIsNoMove) {
  BoardDriver b;
  b.move("e2", "e4", 1000);
  b.press(kWhite, 1500);
  std::array<SquareCode, kSquareCount> turned{};
  for (int s = 0; s < kSquareCount; ++s)
    turned[s] = b.tracker.committed().piece_on(rotate_180(Square(s)));
  b.tracker.placement(Millis(3000), turned, b.events);
  b.advance(7000);
  EXPECT_FALSE(b.tracker.recognizer().rotated());
  const auto* pending = b.last<events::IllegalMovePending>();
  ASSERT_NE(pending, nullptr);
  EXPECT_EQ(pending->reason, IllegalReason::kUnexplained);
  EXPECT_EQ(pending->description,
            "board turned round: the position stands mirrored, turn the board back");
  ASSERT_NE(b.last<events::RestoreRequested>(), nullptr);
  EXPECT_EQ(to_fen(b.last<events::RestoreRequested>()->position),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(b.tentative_ucis(), Strings{"e2e4"});
  EXPECT_TRUE(b.of<events::SetupIrregular>().empty());
  // Turned back, play goes on.
  std::array<SquareCode, kSquareCount> back{};
  for (int s = 0; s < kSquareCount; ++s) back[s] = b.tracker.committed().piece_on(Square(s));
  b.tracker.placement(Millis(8000), back, b.events);
  EXPECT_EQ(b.of<events::IllegalMoveCorrected>().size(), 1u);
  b.move("e7", "e5", 9000);
  b.press(kBlack, 9500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5"}));
}

}  // namespace
}  // namespace eboard::engine::testing
