// A hardware clock is authoritative; the model cross-checks it (docs/rules.md D9, 6.10,
// scenarios 51 and 53).
#include <gtest/gtest.h>

#include "engine/clock/clock_model.h"
#include "tests/engine/clock/clock_test_util.h"

namespace eboard::engine {
namespace {

using namespace testing;

// Scenario 51: the clock says 1:10 for White, the model 1:40: mismatch, clock wins.
TEST(ClockHardware, TimeMismatchIsReportedAndTheClockWins) {
  ClockModel clock = clock_for("100");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.white = sec(70);
  reading.black = sec(100);
  const auto events = clock.observe(reading, sec(0));
  const auto mismatches = events_of<ClockMismatch>(events);
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].field, ClockField::kWhiteMs);
  EXPECT_EQ(mismatches[0].clock_value, 70000);
  EXPECT_EQ(mismatches[0].model_value, 100000);
  EXPECT_EQ(clock.remaining(kWhite, sec(0)), sec(70));
  EXPECT_EQ(clock.next_deadline(), sec(70));
}

TEST(ClockHardware, DifferencesWithinToleranceAreQuiet) {
  ClockOptions options;
  options.mismatch_tolerance = ms(1500);
  ClockModel clock = clock_for("100", options);
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.white = sec(90) - ms(1500);  // the model says 90 s at t = 10 s
  reading.black = sec(100) + ms(1500);
  EXPECT_TRUE(clock.observe(reading, sec(10)).empty());
  EXPECT_EQ(clock.remaining(kWhite, sec(10)), ms(88500));  // adopted all the same
  reading.white = ms(88500 - 1501 - 1000);                 // at t = 11 s the model says 87.5
  const auto events = clock.observe(reading, sec(11));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<ClockMismatch>(events[0]).field, ClockField::kWhiteMs);
  EXPECT_EQ(std::get<ClockMismatch>(events[0]).model_value, 87500);
}

// Scenario 53: the clock's counter says 38, the board 39: mismatch; periods use 39.
TEST(ClockHardware, MoveCounterMismatchKeepsTheBoardCount) {
  ClockModel clock = clock_for("40/600:600");
  (void)clock.start(sec(0));
  (void)clock.press(kWhite, sec(1), 39);
  ClockReading reading;
  reading.white = sec(599);
  reading.black = sec(600);
  reading.white_moves = 38;
  reading.black_moves = 0;
  const auto mismatches = events_of<ClockMismatch>(clock.observe(reading, sec(1)));
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].field, ClockField::kWhiteMoves);
  EXPECT_EQ(mismatches[0].clock_value, 38);
  EXPECT_EQ(mismatches[0].model_value, 39);
  EXPECT_EQ(clock.moves_completed(kWhite), 39);
  (void)clock.press(kBlack, sec(2), 39);
  const auto events = clock.press(kWhite, sec(3), 40);  // the board's 40th move
  EXPECT_EQ(events_of<PeriodStarted>(events).size(), 1u);
  EXPECT_EQ(clock.period(kWhite), 2);
}

TEST(ClockHardware, RunningSideMismatch) {
  ClockModel clock = clock_for("100");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.white = sec(95);
  reading.black = sec(100);
  reading.running_known = true;
  reading.running = kBlack;
  auto mismatches = events_of<ClockMismatch>(clock.observe(reading, sec(5)));
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].field, ClockField::kRunning);
  EXPECT_EQ(mismatches[0].clock_value, 1);
  EXPECT_EQ(mismatches[0].model_value, 0);
  reading.running = std::nullopt;  // the clock reports itself stopped
  mismatches = events_of<ClockMismatch>(clock.observe(reading, sec(5)));
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].clock_value, -1);
}

// A clock that reads zero for the running side flags the model at once.
TEST(ClockHardware, AdoptedZeroFlags) {
  ClockModel clock = clock_for("100");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.white = ms(0);
  reading.black = sec(100);
  const auto flags = events_of<FlagFall>(clock.observe(reading, sec(50)));
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].at, sec(50));
  EXPECT_TRUE(clock.advance(sec(60)).empty());
  EXPECT_EQ(clock.next_deadline(), std::nullopt);
}

}  // namespace
}  // namespace eboard::engine

namespace eboard::engine {
namespace {
using namespace testing;

// The waiting side read at zero flags when its turn begins.
TEST(ClockHardware, AdoptedZeroOfTheWaitingSide) {
  ClockModel clock = clock_for("100");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.white = sec(90);
  reading.black = ms(0);
  EXPECT_TRUE(events_of<FlagFall>(clock.observe(reading, sec(10))).empty());
  const auto flags = events_of<FlagFall>(clock.press(kWhite, sec(11), 1));
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].side, kBlack);
  EXPECT_EQ(flags[0].at, sec(11));
  EXPECT_EQ(clock.next_deadline(), std::nullopt);
}

}  // namespace
}  // namespace eboard::engine
