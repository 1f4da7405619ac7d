// `param NAME VALUE` overrides (docs/interfaces.md §3) for every docs/rules.md parameter.
#include "engine/rules/rule_params.h"

#include <gtest/gtest.h>

#include "engine/rules/param_words.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

RuleSet standard() { return rule_set_by_name("fide-standard").value(); }

std::string error_of(std::string_view name, std::string_view value) {
  RuleSet rules = standard();
  const auto error = apply_param(rules, name, value);
  EXPECT_TRUE(error.has_value()) << name << " " << value;
  EXPECT_EQ(rules, standard()) << "a failed param must leave the rule set unchanged";
  return error ? error->message : "";
}

TEST(RuleParams, InterfaceExamples) {
  RuleSet rules = standard();
  ASSERT_FALSE(apply_param(rules, "increment_credit", "press_only"));
  EXPECT_EQ(rules.increment_credit, IncrementCredit::kPressOnly);
  ASSERT_FALSE(apply_param(rules, "auto_apply_penalties", "true"));
  EXPECT_TRUE(rules.auto_apply_penalties);
  ASSERT_FALSE(apply_param(rules, "illegal_move.ladder", "60,loss"));
  EXPECT_EQ(rules.illegal_move_ladder,
            (std::vector<PenaltyStep>{{PenaltyStep::Kind::kTimeToOpponent, milliseconds{60000}},
                                      {PenaltyStep::Kind::kLoss}}));
  ASSERT_FALSE(apply_param(rules, "setup_claim_window_moves", "inf"));
  EXPECT_EQ(rules.setup_claim_window_moves, std::nullopt);
  ASSERT_FALSE(apply_param(rules, "setup_claim_window_moves", "3"));
  EXPECT_EQ(rules.setup_claim_window_moves, 3);
  ASSERT_FALSE(apply_param(rules, "period_trigger", "on_zero"));
  EXPECT_EQ(rules.period_trigger, PeriodTrigger::kOnZero);
  ASSERT_FALSE(apply_param(rules, "illegal_position_rule", "A.5.4"));
  EXPECT_EQ(rules.illegal_position_rule, IllegalPositionRule::kA54);
}

TEST(RuleParams, TimesFollowTheNamesUnit) {
  RuleSet rules = standard();
  ASSERT_FALSE(apply_param(rules, "claim_penalty_ms", "60000"));
  EXPECT_EQ(rules.claim_penalty, milliseconds{60000});
  ASSERT_FALSE(apply_param(rules, "claim_penalty_ms", "90s"));
  EXPECT_EQ(rules.claim_penalty, milliseconds{90000});
  ASSERT_FALSE(apply_param(rules, "debounce_ms", "0.25s"));
  EXPECT_EQ(rules.debounce, milliseconds{250});
  ASSERT_FALSE(apply_param(rules, "illegal_move.ladder", "+120, 500ms ,loss"));
  EXPECT_EQ(rules.illegal_move_ladder[0].time, milliseconds{120000});
  EXPECT_EQ(rules.illegal_move_ladder[1].time, milliseconds{500});
  ASSERT_FALSE(apply_param(rules, "infraction_ladder", "warning,60,loss"));
  EXPECT_EQ(rules.infraction_ladder, rule_set_by_name("pskov-blitz").value().infraction_ladder);
  ASSERT_FALSE(apply_param(rules, "infraction_ladder", "arbiter"));
  EXPECT_TRUE(rules.infraction_ladder.empty());
}

// Every parameter of every set formats to a value that applies back to the same set,
// and every enum word is accepted.
TEST(RuleParams, EveryParameterRoundTrips) {
  EXPECT_EQ(param_names().size(), 40u);
  for (std::string_view set : rule_set_names()) {
    const RuleSet original = rule_set_by_name(set).value();
    for (std::string_view name : param_names()) {
      const auto text = format_param(original, name);
      ASSERT_TRUE(text.ok()) << name;
      EXPECT_FALSE(text.value().empty()) << set << " " << name;
      RuleSet copy = original;
      if (name == "supervision") continue;  // sets dependent fields (tested below)
      const auto error = apply_param(copy, name, text.value());
      EXPECT_FALSE(error) << set << " " << name << " " << text.value() << ": "
                          << (error ? error->message : "");
      EXPECT_EQ(copy, original) << set << " " << name << " = " << text.value();
    }
  }
}

template <class E>
void expect_all_words(std::string_view name) {
  for (const auto& [word, value] : ParamWords<E>::words) {
    RuleSet rules = standard();
    ASSERT_FALSE(apply_param(rules, name, word)) << name << " " << word;
    EXPECT_EQ(format_param(rules, name).value(), word);
  }
}

TEST(RuleParams, EveryEnumWord) {
  expect_all_words<Supervision>("supervision");
  expect_all_words<MisplacedKingCastling>("misplaced_king_castling");
  expect_all_words<IllegalMoveDetection>("illegal_move.detection");
  expect_all_words<WindowClosesOn>("window_closes_on");
  expect_all_words<CounterScope>("illegal_counter_scope");
  expect_all_words<PressWithoutMove>("press_without_move");
  expect_all_words<FlagObserver>("flag_observer");
  expect_all_words<MatingTest>("mating_test");
  expect_all_words<BothFlags>("both_flags");
  expect_all_words<DeadPositionAnalysis>("dead_position_analysis");
  expect_all_words<IllegalPositionRule>("illegal_position_rule");
  expect_all_words<IncrementCredit>("increment_credit");
  expect_all_words<PeriodTrigger>("period_trigger");
  expect_all_words<IrregularityVisibility>("irregularity_visibility");
}

// docs/rules.md §2 notes: rapid/blitz under A.4/B.2 behave like fide-standard except for the
// one-minute penalties.
TEST(RuleParams, SupervisionSetsItsDependentRules) {
  RuleSet rapid = rule_set_by_name("fide-rapid").value();
  ASSERT_FALSE(apply_param(rapid, "supervision", "A4"));
  RuleSet expected = standard();
  expected.name = rapid.name;
  expected.base = rapid.base;
  expected.supervision = Supervision::kA4;
  expected.illegal_move_ladder = rapid.illegal_move_ladder;
  expected.claim_penalty = rapid.claim_penalty;
  expected.default_clock = rapid.default_clock;
  EXPECT_EQ(rapid, expected);
  ASSERT_FALSE(apply_param(rapid, "supervision", "A5"));
  EXPECT_EQ(rapid, rule_set_by_name("fide-rapid").value());
  RuleSet legacy = rule_set_by_name("legacy-blitz").value();
  ASSERT_FALSE(apply_param(legacy, "supervision", "none"));
  EXPECT_EQ(legacy, rule_set_by_name("legacy-blitz").value());
}

TEST(RuleParams, ErrorsNameParameterAndValue) {
  EXPECT_EQ(error_of("increment", "press_only"),
            "unknown parameter 'increment' (docs/rules.md names, e.g. increment_credit, "
            "illegal_move.ladder, auto_apply_penalties)");
  EXPECT_EQ(error_of("increment_credit", "sometimes"),
            "parameter increment_credit: bad value 'sometimes': expected one of "
            "start_and_press, press_only");
  EXPECT_EQ(error_of("auto_apply_penalties", "yes"),
            "parameter auto_apply_penalties: bad value 'yes': expected true or false");
  EXPECT_EQ(error_of("claim_penalty_ms", "1.5"),
            "parameter claim_penalty_ms: bad value '1.5': time in milliseconds '1.5' is not a "
            "whole number");
  EXPECT_EQ(error_of("debounce_ms", ""),
            "parameter debounce_ms: bad value '': time in milliseconds empty number");
  EXPECT_EQ(error_of("setup_claim_window_moves", "-1"),
            "parameter setup_claim_window_moves: bad value '-1': expected a number of moves or "
            "inf: '-1' is not a whole number");
  EXPECT_EQ(error_of("illegal_move.ladder", "60,,loss"),
            "parameter illegal_move.ladder: bad value '60,,loss': empty step in the list");
  EXPECT_EQ(error_of("illegal_move.ladder", "loss,60"),
            "parameter illegal_move.ladder: bad value 'loss,60': nothing can follow loss or "
            "claim_win");
  EXPECT_EQ(error_of("illegal_move.ladder", "0,loss"),
            "parameter illegal_move.ladder: bad value '0,loss': a time step must add more than "
            "0 s");
  EXPECT_EQ(error_of("infraction_ladder", "warn"),
            "parameter infraction_ladder: bad value 'warn': step 'warn' is none of warning, loss, "
            "claim_win or seconds to the opponent (time 'warn' is not a number of seconds)");
  EXPECT_EQ(error_of("infraction_ladder", ""),
            "parameter infraction_ladder: bad value '': expected comma-separated steps or "
            "arbiter");
  EXPECT_EQ(error_of("start_fen", ""),
            "parameter start_fen: bad value '': expected startpos or a FEN");
  EXPECT_EQ(error_of("mating_test", "FIDE_HELPMATE"),
            "parameter mating_test: bad value 'FIDE_HELPMATE': expected one of fide_helpmate, "
            "pskov_forced_mate_in_one, uscf_14e, static_material");
  const auto format = format_param(standard(), "nope");
  ASSERT_FALSE(format.ok());
  EXPECT_EQ(format.error().substr(0, 26), "unknown parameter 'nope' (");
}

TEST(RuleParams, AssignmentForms) {
  auto spaced = parse_param_assignment("  increment_credit   press_only  ");
  ASSERT_TRUE(spaced.ok());
  EXPECT_EQ(spaced.value().name, "increment_credit");
  EXPECT_EQ(spaced.value().value, "press_only");
  auto equals = parse_param_assignment("illegal_move.ladder=60,loss");
  ASSERT_TRUE(equals.ok());
  EXPECT_EQ(equals.value().name, "illegal_move.ladder");
  EXPECT_EQ(equals.value().value, "60,loss");
  auto fen = parse_param_assignment("start_fen 8/8/8/8/8/8/8/K6k w - - 0 1");
  ASSERT_TRUE(fen.ok());
  EXPECT_EQ(fen.value().value, "8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(parse_param_assignment("").error(), "expected NAME VALUE or NAME=VALUE");
  EXPECT_EQ(parse_param_assignment("=3").error(), "expected NAME VALUE or NAME=VALUE");
  EXPECT_EQ(parse_param_assignment("qpf_enabled").error(), "parameter 'qpf_enabled' has no value");
  EXPECT_EQ(parse_param_assignment("qpf_enabled= ").error(),
            "parameter 'qpf_enabled' has no value");
}

}  // namespace
}  // namespace eboard::engine
