// The words docs/rules.md uses for each enumerated parameter value (used by `param` lines and
// by events that name a rule). One table per enum; the first column is the spelling.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "engine/rules/rule_set.h"

namespace eboard::engine {

template <class E>
struct ParamWords;  // specialised below: static constexpr `words` array of {word, value}

template <class E, std::size_t N>
using WordTable = std::array<std::pair<std::string_view, E>, N>;

template <>
struct ParamWords<Supervision> {
  static constexpr WordTable<Supervision, 7> words{{{"full", Supervision::kFull},
                                                    {"A4", Supervision::kA4},
                                                    {"A5", Supervision::kA5},
                                                    {"B2", Supervision::kB2},
                                                    {"B3", Supervision::kB3},
                                                    {"none", Supervision::kNone},
                                                    {"on_request", Supervision::kOnRequest}}};
};
template <>
struct ParamWords<MisplacedKingCastling> {
  static constexpr WordTable<MisplacedKingCastling, 2> words{
      {{"forbidden", MisplacedKingCastling::kForbidden},
       {"mirrored", MisplacedKingCastling::kMirrored}}};
};
template <>
struct ParamWords<IllegalMoveDetection> {
  static constexpr WordTable<IllegalMoveDetection, 3> words{
      {{"arbiter_anytime", IllegalMoveDetection::kArbiterAnytime},
       {"before_reply", IllegalMoveDetection::kBeforeReply},
       {"claim_only_before_reply", IllegalMoveDetection::kClaimOnlyBeforeReply}}};
};
template <>
struct ParamWords<WindowClosesOn> {
  static constexpr WordTable<WindowClosesOn, 4> words{
      {{"never", WindowClosesOn::kNever},
       {"opponent_move_completed", WindowClosesOn::kOpponentMoveCompleted},
       {"opponent_move_made", WindowClosesOn::kOpponentMoveMade},
       {"opponent_touch", WindowClosesOn::kOpponentTouch}}};
};
template <>
struct ParamWords<CounterScope> {
  static constexpr WordTable<CounterScope, 1> words{{{"game", CounterScope::kGame}}};
};
template <>
struct ParamWords<PressWithoutMove> {
  static constexpr WordTable<PressWithoutMove, 2> words{
      {{"illegal", PressWithoutMove::kIllegal},
       {"allowed_for_restart", PressWithoutMove::kAllowedForRestart}}};
};
template <>
struct ParamWords<FlagObserver> {
  static constexpr WordTable<FlagObserver, 2> words{
      {{"arbiter", FlagObserver::kArbiter}, {"claim_only", FlagObserver::kClaimOnly}}};
};
template <>
struct ParamWords<MatingTest> {
  static constexpr WordTable<MatingTest, 4> words{
      {{"fide_helpmate", MatingTest::kFideHelpmate},
       {"pskov_forced_mate_in_one", MatingTest::kPskovForcedMateInOne},
       {"uscf_14e", MatingTest::kUscf14e},
       {"static_material", MatingTest::kStaticMaterial}}};
};
template <>
struct ParamWords<BothFlags> {
  static constexpr WordTable<BothFlags, 3> words{
      {{"order_from_clock", BothFlags::kOrderFromClock},
       {"draw_if_both_down_at_claim", BothFlags::kDrawIfBothDownAtClaim},
       {"guideline_III_3_1", BothFlags::kGuidelineIII31}}};
};
template <>
struct ParamWords<DeadPositionAnalysis> {
  static constexpr WordTable<DeadPositionAnalysis, 3> words{
      {{"structural", DeadPositionAnalysis::kStructural},
       {"quick", DeadPositionAnalysis::kQuick},
       {"full", DeadPositionAnalysis::kFull}}};
};
template <>
struct ParamWords<IllegalPositionRule> {
  static constexpr WordTable<IllegalPositionRule, 3> words{
      {{"reinstate", IllegalPositionRule::kReinstate},
       {"A.5.4", IllegalPositionRule::kA54},
       {"stands", IllegalPositionRule::kStands}}};
};
template <>
struct ParamWords<IncrementCredit> {
  static constexpr WordTable<IncrementCredit, 2> words{
      {{"start_and_press", IncrementCredit::kStartAndPress},
       {"press_only", IncrementCredit::kPressOnly}}};
};
template <>
struct ParamWords<PeriodTrigger> {
  static constexpr WordTable<PeriodTrigger, 2> words{
      {{"by_move_count", PeriodTrigger::kByMoveCount}, {"on_zero", PeriodTrigger::kOnZero}}};
};
template <>
struct ParamWords<IrregularityVisibility> {
  static constexpr WordTable<IrregularityVisibility, 2> words{
      {{"acted_on", IrregularityVisibility::kActedOn},
       {"arbiter_only", IrregularityVisibility::kArbiterOnly}}};
};

// The docs/rules.md word for an enum value ("" if the table lacks it, which a test forbids).
template <class E>
constexpr std::string_view param_word(E value) {
  for (const auto& [word, each] : ParamWords<E>::words) {
    if (each == value) return word;
  }
  return "";
}

}  // namespace eboard::engine
