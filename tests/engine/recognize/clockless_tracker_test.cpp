// A GameTracker for a board without a clock (docs/clockless.md): what the completion
// rules publish, what becomes of the clock model, and a clock that comes or goes mid-game.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;

TrackerConfig clockless(std::string_view fen = kStartFen, std::string_view tc = "900+10") {
  TrackerConfig c = config_for(fen);
  c.time_control = parse_time_control(tc).value();
  c.clock = ClockPresence::kNone;
  return c;
}

std::vector<CompletionKind> completions(const BoardDriver& b) {
  std::vector<CompletionKind> out;
  for (const auto* e : b.of<events::MoveCompleted>()) out.push_back(e->completion);
  return out;
}

TEST(ClocklessTracker, MovesCompleteByTheOpponentBeginningOrBySettling) {
  BoardDriver b(clockless());
  b.move("e2", "e4", 1000);
  b.lift("e7", 2500);
  b.put("e5", 'p', 2900);
  b.advance(10000);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5"}));
  EXPECT_EQ(completions(b),
            (std::vector{CompletionKind::kOpponentBegan, CompletionKind::kSettled}));
  const auto done = b.events_of<events::MoveCompleted>();
  EXPECT_EQ(done[0]->at, Millis(2650));    // the lift held 150 ms
  EXPECT_EQ(done[1]->at, Millis(5900));    // 3 s after e5 came to stand
  EXPECT_TRUE(done[0]->articles.empty());  // no article of the Laws says when
  EXPECT_EQ(done[1]->get<events::MoveCompleted>()->ply, 2);
}

TEST(ClocklessTracker, TheClockModelKeepsNoTimeAndNoFlagFalls) {
  BoardDriver b(clockless(kStartFen, "60"));  // one minute for the game
  b.move("e2", "e4", 1000);
  b.advance(600000);  // ten minutes without a move by Black
  EXPECT_TRUE(b.of<events::FlagFell>().empty());
  EXPECT_FALSE(b.tracker.ended());
  EXPECT_TRUE(b.tracker.clock().paused());
  const auto* clock = b.last<events::ClockShown>();
  ASSERT_NE(clock, nullptr);
  EXPECT_FALSE(clock->running);
  EXPECT_EQ(b.last<events::MoveCompleted>()->white_remaining, Millis(60000));
  b.press(kBlack, 600500);  // a press (recovery feeds one) changes nothing
  EXPECT_TRUE(b.of<events::ClockPressWithoutMove>().empty());
  GameEvents out;
  b.tracker.pause_clock(Millis(600600), ClockHold::kResume, out);  // nor does an arbiter's resume
  EXPECT_TRUE(b.tracker.clock().paused());
}

TEST(ClocklessTracker, AnIllegalPlacementIsCompletedAndTheRuleSetHandlesIt) {
  BoardDriver b(clockless());
  b.lift("f1", 1000);
  b.put("c4", 'B', 1100);  // through the pawn on e2
  b.advance(2000);
  ASSERT_EQ(b.of<events::IllegalMovePending>().size(), 1u);
  EXPECT_TRUE(b.of<events::IllegalMoveCompleted>().empty());
  b.advance(4100);
  const auto done = b.of<events::IllegalMoveCompleted>();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(b.last_event<events::IllegalMoveCompleted>()->at, Millis(4100));
  EXPECT_EQ(done[0]->side, kWhite);
  EXPECT_EQ(done[0]->reason, IllegalReason::kPieceMovement);
  EXPECT_EQ(done[0]->count, 1);
  EXPECT_EQ(b.tracker.illegal_count(kWhite), 1);  // the arbiter is told as after a press
  b.advance(60000);                               // the same placement is not completed twice
  EXPECT_EQ(b.of<events::IllegalMoveCompleted>().size(), 1u);
  b.lift("c4", 60000);
  b.put("f1", 'B', 60200);
  b.move("e2", "e4", 61000);
  b.advance(70000);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
}

TEST(ClocklessTracker, AClockThatComesMidGameRunsForTheSideToMove) {
  BoardDriver b(clockless());
  b.move("e2", "e4", 1000);
  b.advance(5000);  // e4 settled: Black to move
  GameEvents out;
  b.tracker.set_clock_presence(Millis(6000), ClockPresence::kConnected, out);
  b.events.insert(b.events.end(), out.begin(), out.end());
  EXPECT_FALSE(b.tracker.clock().paused());
  EXPECT_EQ(b.tracker.clock().running(), kBlack);
  // From now on the press completes: a move left standing waits for it.
  b.move("e7", "e5", 7000);
  b.advance(30000);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
  b.press(kBlack, 30500);
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5"}));
  EXPECT_EQ(b.last<events::MoveCompleted>()->completion, CompletionKind::kClockPress);
}

TEST(ClocklessTracker, AClockThatGoesMidGameLeavesTheStandingMoveToSettle) {
  BoardDriver b;  // with a clock
  b.move("e2", "e4", 1000);
  b.press(kWhite, 1500);
  b.move("e7", "e5", 2000);  // Black does not press
  GameEvents out;
  b.tracker.set_clock_presence(Millis(2500), ClockPresence::kNone, out);
  b.events.insert(b.events.end(), out.begin(), out.end());
  EXPECT_TRUE(b.tracker.clock().paused());
  b.advance(5099);
  EXPECT_EQ(b.completed_ucis(), Strings{"e2e4"});
  b.advance(5100);  // e5 stood since 2100
  EXPECT_EQ(b.completed_ucis(), (Strings{"e2e4", "e7e5"}));
}

}  // namespace
}  // namespace eboard::engine::testing
