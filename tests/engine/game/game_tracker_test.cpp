#include "engine/game/game_tracker.h"

#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

TEST(GameTracker, StartsAtTheFirstInputWithWhitesClockRunning) {
  BoardDriver b;
  ASSERT_FALSE(b.events.empty());
  const auto* started = b.events.front().get<events::GameStarted>();
  ASSERT_NE(started, nullptr);
  EXPECT_EQ(format_time_control(started->time_control), "900+10");
  EXPECT_EQ(b.tracker.clock().running(), kWhite);
}

TEST(GameTracker, MoveCompletedCarriesBothClocksAfterThePress) {
  BoardDriver b;  // 900+10, start_and_press: 910 s each at the start
  b.move("e2", "e4", 4000);
  b.press(kWhite, 5000);
  const auto* done = b.last<events::MoveCompleted>();
  ASSERT_NE(done, nullptr);
  EXPECT_EQ(done->white_remaining, Millis(910000 - 5000 + 10000));
  EXPECT_EQ(done->black_remaining, Millis(910000));
  EXPECT_EQ(b.tracker.moves().back().remaining, done->white_remaining);
  EXPECT_EQ(b.tracker.clock().running(), kBlack);
}

// docs/interfaces.md §4 `clock`: a hardware clock's times reach the displays, once per change
// of a whole second (a DGT 3000 reports more often than that).
TEST(GameTracker, HardwareClockReadingsGiveClockEventsOncePerWholeSecond) {
  BoardDriver b;
  const auto reading = [&b](int at_ms, int white_ms, int black_ms) {
    ClockReading r;
    r.white = Millis(white_ms);
    r.black = Millis(black_ms);
    const std::size_t before = b.of<events::ClockShown>().size();
    b.tracker.clock_reading(Millis(at_ms), r, b.events);
    return b.of<events::ClockShown>().size() - before;
  };
  EXPECT_EQ(reading(100, 909900, 910000), 1u);  // the first reading
  EXPECT_EQ(reading(400, 909600, 910000), 0u);  // the same whole seconds
  EXPECT_EQ(reading(900, 909100, 910000), 0u);
  EXPECT_EQ(reading(1100, 908900, 910000), 1u);  // 908 s now
  const auto* shown = b.last<events::ClockShown>();
  EXPECT_EQ(shown->white_remaining, Millis(908900));  // the clock's own value (6.10.1)
  EXPECT_EQ(shown->black_remaining, Millis(910000));
  EXPECT_EQ(shown->running, kWhite);
  EXPECT_EQ(reading(1200, 908800, 909000), 1u);  // Black's side changed (an arbiter's setting)
}

TEST(GameTracker, PressByTheSideWhoseClockDoesNotRunIsIgnored) {
  BoardDriver b;
  b.move("e2", "e4", 1000);
  b.press(kBlack, 1500);  // D3: ignored for move logic
  EXPECT_TRUE(b.completed_ucis().empty());
  EXPECT_TRUE(b.of<events::ClockPressWithoutMove>().empty());
  b.press(kWhite, 2000);
  EXPECT_EQ(b.completed_ucis(), std::vector<std::string>{"e2e4"});
}

TEST(GameTracker, CountsIllegalMovesPerPlayerAndTheOpponentsPressRestartsTheOffender) {
  BoardDriver b("rnbqk1nr/pppp1ppp/8/4p3/1b1P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3");
  b.move("e2", "e3", 1000);  // docs/rules.md scenario 11: the king stays in check
  b.press(kWhite, 1500);
  EXPECT_EQ(b.tracker.illegal_count(kWhite), 1);
  b.press(kBlack, 2000);  // Black presses without moving
  EXPECT_EQ(b.last<events::ClockPressWithoutMove>()->side, kBlack);
  EXPECT_EQ(b.tracker.illegal_count(kBlack), 1);
  b.move("e3", "e2", 2500);  // White restores and plays a legal move
  b.move("c2", "c3", 3000);
  b.press(kWhite, 3500);
  EXPECT_EQ(b.completed_ucis(), std::vector<std::string>{"c2c3"});
}

TEST(GameTracker, ReportsItsNextDeadlineAndNothingAfterTheEnd) {
  BoardDriver b("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  const auto clock_deadline = b.tracker.next_deadline();
  ASSERT_TRUE(clock_deadline);  // the flag fall of the running clock
  b.move("d8", "h4", 1000);
  EXPECT_EQ(b.tracker.next_deadline(), Millis(2100));  // game_end_stable_ms after the put
  b.advance(2100);
  EXPECT_TRUE(b.tracker.ended());
  EXPECT_FALSE(b.tracker.next_deadline());
  const std::size_t n = b.events.size();
  b.move("h4", "d8", 3000);
  b.press(kWhite, 3500);
  EXPECT_EQ(b.events.size(), n);
}

}  // namespace
}  // namespace eboard::engine::testing

namespace eboard::engine::testing {
namespace {

TEST(GameTracker, PauseStopsTheClockAndItsPresses) {
  BoardDriver b;
  OperatorAction pause;
  pause.kind = OperatorAction::Kind::kPause;
  b.tracker.operator_action(Millis(1000), pause, b.events);
  EXPECT_TRUE(b.tracker.clock().paused());
  b.move("e2", "e4", 2000);
  b.press(kWhite, 2500);  // 6.11: ignored while paused
  EXPECT_TRUE(b.completed_ucis().empty());
  OperatorAction resume;
  resume.kind = OperatorAction::Kind::kResume;
  b.tracker.operator_action(Millis(3000), resume, b.events);
  b.press(kWhite, 3500);
  EXPECT_EQ(b.completed_ucis(), std::vector<std::string>{"e2e4"});
}

}  // namespace
}  // namespace eboard::engine::testing
