// Several periods: by_move_count and on_zero transitions, time carried over, the 6.4
// move-requirement check (docs/rules.md D9, D10, scenarios 47-50).
#include <gtest/gtest.h>

#include "engine/clock/clock_model.h"
#include "tests/engine/clock/clock_test_util.h"

namespace eboard::engine {
namespace {

using namespace testing;

// Plays `moves` move pairs of `each` seconds per move, from t0; returns the time reached.
std::chrono::milliseconds play(ClockModel& clock, std::chrono::milliseconds t0, int first_move,
                               int moves, std::chrono::milliseconds each) {
  std::chrono::milliseconds t = t0;
  for (int move = first_move; move < first_move + moves; ++move) {
    t += each;
    (void)clock.press(kWhite, t, move);
    t += each;
    (void)clock.press(kBlack, t, move);
  }
  return t;
}

// Scenario 47: 2:10 left before the 40th press -> 32:40 (2:10 + 0:30 + 30:00), period 2;
// Black's clock is unchanged until Black completes move 40. Carry-over at move 40.
TEST(ClockPeriods, CarryOverAtMove40) {
  ClockModel clock = clock_for("fide-classical-40/90+30+30s");
  (void)clock.start(sec(0));
  EXPECT_EQ(clock.remaining(kWhite, sec(0)), min_sec(90, 30));
  std::chrono::milliseconds t = play(clock, sec(0), 1, 39, sec(60));
  // Each side used 39 min and earned 39 increments: 90:30 - 39:00 + 19:30 = 71:00.
  EXPECT_EQ(clock.remaining(kWhite, t), min_sec(71, 0));
  EXPECT_EQ(clock.period(kWhite), 1);
  // White thinks until 2:10 is left, then presses move 40.
  t += min_sec(71, 0) - min_sec(2, 10);
  EXPECT_EQ(clock.remaining(kWhite, t), min_sec(2, 10));
  const auto events = clock.press(kWhite, t, 40);
  EXPECT_EQ(clock.remaining(kWhite, t), min_sec(32, 40));
  const auto started = events_of<PeriodStarted>(events);
  ASSERT_EQ(started.size(), 1u);
  EXPECT_EQ(started[0].side, kWhite);
  EXPECT_EQ(started[0].period, 2);
  EXPECT_EQ(started[0].added, min_sec(30, 0));
  EXPECT_EQ(clock.period(kWhite), 2);
  EXPECT_EQ(clock.period(kBlack), 1);
  EXPECT_EQ(clock.remaining(kBlack, t), min_sec(71, 0));
  t += sec(10);
  (void)clock.press(kBlack, t, 40);
  EXPECT_EQ(clock.period(kBlack), 2);
  EXPECT_EQ(clock.remaining(kBlack, t), min_sec(71, 0) - sec(10) + sec(30) + min_sec(30, 0));
}

TEST(ClockPeriods, CarryOverWithPressOnly) {
  ClockModel clock = clock_for("40/5400+30:1800+30", press_only());
  (void)clock.start(sec(0));
  std::chrono::milliseconds t = play(clock, sec(0), 1, 39, sec(60));
  EXPECT_EQ(clock.remaining(kWhite, t), min_sec(90, 0) - min_sec(39, 0) + min_sec(19, 30));
  t += sec(60);
  (void)clock.press(kWhite, t, 40);
  EXPECT_EQ(clock.remaining(kWhite, t), min_sec(100, 0));  // 69:30 + 0:30 + 30:00
}

// A move count that jumps past the period end (6.2.1.2: a move completed without its
// press) still starts the next period; a press without a move does not.
TEST(ClockPeriods, PeriodFollowsTheBoardCount) {
  ClockModel clock = clock_for("2/600:1/600:600");
  (void)clock.start(sec(0));
  (void)clock.press(kWhite, sec(1), 0);  // press without a move
  EXPECT_EQ(clock.period(kWhite), 1);
  (void)clock.press(kBlack, sec(2), 1);
  const auto events = clock.press(kWhite, sec(3), 3);
  EXPECT_EQ(events_of<PeriodStarted>(events).size(), 2u);
  EXPECT_EQ(clock.period(kWhite), 3);
  EXPECT_EQ(clock.remaining(kWhite, sec(3)), sec(1800 - 2));
}

// Scenario 48: flag after 39 moves in period 1 -> time_control_missed.
TEST(ClockPeriods, FlagBeforeTheMoveCountIsMissedControl) {
  ClockModel clock = clock_for("fide-classical-40/90+30+30s");
  (void)clock.start(sec(0));
  std::chrono::milliseconds t = play(clock, sec(0), 1, 39, sec(1));
  const auto events = clock.advance(t + min_sec(200, 0));
  const auto flags = events_of<FlagFall>(events);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].side, kWhite);
  EXPECT_EQ(flags[0].period, 1);
  EXPECT_EQ(flags[0].moves_completed, 39);
  EXPECT_EQ(flags[0].moves_required, 40);
  EXPECT_TRUE(flags[0].decisive);
  EXPECT_FALSE(flags[0].final_period);
  const auto missed = events_of<TimeControlMissed>(events);
  ASSERT_EQ(missed.size(), 1u);
  EXPECT_EQ(missed[0].moves_completed, 39);
  EXPECT_TRUE(clock.flag_fallen(kWhite).has_value());
}

// Scenario 49: time-only with on_zero: W reaches 0:00 after 41 moves: no loss, both
// clocks +60:00, period 2, a non-decisive flag logged.
TEST(ClockPeriods, OnZeroWithMovesMade) {
  ClockModel clock = clock_for("time-only-2h/40+1h/20+30m", on_zero());
  EXPECT_EQ(clock.trigger(), PeriodTrigger::kOnZero);
  (void)clock.start(sec(0));
  std::chrono::milliseconds t = play(clock, sec(0), 1, 41, sec(1));
  // 41 presses each do not change periods under on_zero.
  EXPECT_EQ(clock.period(kWhite), 1);
  const std::chrono::milliseconds black_before = clock.remaining(kBlack, t);
  const std::chrono::milliseconds zero_at = t + clock.remaining(kWhite, t);
  EXPECT_EQ(clock.next_deadline(), zero_at);
  const auto events = clock.advance(zero_at);
  const auto flags = events_of<FlagFall>(events);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_FALSE(flags[0].decisive);
  EXPECT_FALSE(flags[0].final_period);
  EXPECT_TRUE(events_of<TimeControlMissed>(events).empty());
  ASSERT_EQ(events_of<PeriodStarted>(events).size(), 2u);
  EXPECT_EQ(clock.period(kWhite), 2);
  EXPECT_EQ(clock.period(kBlack), 2);
  EXPECT_EQ(clock.remaining(kWhite, zero_at), min_sec(60, 0));
  EXPECT_EQ(clock.remaining(kBlack, zero_at), black_before + min_sec(60, 0));
  EXPECT_EQ(clock.flag_fallen(kWhite), std::nullopt);
  // The increment-free period goes on: the next zero is period 2's.
  EXPECT_EQ(clock.next_deadline(), zero_at + min_sec(60, 0));
}

TEST(ClockPeriods, OnZeroWithMovesMissing) {
  ClockModel clock = clock_for("time-only-2h/40+1h/20+30m", on_zero());
  (void)clock.start(sec(0));
  std::chrono::milliseconds t = play(clock, sec(0), 1, 39, sec(1));
  const auto events = clock.advance(t + min_sec(121, 0));
  const auto missed = events_of<TimeControlMissed>(events);
  ASSERT_EQ(missed.size(), 1u);
  EXPECT_EQ(missed[0].moves_required, 40);
  EXPECT_TRUE(events_of<FlagFall>(events)[0].decisive);
  EXPECT_TRUE(clock.flag_fallen(kWhite).has_value());
  EXPECT_EQ(clock.period(kBlack), 2);  // the clock still moved both on (DGT behaviour)
}

// The same control by move count (the rule set's default trigger).
TEST(ClockPeriods, TimeOnlyByMoveCount) {
  ClockModel clock = clock_for("time-only-2h/40+1h/20+30m");
  (void)clock.start(sec(0));
  std::chrono::milliseconds t = play(clock, sec(0), 1, 60, sec(1));
  EXPECT_EQ(clock.period(kWhite), 3);
  EXPECT_EQ(clock.remaining(kWhite, t), min_sec(210, 0) - sec(60));
}

// Scenario 50: kk-5+20s+2d: first zero gives both +0:20 once; the next zero is the flag.
TEST(ClockPeriods, KasparovKramnikControl) {
  ClockModel clock = clock_for("kk-5+20s+2d");  // its own on_zero trigger wins
  EXPECT_EQ(clock.trigger(), PeriodTrigger::kOnZero);
  (void)clock.start(sec(0));
  (void)clock.press(kWhite, sec(10), 1);  // 10 s, 2 s free: White 4:52
  (void)clock.press(kBlack, sec(13), 1);  // Black 4:59
  EXPECT_EQ(clock.remaining(kWhite, sec(13)), min_sec(4, 52));
  EXPECT_EQ(clock.remaining(kBlack, sec(13)), min_sec(4, 59));
  // White's main reaches zero 2 s (delay) + 292 s later.
  const auto first = clock.advance(sec(400));
  const auto flags = events_of<FlagFall>(first);
  ASSERT_GE(flags.size(), 1u);
  EXPECT_EQ(flags[0].at, sec(13 + 2 + 292));
  EXPECT_FALSE(flags[0].decisive);  // kk's first period has no move requirement
  EXPECT_EQ(events_of<PeriodStarted>(first).size(), 2u);
  EXPECT_EQ(clock.remaining(kBlack, sec(400)), min_sec(4, 59) + sec(20));
  // The 20 s then ran out too: the final-period flag.
  ASSERT_EQ(flags.size(), 2u);
  EXPECT_EQ(flags[1].at, sec(13 + 2 + 292 + 20));
  EXPECT_TRUE(flags[1].decisive);
  EXPECT_TRUE(flags[1].final_period);
  EXPECT_EQ(clock.flag_fallen(kWhite), sec(327));
}

// kk: the 20 s are added once only, even when the other side reaches zero later.
TEST(ClockPeriods, KasparovKramnikAddsOnce) {
  ClockModel clock = clock_for("kk-5+20s+2d");
  (void)clock.start(sec(0));
  (void)clock.advance(sec(302));  // White at zero at 302: both +20
  (void)clock.press(kWhite, sec(303), 1);
  const auto events = clock.advance(sec(1000));
  EXPECT_TRUE(events_of<PeriodStarted>(events).empty());
  const auto flags = events_of<FlagFall>(events);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].side, kBlack);
  EXPECT_EQ(flags[0].at, sec(303 + 2 + 320));
  EXPECT_TRUE(flags[0].final_period);
}

// Per period adjustments: period 2's Fischer increment only once period 2 is reached.
TEST(ClockPeriods, EachPeriodHasItsOwnAdjustment) {
  ClockModel clock = clock_for("1/60:60+5", press_only());
  (void)clock.start(sec(0));
  (void)clock.press(kWhite, sec(1), 1);  // move 1 is period 1's: no increment
  EXPECT_EQ(clock.remaining(kWhite, sec(1)), sec(119));
  (void)clock.press(kBlack, sec(2), 1);
  (void)clock.press(kWhite, sec(3), 2);  // move 2 is period 2's: +5
  EXPECT_EQ(clock.remaining(kWhite, sec(3)), sec(123));
  ClockModel ahead = clock_for("1/60:60+5");  // start_and_press credits move 2's before it
  (void)ahead.start(sec(0));
  (void)ahead.press(kWhite, sec(1), 1);
  EXPECT_EQ(ahead.remaining(kWhite, sec(1)), sec(124));
}

}  // namespace
}  // namespace eboard::engine
