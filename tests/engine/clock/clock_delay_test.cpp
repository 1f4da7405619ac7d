// Bronstein and simple delay (docs/rules.md D9, scenarios 44-46).
#include <gtest/gtest.h>

#include "engine/clock/clock_model.h"
#include "tests/engine/clock/clock_test_util.h"

namespace eboard::engine {
namespace {

using namespace testing;

// Scenario 44: us-delay 5 s, main 1:00: 3 s used -> 1:00; next turn 8 s -> 0:57.
TEST(ClockDelay, SimpleDelayFreezesMainTime) {
  ClockModel clock = clock_for("60d5");
  const auto started = clock.start(sec(0));
  ASSERT_EQ(events_of<DelayWindow>(started).size(), 1u);
  EXPECT_EQ(events_of<DelayWindow>(started)[0].delay, sec(5));
  EXPECT_EQ(clock.next_deadline(), sec(5));  // the delay's end
  EXPECT_EQ(clock.delay_left(sec(3)), sec(2));
  EXPECT_EQ(clock.remaining(kWhite, sec(3)), sec(60));
  EXPECT_TRUE(events_of<IncrementCredited>(clock.press(kWhite, sec(3), 1)).empty());
  EXPECT_EQ(clock.remaining(kWhite, sec(3)), sec(60));
  (void)clock.press(kBlack, sec(4), 1);  // Black used 1 s of its delay
  EXPECT_EQ(clock.remaining(kBlack, sec(4)), sec(60));
  const auto ended = clock.advance(sec(9));
  ASSERT_EQ(events_of<DelayEnded>(ended).size(), 1u);
  EXPECT_EQ(events_of<DelayEnded>(ended)[0].at, sec(9));
  EXPECT_EQ(clock.next_deadline(), sec(69));  // now the flag
  (void)clock.press(kWhite, sec(12), 2);
  EXPECT_EQ(clock.remaining(kWhite, sec(12)), sec(57));
}

// Scenario 45: Bronstein 5 s, main 1:00: 3 s -> 1:00 (3 s added back); 8 s -> 0:57.
TEST(ClockDelay, BronsteinAddsBackUpToTheDelay) {
  ClockModel clock = clock_for("60b5");
  (void)clock.start(sec(0));
  EXPECT_EQ(clock.remaining(kWhite, sec(3)), sec(57));  // main runs from the first instant
  EXPECT_EQ(clock.next_deadline(), sec(60));            // no delay deadline: only the flag
  const auto first = clock.press(kWhite, sec(3), 1);
  ASSERT_EQ(events_of<IncrementCredited>(first).size(), 1u);
  EXPECT_EQ(events_of<IncrementCredited>(first)[0].amount, sec(3));
  EXPECT_EQ(events_of<IncrementCredited>(first)[0].adjustment, Adjustment::kBronstein);
  EXPECT_EQ(clock.remaining(kWhite, sec(3)), sec(60));
  (void)clock.press(kBlack, sec(4), 1);
  (void)clock.press(kWhite, sec(12), 2);
  EXPECT_EQ(clock.remaining(kWhite, sec(12)), sec(57));
}

// Bronstein never lets the clock exceed its value at the start of the move.
TEST(ClockDelay, BronsteinNeverAccumulates) {
  ClockModel clock = clock_for("bronstein-G5d2");
  (void)clock.start(sec(0));
  long long t = 0;
  for (int move = 1; move <= 20; ++move) {
    t += 500;
    (void)clock.press(kWhite, ms(t), move);
    t += 500;
    (void)clock.press(kBlack, ms(t), move);
  }
  EXPECT_EQ(clock.remaining(kWhite, ms(t)), min_sec(5, 0));
  EXPECT_EQ(clock.remaining(kBlack, ms(t)), min_sec(5, 0));
}

// Scenario 46: main 0:02, delay 5 s, press after 3 s: Bronstein flags at 2 s (inside the
// delay, no add-back after the flag); simple delay does not flag and main stays 0:02.
TEST(ClockDelay, FlagDuringBronsteinDelay) {
  ClockModel bronstein = clock_for("2b5");
  (void)bronstein.start(sec(0));
  EXPECT_EQ(bronstein.next_deadline(), sec(2));
  const auto events = bronstein.press(kWhite, sec(3), 1);
  const auto flags = events_of<FlagFall>(events);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].at, sec(2));
  EXPECT_TRUE(events_of<IncrementCredited>(events).empty());
  EXPECT_EQ(bronstein.remaining(kWhite, sec(3)), ms(0));

  ClockModel simple = clock_for("2d5");
  (void)simple.start(sec(0));
  const auto none = simple.press(kWhite, sec(3), 1);
  EXPECT_TRUE(events_of<FlagFall>(none).empty());
  EXPECT_EQ(simple.remaining(kWhite, sec(3)), sec(2));
}

TEST(ClockDelay, SimpleDelayFlagComesAfterTheDelay) {
  ClockModel clock = clock_for("2d5");
  (void)clock.start(sec(0));
  auto events = clock.advance(sec(100));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(std::get<DelayEnded>(events[0]).at, sec(5));
  EXPECT_EQ(std::get<FlagFall>(events[1]).at, sec(7));
}

// A pause in the middle of a delay keeps what is left of it (6.11).
TEST(ClockDelay, PauseInsideSimpleDelay) {
  ClockModel clock = clock_for("60d5");
  (void)clock.start(sec(0));
  (void)clock.pause(sec(2));
  (void)clock.resume(sec(100));
  EXPECT_EQ(clock.delay_left(sec(100)), sec(3));
  EXPECT_EQ(clock.next_deadline(), sec(103));
  EXPECT_EQ(clock.remaining(kWhite, sec(110)), sec(53));
}

// Bronstein add-back counts running time only, not the pause.
TEST(ClockDelay, PauseInsideBronsteinDelay) {
  ClockModel clock = clock_for("60b5");
  (void)clock.start(sec(0));
  (void)clock.pause(sec(1));
  (void)clock.resume(sec(50));
  (void)clock.press(kWhite, sec(51), 1);
  EXPECT_EQ(clock.remaining(kWhite, sec(51)), sec(60));
}

}  // namespace
}  // namespace eboard::engine
