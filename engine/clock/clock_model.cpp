#include "engine/clock/clock_model.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

namespace eboard::engine {

using std::chrono::milliseconds;

namespace {
// No clock holds more than this; arbiter corrections and hardware readings are clamped.
constexpr milliseconds kMaxOnClock{1000LL * 3600 * 1000};
}  // namespace

ClockModel::ClockModel(TimeControl control, ClockOptions options)
    : control_(std::move(control)),
      options_(options),
      trigger_(effective_trigger(control_, options.trigger)) {
  assert(!control_.periods.empty());
  for (Side& side : sides_) side.main = control_.periods.front().base;
}

int ClockModel::moves_required(int index) const {
  // Cumulative (docs/rules.md D9 "when a player completes move N (cumulative)"); a period
  // without a count (final, or an on_zero period like kk's first) requires nothing more
  // than the earlier ones, and the final period requires all moves (0).
  if (is_final(index)) return 0;
  int total = 0;
  for (int i = 0; i <= index; ++i) total += period_of(i).moves;
  return total;
}

std::vector<ClockEvent> ClockModel::start(ClockTime now, Color first) {
  if (started_) return advance(now);
  std::vector<ClockEvent> events;
  started_ = true;
  if (options_.increment_credit == IncrementCredit::kStartAndPress) {
    // DGT clocks and US Chess: 3+2 shows 3:02 at the start (docs/rules.md scenario 41).
    credit_increment(kWhite, 0, now, events);
    credit_increment(kBlack, 0, now, events);
  }
  running_ = first;
  begin_turn(first, now, events);
  return events;
}

void ClockModel::begin_turn(Color side, ClockTime now, std::vector<ClockEvent>& events) {
  accounted_until_ = now;
  turn_used_ = milliseconds{0};
  flag_fell_this_turn_ = false;
  delay_left_ = milliseconds{0};
  const Period& period = period_of(sides_[side].period);
  if (period.adjustment == Adjustment::kSimpleDelay ||
      period.adjustment == Adjustment::kBronstein) {
    if (period.adjustment == Adjustment::kSimpleDelay) delay_left_ = period.adjustment_amount;
    events.push_back(DelayWindow{now, side, period.adjustment, period.adjustment_amount});
  }
}

std::vector<ClockEvent> ClockModel::advance(ClockTime now) {
  std::vector<ClockEvent> events;
  while (runs()) {
    const Color side = *running_;
    Side& state = sides_[side];
    if (state.main.count() == 0 && delay_left_.count() == 0 && !state.flag_at) {
      // At zero but not yet handled: put there by the arbiter or a hardware reading.
      reach_zero(side, accounted_until_, events);
      continue;  // the flag is now down, or the next on_zero period put time on
    }
    if (accounted_until_ >= now) break;
    const milliseconds span = now - accounted_until_;
    if (delay_left_.count() > 0) {  // simple delay: main frozen (D9)
      const milliseconds used = std::min(span, delay_left_);
      delay_left_ -= used;
      turn_used_ += used;
      accounted_until_ += used;
      if (delay_left_.count() == 0) events.push_back(DelayEnded{accounted_until_, side});
      continue;
    }
    if (state.main.count() == 0) {  // flag already down: the clock stays at zero
      turn_used_ += span;
      accounted_until_ = now;
      break;
    }
    if (state.main > span) {
      state.main -= span;
      turn_used_ += span;
      accounted_until_ = now;
      break;
    }
    const ClockTime zero_at = accounted_until_ + state.main;
    turn_used_ += state.main;
    state.main = milliseconds{0};
    accounted_until_ = zero_at;
    reach_zero(side, zero_at, events);
  }
  if (!runs()) accounted_until_ = std::max(accounted_until_, now);
  return events;
}

void ClockModel::reach_zero(Color side, ClockTime at, std::vector<ClockEvent>& events) {
  Side& state = sides_[side];
  const int index = state.period;
  const bool final_period = is_final(index);
  const int required = moves_required(index);
  const bool requirement_met = !final_period && state.moves_completed >= required;
  const bool other_fell = sides_[~side].flag_at.has_value();

  if (!final_period && trigger_ == PeriodTrigger::kOnZero) {
    // D9 on_zero: both clocks get the next period's base at once; 6.4 decides whether
    // this zero is a flag that counts.
    events.push_back(FlagFall{at, side, index + 1, state.moves_completed, required, false,
                              !requirement_met, !other_fell});
    if (!requirement_met) {
      events.push_back(TimeControlMissed{at, side, index + 1, state.moves_completed, required});
      if (!state.flag_at) state.flag_at = at;
      if (running_ == side) flag_fell_this_turn_ = true;
    }
    for (Color each : {kWhite, kBlack}) {
      Side& s = sides_[each];
      if (is_final(s.period)) continue;
      ++s.period;
      s.main += period_of(s.period).base;
      events.push_back(PeriodStarted{at, each, s.period + 1, period_of(s.period).base});
    }
    return;
  }
  // A final-period flag, or a by_move_count flag before the period's moves were made.
  events.push_back(FlagFall{at, side, index + 1, state.moves_completed, required, final_period,
                            true, !other_fell});
  if (!final_period) {
    events.push_back(TimeControlMissed{at, side, index + 1, state.moves_completed, required});
  }
  if (!state.flag_at) state.flag_at = at;
  if (running_ == side) flag_fell_this_turn_ = true;
  if (final_period && options_.freeze_on_last_period_flag) running_.reset();
}

std::vector<ClockEvent> ClockModel::press(Color side, ClockTime now, int moves_completed) {
  std::vector<ClockEvent> events = advance(now);
  PressIgnoredReason reason = PressIgnoredReason::kNotRunning;
  if (!started_) {
    reason = PressIgnoredReason::kNotStarted;
  } else if (stopped_) {
    reason = PressIgnoredReason::kStopped;
  } else if (paused_) {
    reason = PressIgnoredReason::kPaused;
  } else if (running_ == side) {
    sides_[side].moves_completed = std::max(0, moves_completed);
    credit_press(side, now, events);
    running_ = ~side;
    begin_turn(~side, now, events);
    const auto pending = advance(now);  // a side put at zero earlier flags as its turn begins
    events.insert(events.end(), pending.begin(), pending.end());
    return events;
  }
  // D3: a press by the side whose clock is not running changes nothing (logged).
  sides_[side].moves_completed = std::max(sides_[side].moves_completed, moves_completed);
  events.push_back(PressIgnored{now, side, reason});
  return events;
}

void ClockModel::credit_press(Color side, ClockTime now, std::vector<ClockEvent>& events) {
  Side& state = sides_[side];
  const int move_period = state.period;
  const Period& period = period_of(move_period);
  // D9: nothing is credited once the flag fell during the turn (scenario 43), which also
  // covers a Bronstein flag inside the delay (scenario 46).
  const bool credit = !flag_fell_this_turn_ && state.main.count() > 0;
  if (credit && period.adjustment == Adjustment::kBronstein) {
    const milliseconds back = std::min(turn_used_, period.adjustment_amount);
    state.main += back;
    events.push_back(IncrementCredited{now, side, Adjustment::kBronstein, back});
  }
  if (credit && options_.increment_credit == IncrementCredit::kPressOnly) {
    credit_increment(side, move_period, now, events);
  }
  change_periods_by_moves(side, now, events);
  if (credit && options_.increment_credit == IncrementCredit::kStartAndPress) {
    credit_increment(side, state.period, now, events);  // for the next move (see header)
  }
}

void ClockModel::credit_increment(Color side, int period_index, ClockTime now,
                                  std::vector<ClockEvent>& events) {
  const Period& period = period_of(period_index);
  if (period.adjustment != Adjustment::kFischer) return;
  sides_[side].main += period.adjustment_amount;
  events.push_back(IncrementCredited{now, side, Adjustment::kFischer, period.adjustment_amount});
}

void ClockModel::change_periods_by_moves(Color side, ClockTime now,
                                         std::vector<ClockEvent>& events) {
  if (trigger_ != PeriodTrigger::kByMoveCount) return;
  Side& state = sides_[side];
  // 6.3.2: unused time carries over; a count that jumps (6.2.1.2) may pass two periods.
  while (!is_final(state.period) && period_of(state.period).moves > 0 &&
         state.moves_completed >= moves_required(state.period)) {
    ++state.period;
    state.main += period_of(state.period).base;
    events.push_back(PeriodStarted{now, side, state.period + 1, period_of(state.period).base});
  }
}

std::vector<ClockEvent> ClockModel::pause(ClockTime now) {
  std::vector<ClockEvent> events = advance(now);
  if (started_ && !stopped_) paused_ = true;
  return events;
}

std::vector<ClockEvent> ClockModel::resume(ClockTime now) {
  std::vector<ClockEvent> events = advance(now);
  if (paused_) {
    paused_ = false;
    accounted_until_ = now;  // the turn, its used time and its delay go on where they were
  }
  return events;
}

std::vector<ClockEvent> ClockModel::stop(ClockTime now) {
  std::vector<ClockEvent> events = advance(now);
  stopped_ = true;
  running_.reset();
  return events;
}

std::vector<ClockEvent> ClockModel::adjust(Color side, milliseconds delta, ClockTime now) {
  std::vector<ClockEvent> events = advance(now);
  Side& state = sides_[side];
  const bool was_zero = state.main.count() == 0;
  state.main = std::clamp(state.main + delta, milliseconds{0}, kMaxOnClock);
  if (state.main.count() > 0 && state.flag_at) {
    state.flag_at.reset();  // the arbiter gave time back: the flag is no longer down
    if (running_ == side) flag_fell_this_turn_ = false;
  }
  if (state.main.count() == 0 && !was_zero && started_ && !stopped_) {
    reach_zero(side, now, events);
  }
  return events;
}

std::vector<ClockEvent> ClockModel::observe(const ClockReading& reading, ClockTime now) {
  std::vector<ClockEvent> events = advance(now);
  const auto differs = [&](ClockField field, long long clock_value, long long model_value,
                           long long tolerance) {
    auto& last = reported_[static_cast<std::size_t>(field)];
    if (std::llabs(clock_value - model_value) <= tolerance) {
      last.reset();  // resolved: a recurrence is news again
      return;
    }
    const bool news = !last || (tolerance > 0 ? std::llabs((clock_value - model_value) -
                                                           (last->first - last->second)) > tolerance
                                              : *last != std::pair{clock_value, model_value});
    if (!news) return;
    last = std::pair{clock_value, model_value};
    events.push_back(ClockMismatch{now, field, clock_value, model_value});
  };
  const long long tolerance = options_.mismatch_tolerance.count();
  differs(ClockField::kWhiteMs, reading.white.count(), sides_[kWhite].main.count(), tolerance);
  differs(ClockField::kBlackMs, reading.black.count(), sides_[kBlack].main.count(), tolerance);
  if (reading.white_moves) {
    differs(ClockField::kWhiteMoves, *reading.white_moves, sides_[kWhite].moves_completed, 0);
  }
  if (reading.black_moves) {
    differs(ClockField::kBlackMoves, *reading.black_moves, sides_[kBlack].moves_completed, 0);
  }
  if (reading.running_known) {
    const auto code = [](std::optional<Color> c) { return c ? static_cast<long long>(*c) : -1; };
    differs(ClockField::kRunning, code(reading.running), code(running()), 0);
  }
  // 6.10.1: the clock's indications are conclusive; a zero adopted for the running side
  // counts as the model's own zero at once.
  sides_[kWhite].main = std::clamp(reading.white, milliseconds{0}, kMaxOnClock);
  sides_[kBlack].main = std::clamp(reading.black, milliseconds{0}, kMaxOnClock);
  const auto zero = advance(now);
  events.insert(events.end(), zero.begin(), zero.end());
  return events;
}

std::chrono::milliseconds ClockModel::remaining(Color side, ClockTime now) const {
  ClockModel projected = *this;
  (void)projected.advance(now);
  return projected.sides_[side].main;
}

std::chrono::milliseconds ClockModel::delay_left(ClockTime now) const {
  ClockModel projected = *this;
  (void)projected.advance(now);
  return projected.runs() ? projected.delay_left_ : milliseconds{0};
}

std::optional<Color> ClockModel::running() const {
  if (!runs()) return std::nullopt;
  return running_;
}

std::optional<ClockTime> ClockModel::next_deadline() const {
  if (!runs()) return std::nullopt;
  if (delay_left_.count() > 0) return accounted_until_ + delay_left_;
  const milliseconds main = sides_[*running_].main;
  if (main.count() == 0) {  // at zero: nothing more happens once its flag is down
    if (sides_[*running_].flag_at) return std::nullopt;
    return accounted_until_;
  }
  return accounted_until_ + main;
}

}  // namespace eboard::engine
