#include "drivers/dgt/clock_gate.h"

#include <algorithm>
#include <cstdlib>

#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers::dgt {
namespace {

Millis shown(const ClockReading& r, ClockSide side) {
  return side == ClockSide::kLeft ? r.left : r.right;
}

// The time `side` should show at `at` if only the clock ran since `base`.
Millis expected(const GatedReading& base, ClockSide side, TimePoint at) {
  const ClockReading& r = base.reading;
  if (!r.running || r.turn != side) return shown(r, side);
  const auto elapsed = std::chrono::duration_cast<Millis>(at - base.at);
  return std::max(Millis{0}, shown(r, side) - elapsed);
}

bool time_consistent(const GatedReading& base, const GatedReading& next, ClockSide side) {
  const Millis off = shown(next.reading, side) - expected(base, side, next.at);
  return std::abs(off.count()) <= kClockTolerance.count();
}

// A flag is announced when the reading before left its side no more than the tolerance.
bool flag_unannounced(const GatedReading& base, const GatedReading& next, ClockSide side) {
  const bool now_down = side == ClockSide::kLeft ? next.reading.left_flag : next.reading.right_flag;
  const bool was_down = side == ClockSide::kLeft ? base.reading.left_flag : base.reading.right_flag;
  return now_down && !was_down && shown(base.reading, side) > kClockTolerance;
}

// A change a ruling may follow from, or damage.
bool needs_confirmation(const std::optional<GatedReading>& base, const GatedReading& next) {
  if (!base) return true;  // the reference for all that follows
  const ClockReading& b = base->reading;
  const ClockReading& n = next.reading;
  if (b.lever_high != n.lever_high || b.turn != n.turn || b.running != n.running) return true;
  if (flag_unannounced(*base, next, ClockSide::kLeft) ||
      flag_unannounced(*base, next, ClockSide::kRight))
    return true;
  if (!time_consistent(*base, next, ClockSide::kLeft) ||
      !time_consistent(*base, next, ClockSide::kRight))
    return true;
  return !clock_status_possible(next.status) && next.status != base->status;
}

// The side whose clock runs while the lever is high on `lever_high` (§11.3).
ClockSide running_side(ClockSide lever_high) {
  if (kLeverHighRightMeansLeftPressed) return lever_high;
  return lever_high == ClockSide::kLeft ? ClockSide::kRight : ClockSide::kLeft;
}

// `after` reads as the clock one press after `before` (§1.8): the lever moved, the clock
// runs on the side it now stands high on, the side that did not press kept its time, and
// no flag fell that `before` did not announce. The presser's own time is not checked: an
// increment or a period's time may have been added to it.
bool one_press(const GatedReading& before, const GatedReading& after) {
  const ClockReading& a = after.reading;
  if (!a.lever_high || a.lever_high == before.reading.lever_high ||
      !clock_status_possible(after.status))
    return false;
  const ClockSide runs = running_side(*a.lever_high);
  if (!a.running || a.turn != runs) return false;
  if (flag_unannounced(before, after, ClockSide::kLeft) ||
      flag_unannounced(before, after, ClockSide::kRight))
    return false;
  return time_consistent(before, after, runs);
}

// `replaced` was never confirmed: it is released as a press between `accepted` and the
// confirmed `held` only when it reads as one press from `accepted`, `held` as one press
// from it, and `held`'s times are not what `accepted` shows with only its clock running.
bool second_press(const GatedReading& accepted, const GatedReading& replaced,
                  const GatedReading& held) {
  const bool times_moved = !time_consistent(accepted, held, ClockSide::kLeft) ||
                           !time_consistent(accepted, held, ClockSide::kRight);
  return times_moved && held.reading.lever_high == accepted.reading.lever_high &&
         one_press(accepted, replaced) && one_press(replaced, held);
}

// Replaced readings kept for that: the press and one or two damaged copies of it.
constexpr std::size_t kReplacedKept = 4;

}  // namespace

bool clock_status_possible(std::uint8_t status) {
  const bool running = status & 0x01;
  const bool right_turn = status & 0x08;
  const bool left_turn = status & 0x10;
  if (status & 0xC0) return false;
  if (right_turn && left_turn) return false;
  return !running || right_turn || left_turn;
}

bool clock_consistent(const GatedReading& base, const GatedReading& next) {
  const ClockReading& b = base.reading;
  const ClockReading& n = next.reading;
  return b.lever_high == n.lever_high && b.turn == n.turn && b.running == n.running &&
         b.left_flag == n.left_flag && b.right_flag == n.right_flag && base.status == next.status &&
         time_consistent(base, next, ClockSide::kLeft) &&
         time_consistent(base, next, ClockSide::kRight);
}

GateRelease ClockGate::offer(const GatedReading& next) {
  GateRelease release;
  release.resolved = absent_held_;
  absent_held_ = false;  // a reading: the "no clock" before it was damage
  if (held_) {
    if (clock_consistent(*held_, next)) {
      for (auto r = replaced_.rbegin(); accepted_ && r != replaced_.rend(); ++r) {
        if (!second_press(*accepted_, *r, *held_)) continue;
        release.earlier = r->reading;
        break;
      }
      release.confirmed = held_->reading;
      accepted_ = held_;
      held_.reset();
    } else if (accepted_ && clock_consistent(*accepted_, next)) {
      held_.reset();  // the held one was damage
    } else {
      // Neither: the newer one waits for its own confirmation.
      if (replaced_.size() == kReplacedKept) replaced_.erase(replaced_.begin());
      replaced_.push_back(*held_);
      held_ = next;
      release.replaced = true;
      return release;
    }
    replaced_.clear();
    release.resolved = true;
  }
  if (needs_confirmation(accepted_, next)) {
    held_ = next;
    return release;
  }
  release.passed = next.reading;
  accepted_ = next;
  return release;
}

bool ClockGate::offer_absent() {
  if (!accepted_ || absent_held_) {
    reset();
    return true;
  }
  held_.reset();
  replaced_.clear();
  absent_held_ = true;
  return false;
}

void ClockGate::reset() {
  accepted_.reset();
  held_.reset();
  replaced_.clear();
  absent_held_ = false;
}

}  // namespace eboard::drivers::dgt
