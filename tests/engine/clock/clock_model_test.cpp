// Clock model basics: start, Fischer with both crediting conventions (docs/rules.md D9,
// scenarios 41-43), turns, pause (6.11, scenario 52), arbiter corrections, deadlines.
#include "engine/clock/clock_model.h"

#include <gtest/gtest.h>

#include "engine/rules/rule_params.h"
#include "tests/engine/clock/clock_test_util.h"

namespace eboard::engine {
namespace {

using namespace testing;

TEST(ClockModel, BeforeStartNothingRuns) {
  ClockModel clock = clock_for("180+2");
  EXPECT_EQ(clock.running(), std::nullopt);
  EXPECT_EQ(clock.next_deadline(), std::nullopt);
  EXPECT_EQ(clock.remaining(kWhite, sec(100)), min_sec(3, 0));
  const auto events = clock.press(kWhite, sec(1), 1);
  ASSERT_EQ(events_of<PressIgnored>(events).size(), 1u);
  EXPECT_EQ(events_of<PressIgnored>(events)[0].reason, PressIgnoredReason::kNotStarted);
}

// Scenario 41: start_and_press shows 3:02 at the start; 5 s on move 1 leaves 2:59.
TEST(ClockModel, FischerStartAndPress) {
  ClockModel clock = clock_for("fischer-3+2");
  const auto started = clock.start(sec(0));
  EXPECT_EQ(events_of<IncrementCredited>(started).size(), 2u);
  EXPECT_EQ(clock.remaining(kWhite, sec(0)), min_sec(3, 2));
  EXPECT_EQ(clock.remaining(kBlack, sec(0)), min_sec(3, 2));
  EXPECT_EQ(clock.running(), kWhite);
  EXPECT_EQ(clock.remaining(kWhite, sec(5)), min_sec(2, 57));
  const auto pressed = clock.press(kWhite, sec(5), 1);
  EXPECT_EQ(clock.remaining(kWhite, sec(5)), min_sec(2, 59));
  ASSERT_EQ(events_of<IncrementCredited>(pressed).size(), 1u);
  EXPECT_EQ(events_of<IncrementCredited>(pressed)[0].amount, sec(2));
  EXPECT_EQ(clock.running(), kBlack);
  EXPECT_EQ(clock.remaining(kBlack, sec(6)), min_sec(3, 1));
  EXPECT_EQ(clock.remaining(kWhite, sec(60)), min_sec(2, 59));  // not running
}

// Scenario 42: press_only starts at 3:00; 2:55 + 2 = 2:57 after the first press.
TEST(ClockModel, FischerPressOnly) {
  ClockModel clock = clock_for("fischer-3+2", press_only());
  EXPECT_TRUE(events_of<IncrementCredited>(clock.start(sec(0))).empty());
  EXPECT_EQ(clock.remaining(kWhite, sec(0)), min_sec(3, 0));
  (void)clock.press(kWhite, sec(5), 1);
  EXPECT_EQ(clock.remaining(kWhite, sec(5)), min_sec(2, 57));
}

// The two conventions give equal totals after every completed move pair.
TEST(ClockModel, FischerConventionsAgreeAfterEachMove) {
  ClockModel a = clock_for("60+3");
  ClockModel b = clock_for("60+3", press_only());
  (void)a.start(sec(0));
  (void)b.start(sec(0));
  long long t = 0;
  for (int move = 1; move <= 10; ++move) {
    for (Color side : {kWhite, kBlack}) {
      t += 1000 + move * 137;
      (void)a.press(side, ms(t), move);
      (void)b.press(side, ms(t), move);
      EXPECT_EQ(a.remaining(side, ms(t)), b.remaining(side, ms(t)) + sec(3)) << move;
    }
  }
}

// Scenario 43: 0.4 s left, press after 0.6 s: flag at 0.4 s, no increment.
TEST(ClockModel, IncrementNotCreditedAfterFlag) {
  ClockModel clock = clock_for("180+2", press_only());
  (void)clock.start(sec(0));
  (void)clock.adjust(kWhite, -(min_sec(3, 0) - sec(0.4)), sec(0));
  EXPECT_EQ(clock.next_deadline(), sec(0.4));
  const auto events = clock.press(kWhite, sec(0.6), 1);
  const auto flags = events_of<FlagFall>(events);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].at, sec(0.4));
  EXPECT_EQ(flags[0].side, kWhite);
  EXPECT_TRUE(flags[0].decisive);
  EXPECT_TRUE(flags[0].final_period);
  EXPECT_TRUE(flags[0].first);
  EXPECT_TRUE(events_of<IncrementCredited>(events).empty());
  EXPECT_EQ(clock.remaining(kWhite, sec(1)), ms(0));
  EXPECT_EQ(clock.flag_fallen(kWhite), sec(0.4));
  EXPECT_EQ(clock.running(), kBlack);  // the press still passes the turn
}

TEST(ClockModel, PressOnTheFlagMomentIsTooLate) {
  ClockModel clock = clock_for("10+5", press_only());
  (void)clock.start(sec(0));
  const auto events = clock.press(kWhite, sec(10), 1);
  EXPECT_EQ(events_of<FlagFall>(events).size(), 1u);
  EXPECT_TRUE(events_of<IncrementCredited>(events).empty());
  ClockModel in_time = clock_for("10+5", press_only());
  (void)in_time.start(sec(0));
  EXPECT_TRUE(events_of<FlagFall>(in_time.press(kWhite, ms(9999), 1)).empty());
  EXPECT_EQ(in_time.remaining(kWhite, ms(9999)), ms(5001));
}

TEST(ClockModel, FlagFallsOnceAndBothFlagsAreOrdered) {
  ClockModel clock = clock_for("10");
  (void)clock.start(sec(0));
  EXPECT_EQ(events_of<FlagFall>(clock.advance(sec(30))).size(), 1u);
  EXPECT_TRUE(clock.advance(sec(40)).empty());
  EXPECT_EQ(clock.next_deadline(), std::nullopt);
  const auto black = events_of<FlagFall>(clock.press(kWhite, sec(50), 1));
  EXPECT_TRUE(black.empty());
  const auto later = events_of<FlagFall>(clock.advance(sec(70)));
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].side, kBlack);
  EXPECT_EQ(later[0].at, sec(60));
  EXPECT_FALSE(later[0].first);  // White's fell first (D10 order_from_clock)
  EXPECT_EQ(clock.flag_fallen(kWhite), sec(10));
  EXPECT_EQ(clock.flag_fallen(kBlack), sec(60));
}

TEST(ClockModel, PressByTheWaitingSideIsIgnored) {
  ClockModel clock = clock_for("60+1");
  (void)clock.start(sec(0));
  const auto events = clock.press(kBlack, sec(3), 0);
  ASSERT_EQ(events_of<PressIgnored>(events).size(), 1u);
  EXPECT_EQ(events_of<PressIgnored>(events)[0].reason, PressIgnoredReason::kNotRunning);
  EXPECT_EQ(clock.running(), kWhite);
  EXPECT_EQ(clock.remaining(kBlack, sec(3)), sec(61));
}

// Scenario 52 (6.11): while paused no time runs and a press does nothing.
TEST(ClockModel, PauseStopsTimeAndPresses) {
  ClockModel clock = clock_for("60+1", press_only());
  (void)clock.start(sec(0));
  (void)clock.pause(sec(10));
  EXPECT_TRUE(clock.paused());
  EXPECT_EQ(clock.running(), std::nullopt);
  EXPECT_EQ(clock.next_deadline(), std::nullopt);
  const auto events = clock.press(kWhite, sec(20), 1);
  ASSERT_EQ(events_of<PressIgnored>(events).size(), 1u);
  EXPECT_EQ(events_of<PressIgnored>(events)[0].reason, PressIgnoredReason::kPaused);
  EXPECT_EQ(clock.remaining(kWhite, sec(500)), sec(50));
  (void)clock.resume(sec(500));
  EXPECT_EQ(clock.running(), kWhite);
  EXPECT_EQ(clock.remaining(kWhite, sec(505)), sec(45));
  EXPECT_EQ(clock.next_deadline(), sec(550));
  (void)clock.press(kWhite, sec(505), 1);
  EXPECT_EQ(clock.remaining(kWhite, sec(505)), sec(46));
}

TEST(ClockModel, ArbiterAddsAndSubtractsTime) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  (void)clock.adjust(kBlack, sec(60), sec(10));  // e.g. 7.5.5 penalty to White: +60 s to Black
  EXPECT_EQ(clock.remaining(kBlack, sec(10)), sec(360));
  (void)clock.adjust(kWhite, sec(-30), sec(10));
  EXPECT_EQ(clock.remaining(kWhite, sec(10)), sec(260));
  EXPECT_EQ(clock.next_deadline(), sec(270));
  // Taking off more than is left flags at once.
  const auto flags = events_of<FlagFall>(clock.adjust(kWhite, sec(-1000), sec(11)));
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].at, sec(11));
  EXPECT_EQ(clock.remaining(kWhite, sec(11)), ms(0));
  // Time given back takes the flag down and the clock runs again.
  (void)clock.adjust(kWhite, sec(60), sec(12));
  EXPECT_EQ(clock.flag_fallen(kWhite), std::nullopt);
  EXPECT_EQ(clock.next_deadline(), sec(72));
}

TEST(ClockModel, StopEndsEverything) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  (void)clock.stop(sec(20));
  EXPECT_EQ(clock.running(), std::nullopt);
  EXPECT_EQ(clock.next_deadline(), std::nullopt);
  EXPECT_EQ(clock.remaining(kWhite, sec(1000)), sec(280));
  const auto events = clock.press(kWhite, sec(1001), 1);
  EXPECT_EQ(events_of<PressIgnored>(events)[0].reason, PressIgnoredReason::kStopped);
}

TEST(ClockModel, BlackCanBeFirstToRun) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0), kBlack);
  EXPECT_EQ(clock.running(), kBlack);
  EXPECT_EQ(clock.remaining(kBlack, sec(10)), sec(290));
  EXPECT_EQ(clock.remaining(kWhite, sec(10)), sec(300));
}

// FIDE Fischer "freeze": a final-period flag stops both clocks (D10 parameter).
TEST(ClockModel, FreezeOnLastPeriodFlag) {
  ClockOptions options;
  options.freeze_on_last_period_flag = true;
  ClockModel clock = clock_for("5+1", options);
  (void)clock.start(sec(0));
  EXPECT_EQ(events_of<FlagFall>(clock.advance(sec(7))).size(), 1u);
  EXPECT_EQ(clock.running(), std::nullopt);
  EXPECT_EQ(clock.remaining(kBlack, sec(100)), sec(6));
}

TEST(ClockModel, DeadlinesDriveAdvance) {
  ClockModel clock = clock_for("2");
  (void)clock.start(sec(0));
  ASSERT_EQ(clock.next_deadline(), sec(2));
  const auto events = clock.advance(*clock.next_deadline());
  ASSERT_EQ(events_of<FlagFall>(events).size(), 1u);
  EXPECT_EQ(events_of<FlagFall>(events)[0].at, sec(2));
}

TEST(ClockModel, RuleSetOptions) {
  RuleSet rules = rule_set_by_name("fide-blitz").value();
  rules.increment_credit = IncrementCredit::kPressOnly;
  rules.freeze_on_last_period_flag = true;
  const ClockOptions options = clock_options(rules);
  EXPECT_EQ(options.increment_credit, IncrementCredit::kPressOnly);
  EXPECT_TRUE(options.freeze_on_last_period_flag);
  EXPECT_EQ(options.trigger, PeriodTrigger::kByMoveCount);
  EXPECT_EQ(options.mismatch_tolerance, rules.clock_mismatch_tolerance);
  // "A named clock configuration's own trigger wins" (docs/rules.md §2).
  EXPECT_EQ(ClockModel(parse_time_control("kk-5+20s+2d").value(), options).trigger(),
            PeriodTrigger::kOnZero);
  rules.period_trigger = PeriodTrigger::kOnZero;
  EXPECT_EQ(
      ClockModel(parse_time_control("fide-classical-40/90+30+30s").value(), clock_options(rules))
          .trigger(),
      PeriodTrigger::kByMoveCount);
  EXPECT_EQ(
      ClockModel(parse_time_control("time-only-2h/40+1h/20+30m").value(), clock_options(rules))
          .trigger(),
      PeriodTrigger::kOnZero);
}

TEST(ClockModel, EveryCallCatchesUp) {
  ClockModel clock = clock_for("10");
  (void)clock.start(sec(0));
  const auto flags = events_of<FlagFall>(clock.start(sec(20)));  // a second start is ignored
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].at, sec(10));
}

// Scenarios 41/42 the way a script sets them: the rule set's default clock and a param line.
TEST(ClockModel, ParamLineDrivesTheClock) {
  RuleSet rules = rule_set_by_name("fide-blitz").value();
  ASSERT_FALSE(apply_param(rules, "increment_credit", "press_only"));
  ClockModel clock(parse_time_control(rules.default_clock).value(), clock_options(rules));
  (void)clock.start(sec(0));
  EXPECT_EQ(clock.remaining(kWhite, sec(0)), min_sec(3, 0));
  (void)clock.press(kWhite, sec(5), 1);
  EXPECT_EQ(clock.remaining(kWhite, sec(5)), min_sec(2, 57));
}

// D6: a press without a move is still a press for the clock (the arbiter corrects, 7.1).
TEST(ClockModel, PressWithoutMoveStillCreditsTheIncrement) {
  ClockModel clock = clock_for("180+2", press_only());
  (void)clock.start(sec(0));
  const auto events = clock.press(kWhite, sec(1), 0);
  EXPECT_EQ(events_of<IncrementCredited>(events).size(), 1u);
  EXPECT_EQ(clock.remaining(kWhite, sec(1)), sec(181));
  EXPECT_EQ(clock.moves_completed(kWhite), 0);
  EXPECT_EQ(clock.running(), kBlack);
}

}  // namespace
}  // namespace eboard::engine
