#include "drivers/board_spec.h"

#include <gtest/gtest.h>

#include "drivers/clock_sides.h"
#include "drivers/reconnect.h"

namespace eboard::drivers {
namespace {

TEST(BoardSpec, ParsesTheInterfacesExamples) {
  auto spec = std::get<BoardSpec>(parse_board_spec("dgt:/dev/ttyACM0"));
  EXPECT_EQ(spec.driver, "dgt");
  EXPECT_EQ(spec.device, "/dev/ttyACM0");
  EXPECT_EQ(spec.white, WhiteSetting::kAuto);
  EXPECT_FALSE(spec.serial);
  spec = std::get<BoardSpec>(parse_board_spec("dgt:auto,serial=24680"));
  EXPECT_EQ(spec.device, "auto");
  EXPECT_EQ(*spec.serial, "24680");
  spec = std::get<BoardSpec>(parse_board_spec("dgt:/dev/ttyACM0,white=right"));
  EXPECT_EQ(spec.white, WhiteSetting::kRight);
  EXPECT_EQ(spec.clock, ClockSetting::kAuto);
  spec = std::get<BoardSpec>(parse_board_spec("dgt:/dev/ttyACM0,clock=none"));
  EXPECT_EQ(spec.clock, ClockSetting::kNone);
  EXPECT_EQ(std::get<SpecError>(parse_board_spec("dgt:/x,clock=off")).message,
            "clock= takes none or auto, not 'off'");
}

TEST(BoardSpec, RejectsBadSpecs) {
  EXPECT_EQ(std::get<SpecError>(parse_board_spec("dgt")).message,
            "bad board spec 'dgt' (expected DRIVER:DEVICE)");
  EXPECT_EQ(std::get<SpecError>(parse_board_spec("dgt:/x,white=up")).message,
            "white= takes left, right or auto, not 'up'");
  EXPECT_EQ(std::get<SpecError>(parse_board_spec("dgt:/x,speed=3")).message,
            "unknown board spec option 'speed'");
  EXPECT_EQ(std::get<SpecError>(parse_board_spec("dgt:/x,serial")).message,
            "board spec option 'serial' needs KEY=VALUE");
}

TEST(ClockSides, AutoTakesTheFirstRunningSide) {
  ClockSides sides(WhiteSetting::kAuto);
  EXPECT_EQ(sides.white_side(), ClockSide::kLeft);
  EXPECT_FALSE(sides.decided());
  ClockReading stopped;
  stopped.turn = ClockSide::kRight;
  sides.observe(stopped);
  EXPECT_FALSE(sides.decided());
  ClockReading running = stopped;
  running.running = true;
  sides.observe(running);
  EXPECT_TRUE(sides.decided());
  EXPECT_EQ(sides.white_side(), ClockSide::kRight);
  running.turn = ClockSide::kLeft;
  sides.observe(running);
  EXPECT_EQ(sides.white_side(), ClockSide::kRight);
  ClockSides fixed(WhiteSetting::kLeft);
  fixed.observe(stopped);
  EXPECT_TRUE(fixed.is_white(ClockSide::kLeft));
}

// A first running reading that comes after White's first press shows Black's clock.
TEST(ClockSides, AutoLearnsFromTheClockOfTheSideToMove) {
  ClockSides sides(WhiteSetting::kAuto);
  ClockReading running;
  running.running = true;
  running.turn = ClockSide::kRight;
  sides.observe(running, ClockSides::Running::kBlack);
  EXPECT_TRUE(sides.decided());
  EXPECT_EQ(sides.white_side(), ClockSide::kLeft);
}

TEST(Backoff, DoublesUpToTheCapAndResets) {
  Backoff backoff(std::chrono::milliseconds(250), std::chrono::milliseconds(1000));
  EXPECT_EQ(backoff.next_delay().count(), 250);
  EXPECT_EQ(backoff.next_delay().count(), 500);
  EXPECT_EQ(backoff.next_delay().count(), 1000);
  EXPECT_EQ(backoff.next_delay().count(), 1000);
  backoff.reset();
  EXPECT_EQ(backoff.next_delay().count(), 250);
}

}  // namespace
}  // namespace eboard::drivers
