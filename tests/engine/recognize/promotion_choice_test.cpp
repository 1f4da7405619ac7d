// The operator's promotion choice on boards that sense occupancy only (docs/protocols.md §10;
// docs/interfaces.md §3 `promote`): a queen unless the operator says otherwise,
// the choice re-matching a promotion already on the board or waiting for the next one,
// and a queen again after a promotion completes. A real GameTracker fed lifts, puts,
// presses and choices at chosen times.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;
// White pawns ready on b7 and g7, kings far away; Black has moves that do not matter.
constexpr const char* kTwoPawnsFen = "8/1P4P1/8/8/8/k7/p7/4K3 w - - 0 1";

BoardDriver occupancy_board(const char* fen) {
  return BoardDriver(config_for(fen, "fide-standard", SensingMode::kOccupancy));
}

void push_pawn(BoardDriver& b, std::string_view from, std::string_view to, int at_ms) {
  b.lift(from, at_ms);
  b.put(to, '?', at_ms + 100);
}

TEST(PromotionChoice, WithoutTheOperatorAnUnderPromotionIsAQueen) {
  BoardDriver b = occupancy_board(kTwoPawnsFen);
  push_pawn(b, "b7", "b8", 1000);  // the player put a knight there; the board cannot tell
  b.press(kWhite, 1500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"b7b8q"}));
  EXPECT_EQ(b.fen(), "1Q6/6P1/8/8/8/k7/p7/4K3 b - - 0 1");
}

TEST(PromotionChoice, LineBeforeThePawnIsPutDownMatchesTheChosenPieceAtOnce) {
  BoardDriver b = occupancy_board(kTwoPawnsFen);
  b.tracker.promotion_choice(Millis(900), kKnight, b.events);
  push_pawn(b, "b7", "b8", 1000);
  EXPECT_EQ(b.tentative_ucis(), (Strings{"b7b8n"}));
  b.press(kWhite, 1500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"b7b8n"}));
  EXPECT_EQ(b.last<events::MoveCompleted>()->san, "b8=N");
}

TEST(PromotionChoice, LineAfterThePawnIsPutDownReMatchesTheTentativeMove) {
  BoardDriver b = occupancy_board(kTwoPawnsFen);
  push_pawn(b, "b7", "b8", 1000);
  ASSERT_EQ(b.tentative_ucis(), (Strings{"b7b8q"}));
  b.tracker.promotion_choice(Millis(1400), kRook, b.events);
  EXPECT_EQ(b.tentative_ucis(), (Strings{"b7b8q", "b7b8r"}));
  const auto* t = b.last<events::MoveTentative>();
  EXPECT_EQ(b.last_event<events::MoveTentative>()->at.count(), 1400);
  EXPECT_EQ(t->sighting.first_seen.count(), 1100);  // the move stood since the put
  EXPECT_FALSE(t->sighting.slid_through);  // the operator's word is no slide to another move
  EXPECT_EQ(t->san, "b8=R");
  b.press(kWhite, 1600);
  EXPECT_EQ(b.completed_ucis(), (Strings{"b7b8r"}));
  EXPECT_TRUE(b.of<events::MoveWithdrawn>().empty());
}

TEST(PromotionChoice, ChoiceWaitsForTheNextPromotionAndIsAQueenAgainAfterIt) {
  BoardDriver b = occupancy_board(kTwoPawnsFen);
  b.tracker.promotion_choice(Millis(500), kBishop, b.events);  // no promotion on the board
  b.move("e1", "d1", 1000);
  b.press(kWhite, 1300);
  b.move("a3", "b3", 2000);
  b.press(kBlack, 2300);
  push_pawn(b, "b7", "b8", 3000);  // the choice applies to this one
  b.press(kWhite, 3300);
  b.move("b3", "c3", 4000);
  b.press(kBlack, 4300);
  push_pawn(b, "g7", "g8", 5000);  // and not to this one: a queen again
  b.press(kWhite, 5300);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e1d1", "a3b3", "b7b8b", "b3c3", "g7g8q"}));
}

TEST(PromotionChoice, PawnTakenBackKeepsTheChoiceForTheRealPromotion) {
  BoardDriver b = occupancy_board(kTwoPawnsFen);
  push_pawn(b, "b7", "b8", 1000);
  b.tracker.promotion_choice(Millis(1200), kKnight, b.events);
  b.lift("b8", 1400);  // the player changes their mind before the press
  b.put("b7", '?', 1500);
  push_pawn(b, "g7", "g8", 2000);
  b.press(kWhite, 2300);
  EXPECT_EQ(b.completed_ucis(), (Strings{"g7g8n"}));
}

TEST(PromotionChoice, CaptureOntoEitherSquareWithTheChosenPiece) {
  // b7xa8 and b7xc8 show the same occupancy: the lifted victim's square says which.
  BoardDriver b = occupancy_board("r1r5/1P6/8/8/8/k7/8/4K3 w - - 0 1");
  b.tracker.promotion_choice(Millis(900), kKnight, b.events);
  b.lift("c8", 1000);
  b.lift("b7", 1100);
  b.put("c8", '?', 1200);
  b.press(kWhite, 1500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"b7c8n"}));
}

TEST(PromotionChoice, UnderPromotionThatDoesNotMateEndsNothingWithoutAPress) {
  // c8=Q is mate (Ka8, Kb6); c8=N is not. The queen stands first, so the mate timer runs;
  // the operator's knight stops it, and only the press completes the move.
  BoardDriver b = occupancy_board("k7/2P5/1K6/8/8/8/8/8 w - - 0 1");
  push_pawn(b, "c7", "c8", 1000);
  ASSERT_EQ(b.tentative_ucis(), (Strings{"c7c8q"}));
  b.tracker.promotion_choice(Millis(1500), kKnight, b.events);
  b.advance(6000);
  EXPECT_TRUE(b.completed_ucis().empty());
  EXPECT_FALSE(b.tracker.ended());
  b.press(kWhite, 6000);
  EXPECT_EQ(b.completed_ucis(), (Strings{"c7c8n"}));
  EXPECT_FALSE(b.tracker.ended());
}

TEST(PromotionChoice, ChosenPieceThatMatesEndsTheGameOnceStableFromTheChoice) {
  // c8=B neither mates nor stalemates; c8=R mates like the queen: the reverse of the test
  // above, with the wait for a stable mate counted from the operator's choice.
  BoardDriver b = occupancy_board("k7/2P5/1K6/8/8/8/8/8 w - - 0 1");
  b.tracker.promotion_choice(Millis(500), kBishop, b.events);
  push_pawn(b, "c7", "c8", 1000);
  ASSERT_EQ(b.tentative_ucis(), (Strings{"c7c8b"}));
  b.tracker.promotion_choice(Millis(1500), kRook, b.events);
  b.advance(2400);  // 1 s (game_end_stable) after the choice, not after the put
  EXPECT_TRUE(b.completed_ucis().empty());
  b.advance(2600);
  EXPECT_EQ(b.completed_ucis(), (Strings{"c7c8r"}));
  EXPECT_TRUE(b.tracker.ended());
}

TEST(PromotionChoice, BoardThatSensesPiecesShowsThePieceAndIgnoresTheChoice) {
  BoardDriver b(config_for(kTwoPawnsFen));
  b.tracker.promotion_choice(Millis(900), kRook, b.events);
  b.lift("b7", 1000);
  b.put("b8", 'N', 1100);
  b.press(kWhite, 1500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"b7b8n"}));
}

}  // namespace
}  // namespace eboard::engine::testing
