// The named rule sets carry the values of docs/rules.md §2, column by column.
#include "engine/rules/rule_set.h"

#include <gtest/gtest.h>

#include "engine/clock/time_control.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;
using Kind = PenaltyStep::Kind;

RuleSet named(std::string_view name) {
  auto rules = rule_set_by_name(name);
  EXPECT_TRUE(rules.ok()) << name;
  return rules.ok() ? rules.value() : RuleSet{};
}

TEST(RuleSet, EveryNamedSetExistsWithItsDefaultClock) {
  const std::pair<std::string_view, std::string_view> clocks[] = {
      {"fide-standard", "fide-classical-40/90+30+30s"},
      {"fide-rapid", "rapid-15+10"},
      {"fide-blitz", "fischer-3+2"},
      {"legacy-blitz", "sd-5"},
      {"semilampo-15", "sd-15"},
      {"pskov-blitz", "sd-5"},
  };
  ASSERT_EQ(rule_set_names().size(), std::size(clocks));
  for (const auto& [name, clock] : clocks) {
    const RuleSet rules = named(name);
    EXPECT_EQ(rules.name, name);
    EXPECT_EQ(rules.default_clock, clock);
    EXPECT_TRUE(parse_time_control(rules.default_clock).ok()) << name;
  }
}

TEST(RuleSet, UnknownNameListsTheKnownOnes) {
  const auto rules = rule_set_by_name("fide-bullet");
  ASSERT_FALSE(rules.ok());
  EXPECT_EQ(rules.error(),
            "unknown rule set 'fide-bullet' (known: fide-standard, fide-rapid, fide-blitz, "
            "legacy-blitz, semilampo-15, pskov-blitz)");
  EXPECT_FALSE(rule_set_by_name("").ok());
  EXPECT_FALSE(rule_set_by_name("FIDE-STANDARD").ok());
}

TEST(RuleSet, FideStandard) {
  const RuleSet r = named("fide-standard");
  EXPECT_EQ(r.supervision, Supervision::kFull);
  EXPECT_EQ(r.setup_claim_window_moves, std::nullopt);
  EXPECT_FALSE(r.setup_window_covers_clock);
  EXPECT_EQ(r.illegal_move_detection, IllegalMoveDetection::kArbiterAnytime);
  EXPECT_EQ(
      r.illegal_move_ladder,
      (std::vector<PenaltyStep>{{Kind::kTimeToOpponent, milliseconds{120000}}, {Kind::kLoss}}));
  EXPECT_EQ(r.window_closes_on, WindowClosesOn::kNever);
  EXPECT_EQ(r.press_without_move, PressWithoutMove::kIllegal);
  EXPECT_EQ(r.flag_observer, FlagObserver::kArbiter);
  EXPECT_EQ(r.mating_test, MatingTest::kFideHelpmate);
  EXPECT_EQ(r.both_flags, BothFlags::kOrderFromClock);
  EXPECT_EQ(r.claim_penalty, milliseconds{120000});
  EXPECT_EQ(r.illegal_position_rule, IllegalPositionRule::kReinstate);
  EXPECT_TRUE(r.qpf_enabled);
  EXPECT_TRUE(r.infraction_ladder.empty());
  EXPECT_EQ(r.irregularity_visibility, IrregularityVisibility::kActedOn);
}

TEST(RuleSet, FideRapidAndBlitzUnsupervised) {
  for (std::string_view name : {"fide-rapid", "fide-blitz"}) {
    const RuleSet r = named(name);
    EXPECT_EQ(r.setup_claim_window_moves, 10) << name;
    EXPECT_TRUE(r.setup_window_covers_clock);
    EXPECT_EQ(r.misplaced_king_castling, MisplacedKingCastling::kForbidden);
    EXPECT_EQ(r.illegal_move_detection, IllegalMoveDetection::kBeforeReply);
    EXPECT_EQ(
        r.illegal_move_ladder,
        (std::vector<PenaltyStep>{{Kind::kTimeToOpponent, milliseconds{60000}}, {Kind::kLoss}}));
    EXPECT_EQ(r.window_closes_on, WindowClosesOn::kOpponentMoveMade);
    EXPECT_EQ(r.press_without_move, PressWithoutMove::kIllegal);
    EXPECT_EQ(r.flag_observer, FlagObserver::kArbiter);
    EXPECT_EQ(r.claim_penalty, milliseconds{60000});
    EXPECT_EQ(r.illegal_position_rule, IllegalPositionRule::kA54);
  }
  EXPECT_EQ(named("fide-rapid").supervision, Supervision::kA5);
  EXPECT_EQ(named("fide-blitz").supervision, Supervision::kB3);
  EXPECT_TRUE(named("fide-rapid").qpf_enabled);
  EXPECT_FALSE(named("fide-blitz").qpf_enabled);  // III: never in blitz
}

TEST(RuleSet, LegacySets) {
  for (std::string_view name : {"legacy-blitz", "semilampo-15", "pskov-blitz"}) {
    const RuleSet r = named(name);
    EXPECT_EQ(r.setup_claim_window_moves, 3) << name;
    EXPECT_TRUE(r.setup_window_covers_clock);
    EXPECT_EQ(r.illegal_move_detection, IllegalMoveDetection::kClaimOnlyBeforeReply);
    EXPECT_EQ(r.illegal_move_ladder, (std::vector<PenaltyStep>{{Kind::kClaimWin}}));
    EXPECT_EQ(r.press_without_move, PressWithoutMove::kAllowedForRestart);
    EXPECT_EQ(r.flag_observer, FlagObserver::kClaimOnly);
    EXPECT_EQ(r.both_flags, BothFlags::kDrawIfBothDownAtClaim);
    EXPECT_EQ(r.claim_penalty, milliseconds{0});
    EXPECT_EQ(r.illegal_position_rule, IllegalPositionRule::kStands);
    EXPECT_FALSE(r.qpf_enabled);
    EXPECT_EQ(r.irregularity_visibility, IrregularityVisibility::kArbiterOnly);
    EXPECT_TRUE(r.auto_fivefold_75);  // §5a.5
    EXPECT_TRUE(r.resign_draw_if_opponent_unwinnable);
  }
  const RuleSet legacy = named("legacy-blitz");
  const RuleSet semilampo = named("semilampo-15");
  EXPECT_EQ(legacy.window_closes_on, WindowClosesOn::kOpponentMoveMade);
  EXPECT_EQ(legacy.mating_test, MatingTest::kFideHelpmate);
  EXPECT_EQ(legacy.supervision, Supervision::kNone);
  // §2 note: semilampo-15 is legacy-blitz with the clock sd-15.
  RuleSet renamed = semilampo;
  renamed.name = legacy.name;
  renamed.base = legacy.base;
  renamed.default_clock = legacy.default_clock;
  EXPECT_EQ(renamed, legacy);

  const RuleSet pskov = named("pskov-blitz");
  EXPECT_EQ(pskov.supervision, Supervision::kOnRequest);
  EXPECT_EQ(pskov.window_closes_on, WindowClosesOn::kOpponentTouch);
  EXPECT_EQ(pskov.mating_test, MatingTest::kPskovForcedMateInOne);
  EXPECT_EQ(pskov.infraction_ladder,
            (std::vector<PenaltyStep>{
                {Kind::kWarning}, {Kind::kTimeToOpponent, milliseconds{60000}}, {Kind::kLoss}}));
}

TEST(RuleSet, RowsCommonToAllSets) {
  for (std::string_view name : rule_set_names()) {
    const RuleSet r = named(name);
    EXPECT_TRUE(r.resign_draw_if_opponent_unwinnable) << name;
    EXPECT_TRUE(r.auto_fivefold_75);
    EXPECT_FALSE(r.auto_apply_penalties);
    EXPECT_EQ(r.increment_credit, IncrementCredit::kStartAndPress);
    EXPECT_EQ(r.period_trigger, PeriodTrigger::kByMoveCount);
    EXPECT_EQ(r.dead_position_analysis, DeadPositionAnalysis::kQuick);
    EXPECT_FALSE(r.accept_result_gestures);
    EXPECT_TRUE(r.illegal_move_draw_if_unwinnable);
    EXPECT_EQ(r.illegal_counter_scope, CounterScope::kGame);
    EXPECT_EQ(r.debounce, milliseconds{300});
    EXPECT_EQ(r.unexplained_timeout, milliseconds{3000});
    EXPECT_EQ(r.game_end_stable, milliseconds{1000});
    EXPECT_TRUE(r.infer_touch_from_lifts);
    EXPECT_EQ(r.start_fen, "startpos");
    EXPECT_EQ(r.qpf_penalty, milliseconds{120000});
    EXPECT_FALSE(r.base.empty());
  }
}

}  // namespace
}  // namespace eboard::engine
