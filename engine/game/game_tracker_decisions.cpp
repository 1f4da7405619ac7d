// GameTracker: changes to the game that do not come from the board. The Arbiter's decisions
// (arbiter_decision.h) are applied here, in the order they were taken; the daemon's operator
// commands and recovery (game_tracker.h, "commands from outside the rules") use the same
// steps.
#include <variant>

#include "engine/game/game_tracker.h"

namespace eboard::engine {

void GameTracker::apply(Millis now, const ArbiterDecisions& decisions, GameEvents& out) {
  for (const ArbiterDecision& d : decisions)
    std::visit([&](const auto& one) { apply(now, one, out); }, d);
}

void GameTracker::apply(Millis, const ArbiterReport& d, GameEvents& out) { out.push_back(d.event); }

void GameTracker::apply(Millis now, const EndGame& d, GameEvents& out) {
  const bool proposed = d.finality == Finality::kProposed;
  out.emplace_back(now, events::GameEnded{d.result, d.termination, d.finality, d.description,
                                          d.unwinnability, d.proposal, d.proposal_seq});
  if (proposed) return;
  ended_ = true;
  result_ = d.result;
  clock_events(clock_.stop(now), out);
  clock_update(now, out);
}

// The new game starts (gameStarted, clocks from the time control, a fresh arbiter state)
// at the next input: ensure_started.
void GameTracker::apply(Millis now, const AnnulGame& d, GameEvents& out) {
  apply(
      now,
      EndGame{GameResult::kUnfinished, TerminationKind::kArbiter, Finality::kFinal, d.description},
      out);
  next_start_ = d.next_start;
}

void GameTracker::apply(Millis now, const SetCommitted& d, GameEvents& out) {
  if (d.position.key() == committed().key() &&
      d.position.placement_key() == committed().placement_key())
    return;
  replace_committed(now, d.position, d.description, out);
}

void GameTracker::apply(Millis now, const AdjustClock& d, GameEvents& out) {
  adjust_clock(now, d.side, d.delta, out);
}

void GameTracker::apply(Millis now, const CompletePending&, GameEvents& out) {
  if (ended_) return;
  const PressVerdict verdict = recognizer_.judge_press(now);
  if (verdict.kind == PressVerdict::Kind::kLegal)
    complete_move(now, verdict, CompletionKind::kGameEnd, out);
}

void GameTracker::apply(Millis now, const HoldClock& d, GameEvents& out) {
  pause_clock(now, d.hold, out);
}

void GameTracker::end_game(Millis now, GameResult result, TerminationKind termination,
                           Finality finality, const std::string& description, GameEvents& out) {
  apply(now, EndGame{result, termination, finality, description}, out);
}

void GameTracker::replace_committed(Millis now, const Position& pos, const std::string& description,
                                    GameEvents& out) {
  out.emplace_back(now, events::PositionChanged{snapshot_of(pos), description});
  RecognizerEvents seen;
  recognizer_.replace_committed(pos, now, seen);
  translate(seen, out);
}

void GameTracker::adjust_clock(Millis now, Color side, Millis delta, GameEvents& out) {
  clock_events(clock_.adjust(side, delta, now), out);
  clock_update(now, out);
}

void GameTracker::pause_clock(Millis now, ClockHold hold, GameEvents& out) {
  const bool pause = hold == ClockHold::kPause;
  arbiter_paused_ = pause;
  // Without a clock the model stays paused: nobody presses it.
  if (!pause && presence_ == ClockPresence::kNone) return clock_update(now, out);
  clock_events(pause ? clock_.pause(now) : clock_.resume(now), out);
  clock_update(now, out);
}

}  // namespace eboard::engine
