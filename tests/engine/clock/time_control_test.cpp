#include "engine/clock/time_control.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/clock/duration_text.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

TimeControl parsed(std::string_view text) {
  auto control = parse_time_control(text);
  EXPECT_TRUE(control.ok()) << text << ": " << (control.ok() ? "" : control.error());
  return control.ok() ? control.value() : TimeControl{};
}

std::string error_of(std::string_view text) {
  auto control = parse_time_control(text);
  EXPECT_FALSE(control.ok()) << text << " parsed as " << format_time_control(control.value());
  return control.ok() ? "" : control.error();
}

TEST(TimeControl, FischerGrammar) {
  const TimeControl control = parsed("180+2");
  ASSERT_EQ(control.periods.size(), 1u);
  EXPECT_EQ(control.periods[0].moves, 0);
  EXPECT_EQ(control.periods[0].base, milliseconds{180000});
  EXPECT_EQ(control.periods[0].adjustment, Adjustment::kFischer);
  EXPECT_EQ(control.periods[0].adjustment_amount, milliseconds{2000});
  EXPECT_FALSE(control.trigger.has_value());
}

TEST(TimeControl, DelaysAndSuddenDeath) {
  EXPECT_EQ(parsed("300d2").periods[0].adjustment, Adjustment::kSimpleDelay);
  EXPECT_EQ(parsed("300b2").periods[0].adjustment, Adjustment::kBronstein);
  const TimeControl sudden = parsed("900");
  EXPECT_EQ(sudden.periods[0].adjustment, Adjustment::kNone);
  EXPECT_EQ(sudden.periods[0].base, milliseconds{900000});
  // A zero adjustment is no adjustment.
  EXPECT_EQ(parsed("900+0"), sudden);
  EXPECT_EQ(parsed("900d0"), sudden);
}

TEST(TimeControl, SeveralPeriodsCountMovesPerPeriod) {
  const TimeControl control = parsed("40/5400+30:20/3600+30:1800+30");
  ASSERT_EQ(control.periods.size(), 3u);
  EXPECT_EQ(control.periods[0].moves, 40);
  EXPECT_EQ(control.periods[1].moves, 20);
  EXPECT_EQ(control.periods[2].moves, 0);
  EXPECT_EQ(control.periods[2].base, milliseconds{1800000});
  EXPECT_FALSE(control.trigger.has_value());  // the rule set's period_trigger decides
}

TEST(TimeControl, NonFinalPeriodWithoutMovesRunsOnZero) {
  EXPECT_EQ(parsed("300d2:20d2").trigger, PeriodTrigger::kOnZero);
  EXPECT_EQ(effective_trigger(parsed("300:60"), PeriodTrigger::kByMoveCount),
            PeriodTrigger::kOnZero);
  EXPECT_EQ(effective_trigger(parsed("40/300:60"), PeriodTrigger::kByMoveCount),
            PeriodTrigger::kByMoveCount);
  EXPECT_EQ(effective_trigger(parsed("40/300:60"), PeriodTrigger::kOnZero), PeriodTrigger::kOnZero);
}

TEST(TimeControl, FractionalSeconds) {
  const TimeControl control = parsed("0.5+0.25");
  EXPECT_EQ(control.periods[0].base, milliseconds{500});
  EXPECT_EQ(control.periods[0].adjustment_amount, milliseconds{250});
  EXPECT_EQ(format_time_control(control), "0.5+0.25");
}

// docs/rules.md §3: every named configuration parses to its table row.
TEST(TimeControl, NamedConfigurations) {
  const std::pair<std::string_view, std::string_view> expected[] = {
      {"sd-5", "300"},
      {"sd-15", "900"},
      {"fischer-3+2", "180+2"},
      {"rapid-15+10", "900+10"},
      {"fide-classical-40/90+30+30s", "40/5400+30:1800+30"},
      {"time-only-2h/40+1h/20+30m", "40/7200:20/3600:1800"},
      {"bronstein-G5d2", "300b2"},
      {"us-delay-G30d5", "1800d5"},
      {"kk-5+20s+2d", "300d2:20d2"},
  };
  ASSERT_EQ(named_time_controls().size(), std::size(expected));
  for (const auto& [name, grammar] : expected) {
    const TimeControl control = parsed(name);
    EXPECT_EQ(format_time_control(control), grammar) << name;
    EXPECT_EQ(control.periods, parsed(grammar).periods) << name;
  }
  EXPECT_EQ(parsed("fide-classical-40/90+30+30s").trigger, PeriodTrigger::kByMoveCount);
  EXPECT_EQ(parsed("kk-5+20s+2d").trigger, PeriodTrigger::kOnZero);
  EXPECT_FALSE(parsed("time-only-2h/40+1h/20+30m").trigger.has_value());
}

TEST(TimeControl, GrammarRoundTrips) {
  for (std::string_view text :
       {"180+2", "300d2", "300b2", "900", "40/5400+30:1800+30", "40/7200:20/3600:1800",
        "300d2:20d2", "1.5", "60+0.1", "999/1:2:3b1.001", "10/60d5:60"}) {
    const TimeControl control = parsed(text);
    EXPECT_EQ(format_time_control(control), text);
    EXPECT_EQ(parsed(format_time_control(control)), control) << text;
  }
}

TEST(TimeControl, ErrorsSayWhatIsWrong) {
  EXPECT_EQ(error_of(""),
            "empty time control (expected e.g. 180+2, 40/5400+30:1800+30 or fischer-3+2)");
  EXPECT_EQ(error_of("blitz").substr(0, 46), "unknown time control 'blitz' (expected [MOVES/");
  EXPECT_NE(error_of("blitz").find("kk-5+20s+2d"), std::string::npos);
  EXPECT_EQ(error_of("180+"),
            "time control '180+': period 1 ('180+'): increment empty time (expected seconds, "
            "e.g. 180 or 0.5)");
  EXPECT_EQ(error_of("180x2"),
            "time control '180x2': period 1 ('180x2'): base time '180x2' is not a number of "
            "seconds");
  EXPECT_EQ(error_of("40/5400"),
            "time control '40/5400': the last period covers the rest of the game and takes no "
            "MOVES/");
  EXPECT_EQ(error_of("40/5400::1800"), "time control '40/5400::1800': period 2 is empty");
  EXPECT_EQ(error_of("180:"), "time control '180:': period 2 is empty");
  EXPECT_EQ(error_of("0/60:60"),
            "time control '0/60:60': period 1 ('0/60'): moves must be at "
            "least 1");
  EXPECT_EQ(error_of("1000/60:60"),
            "time control '1000/60:60': period 1 ('1000/60'): moves '1000' is larger than 999");
  EXPECT_EQ(error_of("x/60:60").substr(0, 31), "unknown time control 'x/60:60' ");
  EXPECT_EQ(error_of("1x/60:60"),
            "time control '1x/60:60': period 1 ('1x/60'): moves '1x' is not a whole number");
  EXPECT_EQ(error_of("0+2"), "time control '0+2': period 1 ('0+2'): base time must be more than 0");
  EXPECT_EQ(error_of("60d"),
            "time control '60d': period 1 ('60d'): delay empty time (expected seconds, e.g. 180 "
            "or 0.5)");
  EXPECT_EQ(error_of("60b1.2345"),
            "time control '60b1.2345': period 1 ('60b1.2345'): Bronstein delay time '1.2345' has "
            "more than 3 decimals (milliseconds)");
  EXPECT_EQ(error_of("60+2d1"),
            "time control '60+2d1': period 1 ('60+2d1'): increment time '2d1' is not a number of "
            "seconds");
  EXPECT_EQ(error_of("360001"),
            "time control '360001': period 1 ('360001'): base time '360001' is longer than 100 "
            "hours");
  EXPECT_EQ(error_of("1:1:1:1:1:1:1:1:1"), "time control '1:1:1:1:1:1:1:1:1': more than 8 periods");
  EXPECT_EQ(error_of(" 180"), error_of(" 180"));
  EXPECT_NE(error_of("180 +2").find("not a number of seconds"), std::string::npos);
}

TEST(DurationText, ParsesAndFormatsSeconds) {
  EXPECT_EQ(parse_seconds("0").value(), milliseconds{0});
  EXPECT_EQ(parse_seconds("12.3").value(), milliseconds{12300});
  EXPECT_EQ(parse_seconds("0.001").value(), milliseconds{1});
  EXPECT_EQ(parse_seconds("360000").value(), kMaxWrittenDuration);
  EXPECT_EQ(parse_seconds(".5").error(), "time '.5' has no digits before '.'");
  EXPECT_EQ(parse_seconds("5.").error(), "time '5.' has no digits after '.'");
  EXPECT_EQ(parse_seconds("-5").error(), "time '-5' is not a number of seconds");
  EXPECT_EQ(parse_seconds("99999999999999999999").error(),
            "time '99999999999999999999' is longer than 100 hours");
  EXPECT_EQ(format_seconds(milliseconds{12300}), "12.3");
  EXPECT_EQ(format_seconds(milliseconds{1}), "0.001");
  EXPECT_EQ(format_seconds(milliseconds{-1500}), "-1.5");
  EXPECT_EQ(format_seconds(milliseconds{60000}), "60");
}

}  // namespace
}  // namespace eboard::engine
