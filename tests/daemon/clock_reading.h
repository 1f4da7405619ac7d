// A running DGT clock's reading for tests that drive a BoardSession directly: `turn`'s
// side runs and its lever is the high one, as a real clock reports after a press.
#pragma once

#include <chrono>

#include "drivers/sensor_event.h"

namespace eboard::daemon::testing_support {

inline drivers::ClockReading running_reading(drivers::ClockSide turn, int left_s, int right_s) {
  drivers::ClockReading r;
  r.left = std::chrono::milliseconds(left_s * 1000);
  r.right = std::chrono::milliseconds(right_s * 1000);
  r.running = true;
  r.turn = turn;
  r.lever_high = turn;
  return r;
}

}  // namespace eboard::daemon::testing_support
