// Capped exponential backoff for reconnecting a vanished device.
// The caller owns the timer: it asks for the next delay, arms a timer, and calls reset()
// once the device is confirmed again. No clock is read here.
#pragma once

#include <algorithm>
#include <chrono>

namespace eboard::drivers {

class Backoff {
 public:
  using Duration = std::chrono::milliseconds;
  Backoff(Duration first = Duration(250), Duration cap = Duration(8000))
      : first_(first), cap_(cap), next_(first) {}

  // The delay before the next attempt; each call doubles the following one, up to the cap.
  Duration next_delay() {
    const Duration delay = next_;
    next_ = std::min(cap_, next_ * 2);
    return delay;
  }
  void reset() { next_ = first_; }

 private:
  Duration first_;
  Duration cap_;
  Duration next_;
};

}  // namespace eboard::drivers
