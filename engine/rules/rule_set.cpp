#include "engine/rules/rule_set.h"

#include <array>

namespace eboard::engine {

namespace {

using std::chrono::milliseconds;
using Step = PenaltyStep;

constexpr Step time_to_opponent(long long seconds) {
  return Step{Step::Kind::kTimeToOpponent, milliseconds{seconds * 1000}};
}
constexpr Step kLoss{Step::Kind::kLoss, milliseconds{0}};
constexpr Step kClaimWin{Step::Kind::kClaimWin, milliseconds{0}};
constexpr Step kWarning{Step::Kind::kWarning, milliseconds{0}};

// docs/rules.md §2, column fide-standard: 2023 Articles 1-12.
RuleSet fide_standard() {
  RuleSet r;
  r.name = kDefaultRuleSetName;
  r.base = "2023 Arts 1-12";
  r.supervision = Supervision::kFull;
  r.setup_claim_window_moves = std::nullopt;  // 7.2.1: at any time
  r.setup_window_covers_clock = false;
  r.misplaced_king_castling = MisplacedKingCastling::kForbidden;  // moot: game replayed
  r.illegal_move_detection = IllegalMoveDetection::kArbiterAnytime;
  r.illegal_move_ladder = {time_to_opponent(120), kLoss};  // 7.5.5
  r.window_closes_on = WindowClosesOn::kNever;
  r.press_without_move = PressWithoutMove::kIllegal;  // 7.5.3
  r.flag_observer = FlagObserver::kArbiter;
  r.mating_test = MatingTest::kFideHelpmate;
  r.both_flags = BothFlags::kOrderFromClock;  // III.3.1 via guidelines_III_announced
  r.claim_penalty = milliseconds{120000};     // 9.5.3
  r.illegal_position_rule = IllegalPositionRule::kReinstate;
  r.qpf_enabled = true;      // "if announced": eligibility also checks guidelines_III_announced
  r.infraction_ladder = {};  // 12.9: the arbiter chooses
  r.irregularity_visibility = IrregularityVisibility::kActedOn;
  r.default_clock = "fide-classical-40/90+30+30s";
  return r;
}

// Columns fide-rapid / fide-blitz under A.5 / B.3 (their defaults), A.3 one minute.
RuleSet fide_unsupervised(std::string name, std::string base, Supervision supervision, bool qpf,
                          std::string clock) {
  RuleSet r = fide_standard();
  r.name = std::move(name);
  r.base = std::move(base);
  r.supervision = supervision;
  r.setup_claim_window_moves = 10;  // A.5.1
  r.setup_window_covers_clock = true;
  r.illegal_move_detection = IllegalMoveDetection::kBeforeReply;  // A.5.2
  r.illegal_move_ladder = {time_to_opponent(60), kLoss};          // A.3
  r.window_closes_on = WindowClosesOn::kOpponentMoveMade;
  r.claim_penalty = milliseconds{60000};
  r.illegal_position_rule = IllegalPositionRule::kA54;
  r.qpf_enabled = qpf;  // Guidelines III.4-6: never in blitz
  r.default_clock = std::move(clock);
  return r;
}

// Column legacy-blitz: 2009 B.3 and S0; semilampo-15 is the same with sd-15.
RuleSet legacy(std::string name, std::string base, std::string clock) {
  RuleSet r = fide_standard();
  r.name = std::move(name);
  r.base = std::move(base);
  r.supervision = Supervision::kNone;
  r.setup_claim_window_moves = 3;  // S0 r3, 2009 A.4.a
  r.setup_window_covers_clock = true;
  r.illegal_move_detection = IllegalMoveDetection::kClaimOnlyBeforeReply;  // S0 r7
  r.illegal_move_ladder = {kClaimWin};
  r.window_closes_on = WindowClosesOn::kOpponentMoveMade;
  r.press_without_move = PressWithoutMove::kAllowedForRestart;  // S0 r11-12
  r.flag_observer = FlagObserver::kClaimOnly;                   // S0 r9
  r.both_flags = BothFlags::kDrawIfBothDownAtClaim;             // S0 r10
  r.claim_penalty = milliseconds{0};
  r.illegal_position_rule = IllegalPositionRule::kStands;
  r.qpf_enabled = false;
  r.irregularity_visibility = IrregularityVisibility::kArbiterOnly;  // D14
  r.default_clock = std::move(clock);
  return r;
}

// Column pskov-blitz: S4 (+ FIDE where S4 is silent).
RuleSet pskov_blitz() {
  RuleSet r = legacy("pskov-blitz", "S4 (+ FIDE)", "sd-5");
  r.supervision = Supervision::kOnRequest;
  r.window_closes_on = WindowClosesOn::kOpponentTouch;            // S4 r7, 13d
  r.mating_test = MatingTest::kPskovForcedMateInOne;              // S4 13c(2), §5a.3
  r.infraction_ladder = {kWarning, time_to_opponent(60), kLoss};  // S4 r10, D13
  return r;
}

RuleSet make(std::string_view name) {
  if (name == "fide-rapid") {
    return fide_unsupervised("fide-rapid", "2023 + App. A", Supervision::kA5, true, "rapid-15+10");
  }
  if (name == "fide-blitz") {
    return fide_unsupervised("fide-blitz", "2023 + App. B", Supervision::kB3, false, "fischer-3+2");
  }
  if (name == "legacy-blitz") return legacy("legacy-blitz", "2009 App. B.3 / S0", "sd-5");
  if (name == "semilampo-15") return legacy("semilampo-15", "S0 (+ FIDE)", "sd-15");
  if (name == "pskov-blitz") return pskov_blitz();
  return fide_standard();
}

constexpr std::array<std::string_view, 6> kNames{
    kDefaultRuleSetName, "fide-rapid", "fide-blitz", "legacy-blitz", "semilampo-15", "pskov-blitz"};

}  // namespace

Result<RuleSet> rule_set_by_name(std::string_view name) {
  for (std::string_view known : kNames) {
    if (known == name) return make(name);
  }
  std::string list;
  for (std::string_view known : kNames) {
    list += list.empty() ? "" : ", ";
    list += known;
  }
  return Error{"unknown rule set '" + std::string(name) + "' (known: " + list + ")"};
}

std::vector<std::string_view> rule_set_names() { return {kNames.begin(), kNames.end()}; }

ClockOptions clock_options(const RuleSet& rules) {
  ClockOptions options;
  options.trigger = rules.period_trigger;
  options.increment_credit = rules.increment_credit;
  options.freeze_on_last_period_flag = rules.freeze_on_last_period_flag;
  options.mismatch_tolerance = rules.clock_mismatch_tolerance;
  return options;
}

}  // namespace eboard::engine
