// A lasting disagreement with the hardware clock is reported once, not with every
// reading (the demo's journal filled with a clockMismatch every 50 ms).
// Time is injected; these tests never sleep.
#include <gtest/gtest.h>

#include "engine/clock/clock_model.h"
#include "tests/engine/clock/clock_test_util.h"

namespace eboard::engine {
namespace {

using namespace testing;

std::size_t mismatches_in(const std::vector<ClockEvent>& events) {
  return events_of<ClockMismatch>(events).size();
}

// A clock running ten times as fast as the model (an emulator sped up, a broken clock):
// every reading is 9 s behind the model's catch-up, always the same way.
TEST(ClockMismatchOnce, SteadyDriftIsReportedOnce) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  std::size_t reported = 0;
  for (int t = 1; t <= 20; ++t) {
    ClockReading reading;
    reading.white = sec(300 - 10 * t);
    reading.black = sec(300);
    reported += mismatches_in(clock.observe(reading, sec(t)));
  }
  EXPECT_EQ(reported, 1u);
  EXPECT_EQ(clock.remaining(kWhite, sec(20)), sec(100));  // the clock's times still win
}

TEST(ClockMismatchOnce, ReportedAgainWhenItRecursAfterAgreeing) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.black = sec(300);
  reading.white = sec(290);  // model 299 at t = 1: off by 9 s
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(1))), 1u);
  reading.white = sec(289);  // model 289 at t = 2: agrees
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(2))), 0u);
  reading.white = sec(280);  // model 288 at t = 3: off again
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(3))), 1u);
}

TEST(ClockMismatchOnce, ReportedAgainWhenTheDifferenceChangesMaterially) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.black = sec(300);
  reading.white = sec(294);  // model 299: 5 s
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(1))), 1u);
  reading.white = sec(288);  // model 293: 5 s again
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(2))), 0u);
  reading.white = sec(275);  // model 287: 12 s
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(3))), 1u);
}

// The model still runs White's time while the clock reports itself stopped (players who
// stopped the clock at the end of a game): one report, not one a reading.
TEST(ClockMismatchOnce, StoppedClockAgainstRunningModelIsReportedOnce) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  ClockReading reading;
  reading.white = sec(250);
  reading.black = sec(300);
  reading.running_known = true;  // running empty: stopped
  std::size_t running_reports = 0;
  for (int t = 50; t < 60; ++t) {
    for (const auto& m : events_of<ClockMismatch>(clock.observe(reading, sec(t)))) {
      if (m.field == ClockField::kRunning) ++running_reports;
    }
  }
  EXPECT_EQ(running_reports, 1u);
}

TEST(ClockMismatchOnce, CounterOneOffIsReportedOnce) {
  ClockModel clock = clock_for("300");
  (void)clock.start(sec(0));
  (void)clock.press(kWhite, sec(1), 1);
  ClockReading reading;
  reading.white = sec(299);
  reading.black = sec(300);
  reading.white_moves = 0;  // the clock missed the press
  std::size_t reported = 0;
  for (int t = 2; t < 8; ++t) {
    reading.black = sec(300 - (t - 1));
    reported += mismatches_in(clock.observe(reading, sec(t)));
  }
  EXPECT_EQ(reported, 1u);
  reading.white_moves = 1;  // agrees
  reading.black = sec(293);
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(8))), 0u);
  reading.white_moves = 0;  // and disagrees again
  reading.black = sec(292);
  EXPECT_EQ(mismatches_in(clock.observe(reading, sec(9))), 1u);
}

}  // namespace
}  // namespace eboard::engine
