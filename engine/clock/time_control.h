// Time controls: the grammar of docs/interfaces.md §3 and the named configurations of
// docs/rules.md §3, parsed into periods the clock model runs.
//
// Grammar: periods joined by ':', each `[MOVES/]SECONDS[+INC|dDELAY|bDELAY]`:
//   `+INC`   Fischer increment (docs/rules.md D9 `fischer`),
//   `dDELAY` simple ("US") delay, FIDE 6.3.2 time-delay mode (`simple_delay`),
//   `bDELAY` Bronstein add-back (`bronstein`).
// MOVES is the number of moves of that period (not cumulative: `40/5400:20/3600:1800` is
// 40 moves, then 20 more, then the rest). The last period covers the rest of the game and
// has no MOVES. A non-final period without MOVES can only end when a clock reaches zero,
// so such a control runs with the `on_zero` trigger whatever the rule set says.
//
// Not handled: byo-yomi, hourglass and upcount modes of a DGT 3000 (no rule set uses them).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace eboard::engine {

// Per-move adjustment, docs/rules.md D9.
enum class Adjustment { kNone, kFischer, kBronstein, kSimpleDelay };

// How a clock passes to the next period, docs/rules.md D9 `period_trigger`.
enum class PeriodTrigger { kByMoveCount, kOnZero };

// When a Fischer increment is put on the clock, docs/rules.md D9 `increment_credit`.
enum class IncrementCredit { kStartAndPress, kPressOnly };

struct Period {
  int moves = 0;  // moves of this period; 0 = the rest of the game (final period)
  std::chrono::milliseconds base{0};
  Adjustment adjustment = Adjustment::kNone;
  std::chrono::milliseconds adjustment_amount{0};  // increment or delay; 0 with kNone

  bool operator==(const Period&) const = default;
};

struct TimeControl {
  std::vector<Period> periods;  // at least one; only the last has moves == 0
  // The control's own trigger: named configurations carry one (docs/rules.md §3) and a
  // non-final period without MOVES forces kOnZero. Empty: the rule set's
  // `period_trigger` decides. "A named clock configuration's own trigger wins" (§2).
  std::optional<PeriodTrigger> trigger;

  bool operator==(const TimeControl&) const = default;
};

inline constexpr int kMaxPeriods = 8;
inline constexpr int kMaxPeriodMoves = 999;  // a DGT 3000 move count has three digits

// Parses a grammar form or a docs/rules.md §3 name. The error quotes the input and says which
// period and which part is wrong.
Result<TimeControl> parse_time_control(std::string_view text);

// The grammar form (what `gameStarted.timeControl` reports): `40/5400+30:1800+30`.
// parse_time_control(format_time_control(tc)) gives back tc's periods.
std::string format_time_control(const TimeControl& control);

// The names of docs/rules.md §3, in the order of that table.
std::vector<std::string_view> named_time_controls();

// The trigger the clock runs with: the control's own, else the rule set's.
PeriodTrigger effective_trigger(const TimeControl& control, PeriodTrigger rule_set_trigger);

std::string_view adjustment_name(Adjustment adjustment);         // docs/rules.md D9 words
std::string_view period_trigger_name(PeriodTrigger trigger);     // by_move_count, on_zero
std::string_view increment_credit_name(IncrementCredit credit);  // start_and_press, ...

}  // namespace eboard::engine
