#include "engine/clock/time_control.h"

#include <array>

#include "engine/clock/duration_text.h"

namespace eboard::engine {

namespace {

struct NamedControl {
  std::string_view name;
  std::string_view grammar;
  std::optional<PeriodTrigger> trigger;
};

// docs/rules.md §3. `time-only-2h/40+1h/20+30m` runs `on_zero` on a DGT or `by_move_count`,
// so it leaves the trigger to the rule set's `period_trigger`.
constexpr std::array<NamedControl, 9> kNamedControls{{
    {"sd-5", "300", std::nullopt},
    {"sd-15", "900", std::nullopt},
    {"fischer-3+2", "180+2", std::nullopt},
    {"rapid-15+10", "900+10", std::nullopt},
    {"fide-classical-40/90+30+30s", "40/5400+30:1800+30", PeriodTrigger::kByMoveCount},
    {"time-only-2h/40+1h/20+30m", "40/7200:20/3600:1800", std::nullopt},
    {"bronstein-G5d2", "300b2", std::nullopt},
    {"us-delay-G30d5", "1800d5", std::nullopt},
    // S4 rule 2 read as in docs/rules.md §5a.1: 20 s once, to both clocks, at the first zero.
    {"kk-5+20s+2d", "300d2:20d2", PeriodTrigger::kOnZero},
}};

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

Result<Period> parse_period(std::string_view text) {
  Period period;
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos) {
    const auto moves = parse_count(text.substr(0, slash), kMaxPeriodMoves);
    if (!moves.ok()) return Error{"moves " + moves.error()};
    if (moves.value() == 0) return Error{"moves must be at least 1"};
    period.moves = moves.value();
    text.remove_prefix(slash + 1);
  }
  const std::size_t mark = text.find_first_of("+db");
  const auto base = parse_seconds(text.substr(0, mark));
  if (!base.ok()) return Error{"base " + base.error()};
  if (base.value().count() == 0) return Error{"base time must be more than 0"};
  period.base = base.value();
  if (mark == std::string_view::npos) return period;

  const char kind = text[mark];
  const auto amount = parse_seconds(text.substr(mark + 1));
  const std::string_view what =
      kind == '+' ? "increment " : (kind == 'd' ? "delay " : "Bronstein delay ");
  if (!amount.ok()) return Error{std::string(what) + amount.error()};
  if (amount.value().count() == 0) return period;  // `+0` and `d0` mean no adjustment
  period.adjustment = kind == '+'   ? Adjustment::kFischer
                      : kind == 'd' ? Adjustment::kSimpleDelay
                                    : Adjustment::kBronstein;
  period.adjustment_amount = amount.value();
  return period;
}

Result<TimeControl> parse_grammar(std::string_view text) {
  TimeControl control;
  std::size_t start = 0;
  for (int index = 1;; ++index) {
    const std::size_t colon = text.find(':', start);
    const std::string_view piece = text.substr(start, colon - start);
    if (index > kMaxPeriods) {
      return Error{"time control " + quoted(text) + ": more than " + std::to_string(kMaxPeriods) +
                   " periods"};
    }
    if (piece.empty()) {
      return Error{"time control " + quoted(text) + ": period " + std::to_string(index) +
                   " is empty"};
    }
    auto period = parse_period(piece);
    if (!period.ok()) {
      return Error{"time control " + quoted(text) + ": period " + std::to_string(index) + " (" +
                   quoted(piece) + "): " + period.error()};
    }
    control.periods.push_back(period.value());
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (control.periods.back().moves != 0) {
    return Error{"time control " + quoted(text) +
                 ": the last period covers the rest of the game and takes no MOVES/"};
  }
  for (std::size_t i = 0; i + 1 < control.periods.size(); ++i) {
    if (control.periods[i].moves == 0) control.trigger = PeriodTrigger::kOnZero;
  }
  return control;
}

}  // namespace

Result<TimeControl> parse_time_control(std::string_view text) {
  if (text.empty()) {
    return Error{"empty time control (expected e.g. 180+2, 40/5400+30:1800+30 or fischer-3+2)"};
  }
  for (const NamedControl& named : kNamedControls) {
    if (text != named.name) continue;
    auto control = parse_grammar(named.grammar);
    if (!control.ok()) return control;  // only if the table above is wrong
    if (named.trigger) control.value().trigger = named.trigger;
    return control;
  }
  const char first = text.front();
  if (first < '0' || first > '9') {
    std::string names;
    for (const NamedControl& named : kNamedControls) {
      names += names.empty() ? "" : ", ";
      names += named.name;
    }
    return Error{"unknown time control " + quoted(text) +
                 " (expected [MOVES/]SECONDS[+INC|dDELAY|bDELAY] periods joined by ':', or one "
                 "of " +
                 names + ")"};
  }
  return parse_grammar(text);
}

std::string format_time_control(const TimeControl& control) {
  std::string text;
  for (const Period& period : control.periods) {
    if (!text.empty()) text += ':';
    if (period.moves != 0) text += std::to_string(period.moves) + "/";
    text += format_seconds(period.base);
    switch (period.adjustment) {
      case Adjustment::kNone: break;
      case Adjustment::kFischer: text += "+" + format_seconds(period.adjustment_amount); break;
      case Adjustment::kSimpleDelay: text += "d" + format_seconds(period.adjustment_amount); break;
      case Adjustment::kBronstein: text += "b" + format_seconds(period.adjustment_amount); break;
    }
  }
  return text;
}

std::vector<std::string_view> named_time_controls() {
  std::vector<std::string_view> names;
  for (const NamedControl& named : kNamedControls) names.push_back(named.name);
  return names;
}

PeriodTrigger effective_trigger(const TimeControl& control, PeriodTrigger rule_set_trigger) {
  return control.trigger.value_or(rule_set_trigger);
}

std::string_view adjustment_name(Adjustment adjustment) {
  switch (adjustment) {
    case Adjustment::kNone: return "none";
    case Adjustment::kFischer: return "fischer";
    case Adjustment::kBronstein: return "bronstein";
    case Adjustment::kSimpleDelay: return "simple_delay";
  }
  return "none";
}

std::string_view period_trigger_name(PeriodTrigger trigger) {
  return trigger == PeriodTrigger::kOnZero ? "on_zero" : "by_move_count";
}

std::string_view increment_credit_name(IncrementCredit credit) {
  return credit == IncrementCredit::kPressOnly ? "press_only" : "start_and_press";
}

}  // namespace eboard::engine
