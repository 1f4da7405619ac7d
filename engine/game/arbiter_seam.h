// Where the arbiter's rules (docs/rules.md D1, D5-D14: penalty ladders, claims, windows,
// results on flags) plug into a GameTracker. The tracker recognises and completes moves
// (D2, D3, D7 checkmate/stalemate) and counts completed illegal moves per player; every
// decision that depends on the rule set's penalties and claims is made here.
//
// Arrows point one way: the tracker calls the arbiter's hooks with a read-only view of
// itself, and each hook returns its decisions (arbiter_decision.h), which the tracker
// applies in order. The arbiter keeps its own state (proposals, windows, obligations) and
// never changes the tracker.
//
// The base class is the minimal arbiter the tracker runs with when no other is given:
// presses without a move are classified by `press_without_move` (D6), a completed
// illegal move asks for the committed position to be restored (7.5.1) and nothing else,
// operator lines other than pause/resume/add-time are ignored.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "engine/clock/clock_events.h"
#include "engine/game/arbiter_decision.h"
#include "engine/game/game_event.h"
#include "engine/game/operator_action.h"

namespace eboard::engine {

class GameTracker;

class Arbiter {
 public:
  virtual ~Arbiter() = default;

  // A press by `side` with nothing new on the board (D6, 7.5.3).
  virtual PressClass classify_press_without_move(const GameTracker& game, Color side);
  // Completed illegal acts of `side` that the tracker does not see (7.5.4 reports) and that
  // its illegalMoveCompleted.count includes.
  virtual int unseen_illegal_acts(const GameTracker& game, Color side) const;
  // After moveCompleted (and its clock events) was emitted.
  virtual ArbiterDecisions on_move_completed(const GameTracker& game,
                                             const events::MoveCompleted& completed,
                                             std::chrono::milliseconds now);
  // After illegalMoveCompleted was emitted (the count already includes it). The
  // committed position is unchanged; the clock model has taken the press.
  virtual ArbiterDecisions on_illegal_completed(const GameTracker& game,
                                                const events::IllegalMoveCompleted& completed,
                                                std::chrono::milliseconds now);
  // A decisive flag fall from the clock model or a `flag` line (D10).
  virtual ArbiterDecisions on_flag(const GameTracker& game, Color side,
                                   std::chrono::milliseconds now);
  // Both flags are down and the order of the falls is unknown (a `flag both` line; docs/rules.md
  // D10, Guidelines III.3.1): the set's `both_flags` decides, not the first fall.
  virtual ArbiterDecisions on_both_flags(const GameTracker& game, std::chrono::milliseconds now);
  // The arbiter's own timer (the tracker folds it into next_deadline()): a game end it
  // waits for (D2: a placement ending the game by itself stands for game_end_stable_ms).
  virtual std::optional<std::chrono::milliseconds> next_deadline() const;
  virtual ArbiterDecisions on_deadline(const GameTracker& game, std::chrono::milliseconds now);
  // The tracker starts a new game after an annulled one (AnnulGame): every decision about
  // the old game is dropped.
  virtual void on_new_game();
  // The publisher numbered an event that opened decision `proposal` (GameEvent::proposal())
  // as `seq`: rulings name decisions by seq.
  virtual void on_published(std::uint32_t proposal, std::uint64_t seq);
  // A result for the arbiter to confirm that the board signalled (docs/rules.md D8: the result
  // pieces or the kings) or that a journal's recovery opens again (a proposal the replay of
  // the moves and commands cannot produce: daemon/core/recovery.h). The base class proposes
  // the end; a full arbiter also keeps it as a decision a ruling settles.
  virtual ArbiterDecisions propose_result(const GameTracker& game, GameResult result,
                                          TerminationKind termination,
                                          const std::string& description,
                                          std::chrono::milliseconds now);
  // An operator line (claims, resignations, rulings, ...).
  virtual ArbiterDecisions on_operator(const GameTracker& game, const OperatorAction& action,
                                       std::chrono::milliseconds now);
  // After a sensor change (lift, put, placement) was turned into events: `caused` are what
  // it caused (a move made, an illegal placement, ...); claim windows that close on the
  // opponent's move or touch (D5) and touch-move obligations (D4) are decided here.
  virtual ArbiterDecisions on_board_change(const GameTracker& game,
                                           std::span<const GameEvent> caused,
                                           std::chrono::milliseconds now);
};

}  // namespace eboard::engine
