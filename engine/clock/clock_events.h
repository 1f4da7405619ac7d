// What the clock model reports (docs/rules.md §0.2 and D9/D10). Times are `ClockTime`: the
// board's time source in milliseconds since its epoch (the daemon uses the game's start,
// as `atMs` on the wire). Periods are numbered from 1 as on a DGT 3000 and in docs/rules.md.
#pragma once

#include <chrono>
#include <variant>

#include "engine/board/types.h"
#include "engine/clock/time_control.h"

namespace eboard::engine {

using ClockTime = std::chrono::milliseconds;

// A turn began with a delay (simple or Bronstein) of `delay`: docs/rules.md `delay_window`.
struct DelayWindow {
  ClockTime at;
  Color side;
  Adjustment adjustment;
  std::chrono::milliseconds delay;
};

// A simple delay was used up and the main time starts running (a display must update).
struct DelayEnded {
  ClockTime at;
  Color side;
};

// Time put on `side`'s clock by the per-move adjustment: a Fischer increment or the
// Bronstein add-back (docs/rules.md `increment_credited`).
struct IncrementCredited {
  ClockTime at;
  Color side;
  Adjustment adjustment;
  std::chrono::milliseconds amount;
};

// `side` entered `period` (from 2) and got `added` on its clock (`period_started`).
struct PeriodStarted {
  ClockTime at;
  Color side;
  int period;
  std::chrono::milliseconds added;
};

// A clock reached zero (docs/rules.md `flag_fall{side, period, moves_completed, first}`).
// `decisive` is false only for an `on_zero` period change whose move requirement was met
// (the DGT's non-blinking flag, docs/rules.md scenario 49): such a flag is logged, nothing more.
struct FlagFall {
  ClockTime at;
  Color side;
  int period;
  int moves_completed;
  int moves_required;  // cumulative moves due by the end of that period; 0 = all moves
  bool final_period;
  bool decisive;
  bool first;  // the other side's flag had not fallen (decisively) before
};

// The flag fell in a non-final period before the period's moves were completed (6.4).
struct TimeControlMissed {
  ClockTime at;
  Color side;
  int period;
  int moves_completed;
  int moves_required;
};

enum class ClockField { kWhiteMs, kBlackMs, kWhiteMoves, kBlackMoves, kRunning };

// The hardware clock disagrees with the model (docs/rules.md `clock_mismatch`, arbiter only).
// Times in milliseconds, move counts as counts, kRunning as 0 white / 1 black / -1 none.
struct ClockMismatch {
  ClockTime at;
  ClockField field;
  long long clock_value;
  long long model_value;
};

enum class PressIgnoredReason { kNotStarted, kPaused, kStopped, kNotRunning };

// A lever press with no effect on the clock (6.11 paused; D3 the other side's clock runs).
struct PressIgnored {
  ClockTime at;
  Color side;
  PressIgnoredReason reason;
};

using ClockEvent = std::variant<DelayWindow, DelayEnded, IncrementCredited, PeriodStarted, FlagFall,
                                TimeControlMissed, ClockMismatch, PressIgnored>;

}  // namespace eboard::engine
