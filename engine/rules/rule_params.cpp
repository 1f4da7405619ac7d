#include "engine/rules/rule_params.h"

#include <array>
#include <type_traits>

#include "engine/clock/duration_text.h"
#include "engine/rules/param_words.h"

namespace eboard::engine {

namespace {

using std::chrono::milliseconds;
using Problem = std::optional<std::string>;  // what is wrong with a value, if anything

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// A time with an optional unit; bare numbers are in the unit the parameter's name says.
enum class BareUnit { kSeconds, kMilliseconds };

Result<milliseconds> parse_time(std::string_view text, BareUnit bare) {
  if (text.size() > 2 && text.substr(text.size() - 2) == "ms") {
    text.remove_suffix(2);
    bare = BareUnit::kMilliseconds;
  } else if (text.size() > 1 && text.back() == 's') {
    text.remove_suffix(1);
    bare = BareUnit::kSeconds;
  }
  if (bare == BareUnit::kSeconds) return parse_seconds(text);
  const auto millis = parse_count(text, static_cast<int>(kMaxWrittenDuration.count()));
  if (!millis.ok()) return Error{"time in milliseconds " + millis.error()};
  return milliseconds{millis.value()};
}

template <auto Member>
using MemberType = std::remove_cvref_t<decltype(std::declval<RuleSet&>().*Member)>;

template <auto Member>
Problem parse_bool(RuleSet& rules, std::string_view value) {
  if (value == "true") {
    rules.*Member = true;
  } else if (value == "false") {
    rules.*Member = false;
  } else {
    return "expected true or false";
  }
  return std::nullopt;
}
template <auto Member>
std::string format_bool(const RuleSet& rules) {
  return rules.*Member ? "true" : "false";
}

template <auto Member>
Problem parse_enum(RuleSet& rules, std::string_view value) {
  using E = MemberType<Member>;
  std::string expected;
  for (const auto& [word, each] : ParamWords<E>::words) {
    if (word == value) {
      rules.*Member = each;
      return std::nullopt;
    }
    expected += expected.empty() ? "" : ", ";
    expected += word;
  }
  return "expected one of " + expected;
}
template <auto Member>
std::string format_enum(const RuleSet& rules) {
  return std::string(param_word(rules.*Member));
}

template <auto Member, BareUnit Unit>
Problem parse_duration(RuleSet& rules, std::string_view value) {
  auto time = parse_time(value, Unit);
  if (!time.ok()) return time.error();
  rules.*Member = time.value();
  return std::nullopt;
}
template <auto Member, BareUnit Unit>
std::string format_duration(const RuleSet& rules) {
  const milliseconds time = rules.*Member;
  return Unit == BareUnit::kSeconds ? format_seconds(time) : std::to_string(time.count());
}

Problem parse_setup_window(RuleSet& rules, std::string_view value) {
  if (value == "inf") {
    rules.setup_claim_window_moves = std::nullopt;
    return std::nullopt;
  }
  const auto moves = parse_count(value, 999);
  if (!moves.ok()) return "expected a number of moves or inf: " + moves.error();
  rules.setup_claim_window_moves = moves.value();
  return std::nullopt;
}
std::string format_setup_window(const RuleSet& rules) {
  return rules.setup_claim_window_moves ? std::to_string(*rules.setup_claim_window_moves) : "inf";
}

Problem parse_start_fen(RuleSet& rules, std::string_view value) {
  if (value.empty()) return "expected startpos or a FEN";
  for (char c : value) {
    if (static_cast<unsigned char>(c) < 0x20) return "control character in the FEN";
  }
  rules.start_fen = std::string(value);  // the game tracker's FEN reader checks the rest
  return std::nullopt;
}
std::string format_start_fen(const RuleSet& rules) { return rules.start_fen; }

Result<PenaltyStep> parse_step(std::string_view word) {
  using Kind = PenaltyStep::Kind;
  if (word == "warning") return PenaltyStep{Kind::kWarning, milliseconds{0}};
  if (word == "loss") return PenaltyStep{Kind::kLoss, milliseconds{0}};
  if (word == "claim_win") return PenaltyStep{Kind::kClaimWin, milliseconds{0}};
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  const auto time = parse_time(word, BareUnit::kSeconds);
  if (!time.ok()) {
    return Error{"step '" + std::string(word) +
                 "' is none of warning, loss, claim_win or seconds to the opponent (" +
                 time.error() + ")"};
  }
  if (time.value().count() == 0) return Error{"a time step must add more than 0 s"};
  return PenaltyStep{Kind::kTimeToOpponent, time.value()};
}

template <auto Member>
Problem parse_ladder(RuleSet& rules, std::string_view value) {
  if (value == "arbiter") {
    (rules.*Member).clear();
    return std::nullopt;
  }
  if (value.empty()) return "expected comma-separated steps or arbiter";
  std::vector<PenaltyStep> ladder;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string_view word = trim(value.substr(start, comma - start));
    if (word.empty()) return "empty step in the list";
    if (!ladder.empty() && (ladder.back().kind == PenaltyStep::Kind::kLoss ||
                            ladder.back().kind == PenaltyStep::Kind::kClaimWin)) {
      return "nothing can follow loss or claim_win";
    }
    auto step = parse_step(word);
    if (!step.ok()) return step.error();
    ladder.push_back(step.value());
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  rules.*Member = std::move(ladder);
  return std::nullopt;
}
template <auto Member>
std::string format_ladder(const RuleSet& rules) {
  const std::vector<PenaltyStep>& ladder = rules.*Member;
  if (ladder.empty()) return "arbiter";
  std::string text;
  for (const PenaltyStep& step : ladder) {
    text += text.empty() ? "" : ",";
    switch (step.kind) {
      case PenaltyStep::Kind::kTimeToOpponent: text += format_seconds(step.time); break;
      case PenaltyStep::Kind::kWarning: text += "warning"; break;
      case PenaltyStep::Kind::kLoss: text += "loss"; break;
      case PenaltyStep::Kind::kClaimWin: text += "claim_win"; break;
    }
  }
  return text;
}

// docs/rules.md §2 notes: under A.4/B.2 (and full supervision) rapid and blitz behave like
// fide-standard except for the penalty amounts; under A.5/B.3 the unsupervised rules
// apply. Setting `supervision` therefore sets those fields too; `none` and `on_request`
// (the legacy and pskov sets) change nothing else.
Problem parse_supervision(RuleSet& rules, std::string_view value) {
  if (auto problem = parse_enum<&RuleSet::supervision>(rules, value)) return problem;
  switch (rules.supervision) {
    case Supervision::kFull:
    case Supervision::kA4:
    case Supervision::kB2:
      rules.setup_claim_window_moves = std::nullopt;  // 7.2.1
      rules.setup_window_covers_clock = false;
      rules.illegal_move_detection = IllegalMoveDetection::kArbiterAnytime;
      rules.window_closes_on = WindowClosesOn::kNever;
      rules.illegal_position_rule = IllegalPositionRule::kReinstate;
      break;
    case Supervision::kA5:
    case Supervision::kB3:
      rules.setup_claim_window_moves = 10;  // A.5.1
      rules.setup_window_covers_clock = true;
      rules.illegal_move_detection = IllegalMoveDetection::kBeforeReply;  // A.5.2
      rules.window_closes_on = WindowClosesOn::kOpponentMoveMade;
      rules.illegal_position_rule = IllegalPositionRule::kA54;
      break;
    case Supervision::kNone:
    case Supervision::kOnRequest: break;
  }
  return std::nullopt;
}

struct ParamSpec {
  std::string_view name;
  Problem (*parse)(RuleSet&, std::string_view);
  std::string (*format)(const RuleSet&);
};

template <auto Member>
constexpr ParamSpec bool_param(std::string_view name) {
  return {name, parse_bool<Member>, format_bool<Member>};
}
template <auto Member>
constexpr ParamSpec enum_param(std::string_view name) {
  return {name, parse_enum<Member>, format_enum<Member>};
}
template <auto Member, BareUnit Unit>
constexpr ParamSpec time_param(std::string_view name) {
  return {name, parse_duration<Member, Unit>, format_duration<Member, Unit>};
}
template <auto Member>
constexpr ParamSpec ladder_param(std::string_view name) {
  return {name, parse_ladder<Member>, format_ladder<Member>};
}
constexpr BareUnit kMs = BareUnit::kMilliseconds;

// docs/rules.md order: §2 supervision, then D1 ... D14.
const std::array kParams{
    ParamSpec{"supervision", parse_supervision, format_enum<&RuleSet::supervision>},
    ParamSpec{"setup_claim_window_moves", parse_setup_window, format_setup_window},
    bool_param<&RuleSet::setup_window_covers_clock>("setup_window_covers_clock"),
    enum_param<&RuleSet::misplaced_king_castling>("misplaced_king_castling"),
    ParamSpec{"start_fen", parse_start_fen, format_start_fen},
    time_param<&RuleSet::debounce, kMs>("debounce_ms"),
    time_param<&RuleSet::unexplained_timeout, kMs>("unexplained_timeout_ms"),
    time_param<&RuleSet::game_end_stable, kMs>("game_end_stable_ms"),
    time_param<&RuleSet::disarranged_after, kMs>("disarranged_after_ms"),
    bool_param<&RuleSet::infer_touch_from_lifts>("infer_touch_from_lifts"),
    time_param<&RuleSet::clockless_stable, kMs>("clockless_stable_ms"),
    time_param<&RuleSet::clockless_settle, kMs>("clockless_settle_ms"),
    time_param<&RuleSet::clockless_lift_hold, kMs>("clockless_lift_hold_ms"),
    enum_param<&RuleSet::illegal_move_detection>("illegal_move.detection"),
    ladder_param<&RuleSet::illegal_move_ladder>("illegal_move.ladder"),
    bool_param<&RuleSet::illegal_move_draw_if_unwinnable>("illegal_move.draw_if_unwinnable"),
    enum_param<&RuleSet::window_closes_on>("window_closes_on"),
    enum_param<&RuleSet::illegal_counter_scope>("illegal_counter_scope"),
    enum_param<&RuleSet::press_without_move>("press_without_move"),
    bool_param<&RuleSet::auto_fivefold_75>("auto_fivefold_75"),
    enum_param<&RuleSet::dead_position_analysis>("dead_position_analysis"),
    time_param<&RuleSet::dead_position_budget, kMs>("dead_position_budget_ms"),
    time_param<&RuleSet::claim_penalty, kMs>("claim_penalty_ms"),
    bool_param<&RuleSet::resign_draw_if_opponent_unwinnable>("resign_draw_if_opponent_unwinnable"),
    bool_param<&RuleSet::accept_result_gestures>("accept_result_gestures"),
    enum_param<&RuleSet::increment_credit>("increment_credit"),
    enum_param<&RuleSet::period_trigger>("period_trigger"),
    time_param<&RuleSet::clock_mismatch_tolerance, kMs>("clock_mismatch_tolerance_ms"),
    enum_param<&RuleSet::flag_observer>("flag_observer"),
    enum_param<&RuleSet::mating_test>("mating_test"),
    enum_param<&RuleSet::both_flags>("both_flags"),
    bool_param<&RuleSet::freeze_on_last_period_flag>("freeze_on_last_period_flag"),
    bool_param<&RuleSet::guidelines_iii_announced>("guidelines_III_announced"),
    enum_param<&RuleSet::illegal_position_rule>("illegal_position_rule"),
    bool_param<&RuleSet::qpf_enabled>("qpf_enabled"),
    bool_param<&RuleSet::qpf_requires_move>("qpf_requires_move"),
    time_param<&RuleSet::qpf_penalty, kMs>("qpf_penalty_ms"),
    ladder_param<&RuleSet::infraction_ladder>("infraction_ladder"),
    bool_param<&RuleSet::auto_apply_penalties>("auto_apply_penalties"),
    enum_param<&RuleSet::irregularity_visibility>("irregularity_visibility"),
};

const ParamSpec* find_param(std::string_view name) {
  for (const ParamSpec& spec : kParams) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string unknown(std::string_view name) {
  return "unknown parameter '" + std::string(name) + "' (docs/rules.md names, e.g. " +
         "increment_credit, illegal_move.ladder, auto_apply_penalties)";
}

}  // namespace

Result<ParamAssignment> parse_param_assignment(std::string_view text) {
  text = trim(text);
  const std::size_t split = text.find_first_of("= \t");
  if (text.empty() || split == 0) return Error{"expected NAME VALUE or NAME=VALUE"};
  if (split == std::string_view::npos) {
    return Error{"parameter '" + std::string(text) + "' has no value"};
  }
  const std::string_view name = text.substr(0, split);
  std::string_view value = trim(text.substr(split + 1));
  if (text[split] != '=' && !value.empty() && value.front() == '=') value = trim(value.substr(1));
  if (value.empty()) return Error{"parameter '" + std::string(name) + "' has no value"};
  return ParamAssignment{std::string(name), std::string(value)};
}

std::optional<Error> apply_param(RuleSet& rules, std::string_view name, std::string_view value) {
  const ParamSpec* spec = find_param(name);
  if (spec == nullptr) return Error{unknown(name)};
  RuleSet changed = rules;
  if (Problem problem = spec->parse(changed, value)) {
    return Error{"parameter " + std::string(name) + ": bad value '" + std::string(value) +
                 "': " + *problem};
  }
  rules = std::move(changed);
  return std::nullopt;
}

Result<std::string> format_param(const RuleSet& rules, std::string_view name) {
  const ParamSpec* spec = find_param(name);
  if (spec == nullptr) return Error{unknown(name)};
  return spec->format(rules);
}

std::vector<std::string_view> param_names() {
  std::vector<std::string_view> names;
  for (const ParamSpec& spec : kParams) names.push_back(spec.name);
  return names;
}

}  // namespace eboard::engine
