// The daemon's own chess clock (docs/rules.md D9, D10): runs a TimeControl from presses with
// injected time, reports what happens and when the next thing will happen.
//
// Time is always an argument: every call takes `now` (ClockTime, non-decreasing across
// calls). Nothing happens between calls; a call first catches up to `now` (flag falls,
// delay ends, `on_zero` period changes, each stamped with the exact moment it happened),
// then applies its own input. The daemon arms one timer at next_deadline() and calls
// advance() when it fires, so no event is ever late by more than the timer's latency.
//
// Accounting (D9): `fischer` adds the increment at the press unless the flag fell during
// that turn, with `start_and_press` one increment is already on the clock at the start;
// `bronstein` adds back min(time used, delay) unless the flag fell; `simple_delay` keeps
// the main time frozen for the first `delay` of each turn. Every move earns the increment
// of the period it belongs to: `press_only` credits it after the move, `start_and_press`
// before (so at a period change it is the new period's increment that is credited).
// Periods change per side at the press completing the period's moves (`by_move_count`,
// using the daemon's board-based move count, never the clock's press count), or for both
// sides at once when either clock reaches zero (`on_zero`). A press without a move (D6)
// is still a press: like the hardware, the model credits the increment and passes the
// turn; the arbiter sets the clocks afterwards if the rule set says so (7.1, adjust()).
//
// A hardware clock is authoritative (6.10.1): observe() reports differences beyond the
// tolerance as ClockMismatch and adopts the clock's times; move counts are compared but
// the board's count is kept (docs/rules.md scenario 53).
//
// Not handled here: deciding what a flag means for the result (the arbiter, D10), and the
// pre-press `used` time when a DGT 3000 in "Delay" mode shows the delay up front.
#pragma once

#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "engine/clock/clock_events.h"
#include "engine/clock/time_control.h"

namespace eboard::engine {

struct ClockOptions {
  PeriodTrigger trigger = PeriodTrigger::kByMoveCount;  // the rule set's; a TC's own wins
  IncrementCredit increment_credit = IncrementCredit::kStartAndPress;
  // DGT "FREEZE": both clocks stop when a flag falls in the final period (D10 parameter).
  bool freeze_on_last_period_flag = false;
  // Largest difference between a hardware clock and the model not reported (DGT clock
  // data can lag the display by about a second, docs/protocols.md §1.8).
  std::chrono::milliseconds mismatch_tolerance{1500};
};

// What a hardware clock reports (docs/rules.md §0.1 `clock_state`); a clock may report only
// some fields.
struct ClockReading {
  std::chrono::milliseconds white{0};
  std::chrono::milliseconds black{0};
  std::optional<Color> running;    // empty: the clock does not say, or nobody runs
  bool running_known = false;      // true when `running` is reported (empty = stopped)
  std::optional<int> white_moves;  // the clock's move counters, where it keeps them
  std::optional<int> black_moves;
};

class ClockModel {
 public:
  ClockModel(TimeControl control, ClockOptions options);

  // 6.6: `first` (normally White) starts running at `now`. Later calls only catch up.
  std::vector<ClockEvent> start(ClockTime now, Color first = kWhite);

  // A lever press by `side`. `moves_completed` is that side's count of completed moves
  // after this press, from the board (D3, D9): it drives `by_move_count` periods and the
  // 6.4 check, and may jump by more than one (6.2.1.2) or stay (press without a move).
  std::vector<ClockEvent> press(Color side, ClockTime now, int moves_completed);

  std::vector<ClockEvent> pause(ClockTime now);  // 6.11: no time runs, presses ignored
  std::vector<ClockEvent> resume(ClockTime now);
  // Game over: both clocks stop for good.
  std::vector<ClockEvent> stop(ClockTime now);

  // Arbiter correction (7.1, 6.10.2, penalties): `delta` may be negative; a clock never
  // goes below zero. Time given back to a flagged side takes its flag down.
  std::vector<ClockEvent> adjust(Color side, std::chrono::milliseconds delta, ClockTime now);

  // Catch up to `now` (call it when the timer armed at next_deadline() fires).
  std::vector<ClockEvent> advance(ClockTime now);

  // A hardware clock's report at `now`: mismatches beyond the tolerance, then its times
  // are adopted. A mismatch is reported when it starts, and again only when it changes
  // materially (a time difference moving by more than the tolerance, a count or running
  // side taking another value) or recurs after a report that agreed: a clock that keeps
  // disagreeing in the same way (a counter one off, a clock running at another rate)
  // would otherwise repeat the same report with every reading.
  std::vector<ClockEvent> observe(const ClockReading& reading, ClockTime now);

  // Queries. `now` must not be earlier than the last call's.
  std::chrono::milliseconds remaining(Color side, ClockTime now) const;  // main time
  std::chrono::milliseconds delay_left(ClockTime now) const;             // simple delay of the turn
  std::optional<Color> running() const;  // empty before start, paused, stopped, frozen
  bool paused() const { return paused_; }
  // The earliest moment something happens if nobody acts (a flag fall, an on_zero period
  // change, the end of a simple delay); empty when nothing can happen.
  std::optional<ClockTime> next_deadline() const;
  // When `side`'s flag fell decisively (empty if it has not, or was taken down).
  std::optional<ClockTime> flag_fallen(Color side) const { return sides_[side].flag_at; }
  int period(Color side) const { return sides_[side].period + 1; }  // from 1
  int moves_completed(Color side) const { return sides_[side].moves_completed; }
  const TimeControl& time_control() const { return control_; }
  PeriodTrigger trigger() const { return trigger_; }

 private:
  struct Side {
    std::chrono::milliseconds main{0};
    int period = 0;  // index into control_.periods
    int moves_completed = 0;
    std::optional<ClockTime> flag_at;
  };

  const Period& period_of(int index) const { return control_.periods[index]; }
  bool is_final(int index) const { return index + 1 == int(control_.periods.size()); }
  int moves_required(int index) const;
  bool runs() const { return started_ && !paused_ && !stopped_ && running_.has_value(); }
  void begin_turn(Color side, ClockTime now, std::vector<ClockEvent>& events);
  void reach_zero(Color side, ClockTime at, std::vector<ClockEvent>& events);
  void credit_press(Color side, ClockTime now, std::vector<ClockEvent>& events);
  void change_periods_by_moves(Color side, ClockTime now, std::vector<ClockEvent>& events);
  void credit_increment(Color side, int period_index, ClockTime now,
                        std::vector<ClockEvent>& events);

  TimeControl control_;
  ClockOptions options_;
  PeriodTrigger trigger_;
  std::array<Side, 2> sides_{};
  std::optional<Color> running_;
  bool started_ = false;
  bool paused_ = false;
  bool stopped_ = false;
  ClockTime accounted_until_{0};             // the running side's time is settled up to here
  std::chrono::milliseconds turn_used_{0};   // running time of the current turn
  std::chrono::milliseconds delay_left_{0};  // simple delay still free in this turn
  bool flag_fell_this_turn_ = false;
  // The last reported mismatch per ClockField, (clock, model), while it lasts.
  std::array<std::optional<std::pair<long long, long long>>, 5> reported_{};
};

}  // namespace eboard::engine
