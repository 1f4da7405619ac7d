#include "drivers/dgt/clock_gate.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

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

// A side shows more time than `base` leaves it: an increment, a delay's add-back or a
// next period's time, which presses give. A time lower than expected is no sign of one: a
// clock that ran while readings were lost shows that too.
bool time_added(const GatedReading& base, const GatedReading& next) {
  for (const ClockSide side : {ClockSide::kLeft, ClockSide::kRight}) {
    if (shown(next.reading, side) - expected(base, side, next.at) > kClockTolerance) return true;
  }
  return false;
}

// Replaced readings kept for that: a few presses, each with a damaged copy or two.
constexpr std::size_t kReplacedKept = 16;

ClockSide other_side(ClockSide side) {
  return side == ClockSide::kLeft ? ClockSide::kRight : ClockSide::kLeft;
}

// The time the player who pressed between `before` and `after` (one press) gained: what
// `after` shows on their side beyond what `before` leaves it, the increment less the time
// their clock ran between `before` and the press.
Millis press_gain(const GatedReading& before, const GatedReading& after) {
  const ClockSide pressed = other_side(running_side(*after.reading.lever_high));
  return shown(after.reading, pressed) - expected(before, pressed, after.at);
}

// Two presses that no reading between them shows (its bytes lost on the line, or a
// damaged copy): `after` shows the status of `before`, with both sides ahead. A press
// adds the increment, and each clock runs only on its own turn: the side whose clock ran
// in `before` pressed first and gained the increment less the time its clock ran before
// and after the two presses; the other gained the increment less the time between them.
// So each side's gain is more than the tolerance and at most `increment` (what the last
// presses added, clock_gate.h) plus twice the tolerance (the whole seconds and the lag of
// the readings that gain was learnt from, and of these). Nothing else explains such a
// change, unless: a flag, the lever, the turn or the running bit changed; the side whose
// clock ran could have reached zero meanwhile (a DGT 3000 adds a next period's time to
// both sides at zero, without a flag when the moves were made); more than kPairWindow
// passed (an arbiter's correction needs the clock stopped, and its readings would all have
// had to be lost); or no increment was learnt since the host last set the times (a
// set-and-run may raise both). Returns the reading the clock showed between the presses,
// rebuilt: the first presser's time as `after` shows it (low by the time their clock ran
// after the second press), the second's as `before` shows it.
constexpr Millis kPairWindow{3000};

std::optional<GatedReading> press_pair(const GatedReading& before, const GatedReading& after,
                                       std::optional<Millis> increment) {
  if (!increment || *increment <= kClockTolerance) return std::nullopt;
  const ClockReading& a = before.reading;
  const ClockReading& n = after.reading;
  if (!a.running || !a.turn || !a.lever_high || *a.turn != running_side(*a.lever_high))
    return std::nullopt;
  if (after.status != before.status || !clock_status_possible(after.status) ||
      n.lever_high != a.lever_high || n.turn != a.turn || n.running != a.running ||
      n.left_flag != a.left_flag || n.right_flag != a.right_flag)
    return std::nullopt;
  if (after.at < before.at || after.at - before.at > kPairWindow) return std::nullopt;
  const ClockSide first = *a.turn;
  const ClockSide second = other_side(first);
  const Millis first_left = expected(before, first, after.at);
  if (first_left <= kClockTolerance) return std::nullopt;
  const Millis most = *increment + 2 * kClockTolerance;
  const Millis first_gain = shown(n, first) - first_left;
  const Millis second_gain = shown(n, second) - shown(a, second);
  if (first_gain <= kClockTolerance || first_gain > most || second_gain <= kClockTolerance ||
      second_gain > most)
    return std::nullopt;
  GatedReading between = after;
  between.rebuilt = true;
  between.reading.lever_high = other_side(*a.lever_high);
  between.reading.turn = second;
  (second == ClockSide::kLeft ? between.reading.left : between.reading.right) = shown(a, second);
  between.status = static_cast<std::uint8_t>(before.status ^ 0x1A);  // lever, both turns
  if (!one_press(before, between) || !one_press(between, after)) return std::nullopt;
  return between;
}

// The presses between `accepted` and the confirmed `held`: the shortest chain of
// `replaced` readings, in order, each one press from the one before, the first from
// `accepted`, and `held` one press from the last; where no reading between two presses
// came, a link is two presses read from the times (press_pair), with the reading between
// them rebuilt. The shortest, because a damaged copy of a press that shows the
// status before it reads as two more presses: fewer presses is a move that waits, more is
// a ruling. On a clock known to add an increment each press of the chain adds it, so a
// reading whose presser gained nothing is a damaged copy of one before it (its status
// byte), no press. None when `held` is one press from `accepted`, or when no side gained
// time (a flag fall, a stop, readings lost while the clock ran: no press is needed to
// explain them, and presses without an increment leave no trace in the times).
std::vector<GatedReading> presses_between(const GatedReading& accepted,
                                          const std::vector<GatedReading>& replaced,
                                          const GatedReading& held,
                                          std::optional<Millis> increment) {
  if (one_press(accepted, held) || !time_added(accepted, held)) return {};
  const bool increments = increment && *increment > kClockTolerance;
  const auto link = [&](const GatedReading& before, const GatedReading& after) {
    return one_press(before, after) && (!increments || press_gain(before, after) > kClockTolerance);
  };
  // Nodes 0..n-1 are the replaced readings, n is `held`; kNone stands for `accepted`.
  const std::size_t n = replaced.size();
  constexpr std::size_t kNone = SIZE_MAX;
  const auto node = [&](std::size_t i) -> const GatedReading& {
    return i == kNone ? accepted : i < n ? replaced[i] : held;
  };
  // The best chain to each node: fewest presses, then fewest rebuilt readings (a chain of
  // readings the clock sent before one through a rebuilt reading).
  struct Best {
    std::size_t presses = kNone;
    std::size_t rebuilt = 0;
    std::size_t before = kNone;           // the node before it
    std::optional<GatedReading> between;  // rebuilt between that node and this one
  };
  std::vector<Best> best(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    Best& to = best[i];
    const auto from = [&](std::size_t j) {
      const std::size_t presses = j == kNone ? 0 : best[j].presses;
      const std::size_t rebuilt = j == kNone ? 0 : best[j].rebuilt;
      if (presses == kNone) return;  // no chain reaches it
      Best via{presses + 1, rebuilt, j, std::nullopt};
      if (!link(node(j), node(i))) {
        via.between = press_pair(node(j), node(i), increment);
        if (!via.between) return;
        via.presses = presses + 2;
        via.rebuilt = rebuilt + 1;
      }
      if (std::pair{via.presses, via.rebuilt} < std::pair{to.presses, to.rebuilt})
        to = std::move(via);
    };
    from(kNone);
    for (std::size_t j = 0; j < i; ++j) from(j);
  }
  if (best[n].presses == kNone) return {};
  std::vector<GatedReading> chain;
  for (std::size_t i = n;;) {
    if (i != n) chain.push_back(node(i));
    if (best[i].between) chain.push_back(*best[i].between);
    if (best[i].before == kNone) break;
    i = best[i].before;
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

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
  // A reading: the "no clock" before it was damage. A reading held before it is judged as
  // if it had not come; what waited on the "no clock" alone goes out now.
  release.resolved = absent_held_ && !held_;
  absent_held_ = false;
  if (held_ && !clock_consistent(*held_, next) &&
      !(accepted_ && clock_consistent(*accepted_, next))) {
    // A reading the held one replaced may be what the clock still shows: the held one and
    // those after it were damage, and it is confirmed.
    for (std::size_t i = replaced_.size(); i-- > 0;) {
      if (!clock_consistent(replaced_[i], next)) continue;
      held_ = replaced_[i];
      replaced_.resize(i);
      break;
    }
  }
  if (held_) {
    if (clock_consistent(*held_, next)) {
      if (accepted_) {
        release.earlier = presses_between(*accepted_, replaced_, *held_, increment());
        learn_increments(*accepted_, release.earlier, *held_);
      }
      release.confirmed = held_;
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
    held_->behind = 0;  // what waited before it went out with `resolved`, or there was none
    return release;
  }
  release.passed = next.reading;
  accepted_ = next;
  return release;
}

void ClockGate::learn_increments(const GatedReading& accepted,
                                 const std::vector<GatedReading>& presses,
                                 const GatedReading& held) {
  const GatedReading* before = &accepted;
  const auto learn = [&](const GatedReading& after) {
    if (!before->rebuilt && !after.rebuilt && one_press(*before, after)) {
      gains_[0] = gains_[1];
      gains_[1] = press_gain(*before, after);
    }
    before = &after;
  };
  for (const GatedReading& press : presses) learn(press);
  learn(held);
}

std::optional<Millis> ClockGate::increment() const {
  if (!gains_[0] || !gains_[1]) return std::nullopt;
  return std::min(*gains_[0], *gains_[1]);
}

void ClockGate::times_set() { gains_ = {}; }

bool ClockGate::offer_absent() {
  if (!accepted_ || absent_held_) {
    reset();
    return true;
  }
  // One damaged status bit does not undo what is held: a press held for its confirmation
  // stays held, and so do the readings it replaced.
  absent_held_ = true;
  return false;
}

void ClockGate::reset() {
  accepted_.reset();
  held_.reset();
  replaced_.clear();
  absent_held_ = false;
  gains_ = {};
}

}  // namespace eboard::drivers::dgt
