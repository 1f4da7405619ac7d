#include "engine/game/arbiter_seam.h"

#include "engine/board/fen.h"
#include "engine/game/game_tracker.h"

namespace eboard::engine {

PressClass Arbiter::classify_press_without_move(const GameTracker& game, Color) {
  return game.rules().press_without_move == PressWithoutMove::kIllegal
             ? PressClass::kIllegal
             : PressClass::kRestartAllowed;
}

void Arbiter::on_move_completed(GameTracker&, const GameEvent&, std::chrono::milliseconds,
                                GameEvents&) {}

// 7.5.1: the position before the irregularity is to be reinstated; the full arbiter
// adds the penalty ladder (D5) on top.
void Arbiter::on_illegal_completed(GameTracker& game, const GameEvent& completed,
                                   std::chrono::milliseconds now, GameEvents& out) {
  if (completed.reason == IllegalReason::kPressWithoutMove) return;
  GameEvent e;
  e.kind = GameEventKind::kRestoreRequested;
  e.at_ms = now.count();
  e.visibility = game.irregularity_visibility();
  e.position = snapshot_of(game.committed());
  e.squares = squares_of(
      differing_squares(game.committed(), game.recognizer().sensed(), game.recognizer().keys()));
  e.description = "reinstate the position before the illegal move";
  e.articles = {"7.5.1"};
  out.push_back(std::move(e));
}

void Arbiter::on_flag(GameTracker&, Color, std::chrono::milliseconds, GameEvents&) {}

std::optional<std::chrono::milliseconds> Arbiter::next_deadline() const { return std::nullopt; }

void Arbiter::on_deadline(GameTracker&, std::chrono::milliseconds, GameEvents&) {}

void Arbiter::on_new_game(GameTracker&) {}

void Arbiter::on_published(std::uint32_t, std::uint64_t) {}

void Arbiter::propose_result(GameTracker& game, const std::string& result,
                             TerminationKind termination, const std::string& description,
                             std::chrono::milliseconds now, GameEvents& out) {
  game.end_game(now, result, termination, Finality::kProposed, description, out);
}

void Arbiter::on_both_flags(GameTracker&, std::chrono::milliseconds, GameEvents&) {}

void Arbiter::on_board_change(GameTracker&, std::size_t, std::chrono::milliseconds, GameEvents&) {}

void Arbiter::on_operator(GameTracker& game, const OperatorAction& action,
                          std::chrono::milliseconds now, GameEvents& out) {
  switch (action.kind) {
    case OperatorAction::Kind::kPause:
    case OperatorAction::Kind::kResume:
      game.pause_clock(
          now, action.kind == OperatorAction::Kind::kPause ? ClockHold::kPause : ClockHold::kResume,
          out);
      break;
    case OperatorAction::Kind::kAddTime:
      game.adjust_clock(now, action.side, action.amount, out);
      break;
    default: break;  // claims, resignations, rulings: the rules part of the arbiter
  }
}

}  // namespace eboard::engine
