// The daemon's one source of time (style.md "State and time"): monotonic time for
// durations, deadlines and the engine's `now`; wall time only for PGN dates and logs.
// Everything that needs time takes a Clock&, so unit tests drive it with ManualClock and
// never sleep. Asio's own timers still wait on the real steady clock; the daemon computes
// their expiry from Clock::now(), so with SystemClock the two agree.
#pragma once

#include <chrono>

namespace eboard::daemon {

using SteadyTime = std::chrono::steady_clock::time_point;
using WallTime = std::chrono::system_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual SteadyTime now() const = 0;
  virtual WallTime wall_now() const = 0;
};

class SystemClock final : public Clock {
 public:
  SteadyTime now() const override { return std::chrono::steady_clock::now(); }
  WallTime wall_now() const override { return std::chrono::system_clock::now(); }
};

// A clock that moves only when told to (tests).
class ManualClock final : public Clock {
 public:
  SteadyTime now() const override { return now_; }
  WallTime wall_now() const override { return wall_; }
  void advance(std::chrono::milliseconds by) {
    now_ += by;
    wall_ += by;
  }

 private:
  SteadyTime now_{std::chrono::hours(1)};
  WallTime wall_{std::chrono::hours(24 * 365 * 50)};
};

}  // namespace eboard::daemon
