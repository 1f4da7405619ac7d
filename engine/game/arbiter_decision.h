// What an Arbiter (arbiter_seam.h) decides about a game, as values: each hook returns the
// decisions it took, in order, and the GameTracker applies them, in that order, at the
// instant it called the hook. The arbiter reads the tracker and never changes it; the
// tracker is the one owner of the committed position, the clock model and the game's end.
//
// A decision is one of a few facts: an event of the arbiter's own (a penalty, a claim's
// outcome, ...), the game's end or its annulment, the committed position set back or set to
// what stands, time given to a player, the move that ends the game completed, the clocks
// stopped or started. Events a decision causes (gameEnded, positionChanged, clock events)
// are the tracker's, written where it applies the decision, so that they come in the same
// order as the decisions. What applying a decision leads to (a flag fall when the clocks
// stop, a move completed by the board once the position is set back) calls the arbiter's
// hooks again, after the hook that decided it has returned.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "engine/board/position.h"
#include "engine/game/game_event.h"

namespace eboard::engine {

// An event the arbiter emits as it stands (docs/rules.md §0.2 kinds, restoreRequested, ...).
struct ArbiterReport {
  GameEvent event;
};

// The game ends (kFinal) or an end is proposed to the arbiter (kProposed): gameEnded.
struct EndGame {
  GameResult result = GameResult::kUnfinished;
  TerminationKind termination = TerminationKind::kArbiter;
  Finality finality = Finality::kFinal;
  std::string description{};
  UnwinnabilityNote unwinnability = UnwinnabilityNote::kNone;
  std::uint32_t proposal = 0;      // the decision a proposed end opened (GameEvent::proposal())
  std::uint64_t proposal_seq = 0;  // the proposal a ruling confirmed (GameEvent::proposal_seq())
};

// 7.2.1, 7.3, A.5.1: the game is annulled (gameEnded "*") and a new one is played from
// `next_start`, starting at the next input.
struct AnnulGame {
  Position next_start;
  std::string description;
};

// The committed position becomes `position` (7.5.1 reinstatement; D5 the illegal move that
// stands): positionChanged. Nothing happens when it already is (same key, same placement).
struct SetCommitted {
  Position position;
  std::string description;
};

// Time given to (or taken from) `side`'s clock: a penalty's time to the opponent, add-time.
struct AdjustClock {
  Color side = kWhite;
  std::chrono::milliseconds delta{0};
};

// D7: the legal move standing on the board ends the game by itself; it is completed
// without a press (6.2.1.1), if it still stands when the tracker applies this.
struct CompletePending {};

// 6.11: the arbiter stops the clocks, or starts them again.
struct HoldClock {
  ClockHold hold = ClockHold::kPause;
};

using ArbiterDecision = std::variant<ArbiterReport, EndGame, AnnulGame, SetCommitted, AdjustClock,
                                     CompletePending, HoldClock>;
using ArbiterDecisions = std::vector<ArbiterDecision>;

// Whether applying `decisions` ends the game (a final end or an annulment).
bool ends_game(const ArbiterDecisions& decisions);

}  // namespace eboard::engine
