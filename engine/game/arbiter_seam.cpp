#include "engine/game/arbiter_seam.h"

#include <algorithm>

#include "engine/board/fen.h"
#include "engine/game/game_tracker.h"

namespace eboard::engine {

bool ends_game(const ArbiterDecisions& decisions) {
  return std::any_of(decisions.begin(), decisions.end(), [](const ArbiterDecision& d) {
    if (std::holds_alternative<AnnulGame>(d)) return true;
    const auto* end = std::get_if<EndGame>(&d);
    return end && end->finality == Finality::kFinal;
  });
}

PressClass Arbiter::classify_press_without_move(const GameTracker& game, Color) {
  return game.rules().press_without_move == PressWithoutMove::kIllegal
             ? PressClass::kIllegal
             : PressClass::kRestartAllowed;
}

int Arbiter::unseen_illegal_acts(const GameTracker&, Color) const { return 0; }

ArbiterDecisions Arbiter::on_move_completed(const GameTracker&, const events::MoveCompleted&,
                                            std::chrono::milliseconds) {
  return {};
}

// 7.5.1: the position before the irregularity is to be reinstated; the full arbiter
// adds the penalty ladder (D5) on top.
ArbiterDecisions Arbiter::on_illegal_completed(const GameTracker& game,
                                               const events::IllegalMoveCompleted& completed,
                                               std::chrono::milliseconds now) {
  if (completed.reason == IllegalReason::kPressWithoutMove) return {};
  events::RestoreRequested e;
  e.position = snapshot_of(game.committed());
  e.squares = squares_of(
      differing_squares(game.committed(), game.recognizer().sensed(), game.recognizer().keys()));
  e.description = "reinstate the position before the illegal move";
  return {ArbiterReport{GameEvent(now, std::move(e), game.irregularity_visibility(), {"7.5.1"})}};
}

ArbiterDecisions Arbiter::on_flag(const GameTracker&, Color, std::chrono::milliseconds) {
  return {};
}

std::optional<std::chrono::milliseconds> Arbiter::next_deadline() const { return std::nullopt; }

ArbiterDecisions Arbiter::on_deadline(const GameTracker&, std::chrono::milliseconds) { return {}; }

void Arbiter::on_new_game() {}

void Arbiter::on_published(std::uint32_t, std::uint64_t) {}

ArbiterDecisions Arbiter::propose_result(const GameTracker&, GameResult result,
                                         TerminationKind termination,
                                         const std::string& description,
                                         std::chrono::milliseconds) {
  return {EndGame{result, termination, Finality::kProposed, description}};
}

ArbiterDecisions Arbiter::on_both_flags(const GameTracker&, std::chrono::milliseconds) {
  return {};
}

ArbiterDecisions Arbiter::on_board_change(const GameTracker&, std::span<const GameEvent>,
                                          std::chrono::milliseconds) {
  return {};
}

ArbiterDecisions Arbiter::on_operator(const GameTracker&, const OperatorAction& action,
                                      std::chrono::milliseconds) {
  switch (action.kind) {
    case OperatorAction::Kind::kPause: return {HoldClock{ClockHold::kPause}};
    case OperatorAction::Kind::kResume: return {HoldClock{ClockHold::kResume}};
    case OperatorAction::Kind::kAddTime: return {AdjustClock{action.side, action.amount}};
    default: return {};  // claims, resignations, rulings: the rules part of the arbiter
  }
}

}  // namespace eboard::engine
