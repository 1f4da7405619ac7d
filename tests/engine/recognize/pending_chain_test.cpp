// Moves beyond one ply without a press (docs/rules.md D2, D3, scenario 25):
// completion by the same player's next move (6.2.1.2), a press after the opponent already
// moved (6.2.2), and a game end on a later ply (6.2.1.1).
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;

std::vector<CompletionKind> completions(const BoardDriver& b) {
  std::vector<CompletionKind> out;
  for (const auto* e : b.of<events::MoveCompleted>()) out.push_back(e->completion);
  return out;
}

TEST(PendingChain, TheSamePlayersNextMoveCompletesTheUnpressedOne) {
  BoardDriver b;
  b.move("e2", "e4", 1000);
  b.move("e7", "e5", 2000);
  EXPECT_TRUE(b.completed_ucis().empty());
  b.move("g1", "f3", 3000);  // 6.2.1.2: White's first move is completed on the put
  ASSERT_EQ(b.completed_ucis(), Strings{"e2e4"});
  const auto* first = b.last<events::MoveCompleted>();
  EXPECT_EQ(b.last_event<events::MoveCompleted>()->at.count(), 3100);
  EXPECT_EQ(first->completion, CompletionKind::kNextMove);
  EXPECT_EQ(b.last_event<events::MoveCompleted>()->articles, Strings{"6.2.1.2"});
  const auto* third = b.last<events::MoveTentative>();
  EXPECT_EQ(to_uci(third->move), "g1f3");
  EXPECT_EQ(third->san, "Nf3");
  EXPECT_EQ(to_fen(third->position),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  b.move("b8", "c6", 4000);  // and Black's, by the same rule
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5"}));
  b.press(kWhite, 5000);  // White's clock still runs: the press completes Nf3
  b.press(kBlack, 6000);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5", "g1f3", "b8c6"}));
  EXPECT_EQ(completions(b), (std::vector<CompletionKind>{
                                CompletionKind::kNextMove, CompletionKind::kNextMove,
                                CompletionKind::kClockPress, CompletionKind::kClockPress}));
  EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty());
  EXPECT_TRUE(b.of<events::ClockPressWithoutMove>().empty());
  EXPECT_EQ(b.fen(), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  // Moves completed without a press leave the clock alone: White's ran until 5000.
  EXPECT_EQ(b.tracker.clock().running(), kWhite);
}

TEST(PendingChain, APressOverTheOpponentsPendingMoveCompletesOnceThatOneDoes) {
  for (const bool black_moves_on : {true, false}) {
    BoardDriver b;
    b.move("e2", "e4", 1000);
    b.move("e7", "e5", 2000);
    b.move("g1", "f3", 3000);  // e4 completed (6.2.1.2); e5 and Nf3 pending
    b.press(kWhite, 3500);     // White presses for Nf3 (6.2.2); e5 is still Black's
    EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"}) << black_moves_on;
    EXPECT_TRUE(b.of<events::ClockPressWithoutMove>().empty()) << black_moves_on;
    EXPECT_EQ(b.tracker.clock().running(), kBlack) << black_moves_on;
    if (black_moves_on) {
      b.move("b8", "c6", 4000);  // e5 completed by Black's next move, then Nf3 by the press
      b.advance(4100);
      b.press(kBlack, 4500);
      EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5", "g1f3", "b8c6"}));
    } else {
      b.press(kBlack, 4500);  // Black presses for e5 (6.2.2); Nf3 follows
      b.advance(4500);
      EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5", "g1f3"}));
    }
    const auto all = b.of<events::MoveCompleted>();
    ASSERT_GE(all.size(), 3u);
    EXPECT_EQ(all[2]->completion, CompletionKind::kClockPress);
    EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty()) << black_moves_on;
  }
}

TEST(PendingChain, TheOpponentsReplyTakenBackLeavesTheFirstMovePending) {
  BoardDriver b;
  b.move("e2", "e4", 1000);
  b.move("e7", "e5", 2000);
  b.move("e5", "e7", 2500);
  b.move("d7", "d5", 3000);
  EXPECT_EQ(b.tentative_ucis(), (Strings{"e2e4", "e7e5", "e2e4", "d7d5"}));
  b.press(kWhite, 3500);
  b.press(kBlack, 4000);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "d7d5"}));
}

TEST(PendingChain, MateOnTheSecondPlyEndsTheGameWithBothMovesCompleted) {
  // 1.f3 e5, then White plays 2.g4 without pressing and Black mates on the board.
  BoardDriver b("rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2");
  b.move("g2", "g4", 1000);
  b.move("d8", "h4", 2000);
  b.advance(3099);
  EXPECT_TRUE(b.completed_ucis().empty());
  b.advance(3100);
  EXPECT_EQ(b.completed_ucis(), (Strings{"g2g4", "d8h4"}));
  EXPECT_EQ(completions(b),
            (std::vector<CompletionKind>{CompletionKind::kGameEnd, CompletionKind::kGameEnd}));
  ASSERT_NE(b.last<events::GameEnded>(), nullptr);
  EXPECT_EQ(b.last<events::GameEnded>()->result, GameResult::kBlackWins);
  EXPECT_EQ(b.last<events::GameEnded>()->termination, TerminationKind::kCheckmate);
  EXPECT_TRUE(b.tracker.ended());
}

TEST(PendingChain, MateOnTheSecondPlyAfterAPressOfTheFirst) {
  BoardDriver b("rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2");
  b.move("g2", "g4", 1000);
  b.move("d8", "h4", 2000);
  b.press(kWhite, 2500);  // 6.2.2: White's move completed; Black's mate still stands
  EXPECT_EQ(b.completed_ucis(), Strings{"g2g4"});
  b.advance(3100);
  EXPECT_EQ(b.completed_ucis(), (Strings{"g2g4", "d8h4"}));
  EXPECT_EQ(b.last<events::GameEnded>()->result, GameResult::kBlackWins);
}

TEST(PendingChain, ASlideOverAMateOnTheSecondPlyEndsNothing) {
  BoardDriver b("rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2");
  b.move("g2", "g4", 1000);
  b.move("d8", "h4", 2000);
  b.lift("h4", 2500);
  b.put("g5", 'q', 2600);
  b.advance(6000);
  EXPECT_TRUE(b.of<events::GameEnded>().empty());
  EXPECT_TRUE(b.completed_ucis().empty());
  b.press(kWhite, 6500);
  b.press(kBlack, 7000);
  EXPECT_EQ(b.completed_ucis(), (Strings{"g2g4", "d8g5"}));
}

}  // namespace
}  // namespace eboard::engine::testing
