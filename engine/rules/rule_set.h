// Rule sets as data (docs/rules.md §2): every parameter the arbiter reads, one struct, six
// named tables. Arbiter code reads these fields and never tests the rule set's name, so
// a `param NAME VALUE` line (rule_params.h) can make any set behave like any other.
//
// Field names are docs/rules.md's parameter names; a parameter spelled `a.b` there is
// `a_b` here (`illegal_move.ladder` -> illegal_move_ladder). Times are milliseconds.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/clock/clock_model.h"
#include "engine/clock/time_control.h"
#include "util/result.h"

namespace eboard::engine {

// §2 `supervision`: FIDE 2023 A.4/A.5 (rapid), B.2/B.3 (blitz).
enum class Supervision { kFull, kA4, kA5, kB2, kB3, kNone, kOnRequest };
enum class MisplacedKingCastling { kForbidden, kMirrored };                                // D1
enum class IllegalMoveDetection { kArbiterAnytime, kBeforeReply, kClaimOnlyBeforeReply };  // D5
// D5 `window_closes_on`; kNever is fide-standard's "–" (no window: found any time).
enum class WindowClosesOn { kNever, kOpponentMoveCompleted, kOpponentMoveMade, kOpponentTouch };
enum class CounterScope { kGame };                             // D5
enum class PressWithoutMove { kIllegal, kAllowedForRestart };  // D6
enum class FlagObserver { kArbiter, kClaimOnly };              // D10
enum class MatingTest { kFideHelpmate, kPskovForcedMateInOne, kUscf14e, kStaticMaterial };
enum class BothFlags { kOrderFromClock, kDrawIfBothDownAtClaim, kGuidelineIII31 };  // D10
enum class DeadPositionAnalysis { kStructural, kQuick, kFull };                     // D7
enum class IllegalPositionRule { kReinstate, kA54, kStands };                       // D11
// D14, §2 row "visibility of flags/illegal moves".
enum class IrregularityVisibility { kActedOn, kArbiterOnly };

// One rung of a penalty ladder (D5 `illegal_move.ladder`, D13 `infraction_ladder`).
struct PenaltyStep {
  enum class Kind { kTimeToOpponent, kWarning, kLoss, kClaimWin };
  Kind kind = Kind::kWarning;
  std::chrono::milliseconds time{0};  // kTimeToOpponent only

  bool operator==(const PenaltyStep&) const = default;
};

struct RuleSet {
  std::string name;  // for events and logs only; never tested by rule code
  std::string base;  // §2 row "base": which texts the set follows
  Supervision supervision = Supervision::kFull;

  // D1 set-up and colours.
  std::optional<int> setup_claim_window_moves;  // moves each; empty = ∞ (any time, 7.2.1)
  bool setup_window_covers_clock = false;
  MisplacedKingCastling misplaced_king_castling = MisplacedKingCastling::kForbidden;
  std::string start_fen = "startpos";  // checked by the game tracker's FEN reader

  // D2 recognition.
  std::chrono::milliseconds debounce{300};
  std::chrono::milliseconds unexplained_timeout{3000};
  std::chrono::milliseconds game_end_stable{1000};
  std::chrono::milliseconds disarranged_after{10000};  // pieces missing this long: disarranged
  bool infer_touch_from_lifts = true;
  // A board without a clock (docs/clockless.md): a move stands after `clockless_stable`
  // and is completed by the opponent's lift held `clockless_lift_hold`, or after
  // `clockless_settle`.
  std::chrono::milliseconds clockless_stable{750};
  std::chrono::milliseconds clockless_settle{3000};
  std::chrono::milliseconds clockless_lift_hold{150};

  // D5, D6 illegal moves.
  IllegalMoveDetection illegal_move_detection = IllegalMoveDetection::kArbiterAnytime;
  std::vector<PenaltyStep> illegal_move_ladder;
  bool illegal_move_draw_if_unwinnable = true;
  WindowClosesOn window_closes_on = WindowClosesOn::kNever;
  CounterScope illegal_counter_scope = CounterScope::kGame;
  PressWithoutMove press_without_move = PressWithoutMove::kIllegal;

  // D7 game end by itself.
  bool auto_fivefold_75 = true;
  DeadPositionAnalysis dead_position_analysis = DeadPositionAnalysis::kQuick;
  std::chrono::milliseconds dead_position_budget{50};

  // D8 claims, agreement, resignation, result gestures.
  std::chrono::milliseconds claim_penalty{120000};
  bool resign_draw_if_opponent_unwinnable = true;
  bool accept_result_gestures = false;

  // D9 clock accounting.
  IncrementCredit increment_credit = IncrementCredit::kStartAndPress;
  PeriodTrigger period_trigger = PeriodTrigger::kByMoveCount;
  std::chrono::milliseconds clock_mismatch_tolerance{1500};  // not in docs/rules.md: see .cpp

  // D10 flag fall.
  FlagObserver flag_observer = FlagObserver::kArbiter;
  MatingTest mating_test = MatingTest::kFideHelpmate;
  BothFlags both_flags = BothFlags::kOrderFromClock;
  bool freeze_on_last_period_flag = false;
  bool guidelines_iii_announced = false;  // III.3.1 and III.4-6 apply only if announced

  // D11 illegal positions left on the board.
  IllegalPositionRule illegal_position_rule = IllegalPositionRule::kReinstate;

  // D12 quickplay finish (eligibility also needs III announced and no increment).
  bool qpf_enabled = false;
  bool qpf_requires_move = true;
  std::chrono::milliseconds qpf_penalty{120000};

  // D13 penalties outside Article 7; empty ladder = "arbiter" (12.9: the daemon records).
  std::vector<PenaltyStep> infraction_ladder;
  bool auto_apply_penalties = false;  // the authority rule, §0

  // D14 who is told about flags and irregularities.
  IrregularityVisibility irregularity_visibility = IrregularityVisibility::kActedOn;

  // §2 last row: the clock used when the script or config names none.
  std::string default_clock;

  bool operator==(const RuleSet&) const = default;
};

// The set a game is played under when the config, a script or a command names none.
inline constexpr std::string_view kDefaultRuleSetName = "fide-standard";

// The six sets of docs/rules.md §2, by name; the error lists the known names.
Result<RuleSet> rule_set_by_name(std::string_view name);
std::vector<std::string_view> rule_set_names();

// The clock model's options as this rule set fixes them.
ClockOptions clock_options(const RuleSet& rules);

}  // namespace eboard::engine
