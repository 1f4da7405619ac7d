// GameTracker: turning the recognizer's and the clock model's reports into domain events.
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/game_tracker.h"

namespace eboard::engine {
namespace {

events::MoveSighting sighting_of(const Provenance& p) {
  return {p.first_seen, p.slid_through, p.taken_back, p.piece_missing};
}

GameResult gesture_game_result(GestureResult gesture) {
  switch (gesture) {
    case GestureResult::kWhiteWins: return GameResult::kWhiteWins;
    case GestureResult::kBlackWins: return GameResult::kBlackWins;
    case GestureResult::kDraw: return GameResult::kDraw;
    case GestureResult::kNone: break;
  }
  return GameResult::kUnfinished;
}

CompletionKind completion_kind(UnpressedCompletion why) {
  switch (why) {
    case UnpressedCompletion::kNextMove: return CompletionKind::kNextMove;
    case UnpressedCompletion::kGameEnd: return CompletionKind::kGameEnd;
    case UnpressedCompletion::kEarlierPress: return CompletionKind::kClockPress;
    case UnpressedCompletion::kOpponentBegan: return CompletionKind::kOpponentBegan;
    case UnpressedCompletion::kSettled: return CompletionKind::kSettled;
  }
  return CompletionKind::kClockPress;
}

}  // namespace

void GameTracker::translate(const RecognizerEvents& in, GameEvents& out) {
  for (const RecognizerEvent& r : in) {
    if (ended_) break;
    switch (r.kind) {
      case RecognizerEvent::Kind::kTentative: {
        events::MoveTentative t;
        t.side = r.side;
        t.move = r.move;
        Position base = committed();
        for (int i = 0; i < r.ply; ++i) base.make(r.path[i]);
        t.san = to_san(base, r.move);
        base.make(r.move);
        t.position = snapshot_of(base);
        t.sighting = sighting_of(r.provenance);
        out.emplace_back(r.at, std::move(t));
        break;
      }
      case RecognizerEvent::Kind::kWithdrawn: {
        out.emplace_back(r.at, events::MoveWithdrawn{r.side, r.move});
        break;
      }
      case RecognizerEvent::Kind::kIllegalPending: {
        events::IllegalMovePending p;
        p.side = r.illegal.side;
        p.reason = r.illegal.reason;
        p.description = r.illegal.description;
        if (r.illegal.from != kNoSquare) {
          p.from = r.illegal.from;
          p.to = r.illegal.to;
        }
        p.squares = squares_of(r.illegal.differing);
        out.emplace_back(r.at, std::move(p), irregularity_visibility(),
                         std::vector<std::string>{"7.5.1"});
        break;
      }
      case RecognizerEvent::Kind::kIllegalCorrected: {
        out.emplace_back(r.at, events::IllegalMoveCorrected{r.side}, EventVisibility::kArbiter,
                         std::vector<std::string>{"4.3", "4.7"});
        break;
      }
      case RecognizerEvent::Kind::kRestoreRequested: {
        out.emplace_back(
            r.at,
            events::RestoreRequested{snapshot_of(committed()), squares_of(r.illegal.differing),
                                     "board disarranged: set it back to the position"},
            EventVisibility::kPublic, std::vector<std::string>{"7.4"});
        break;
      }
      case RecognizerEvent::Kind::kResultGesture: {
        const bool accept = config_.rules.accept_result_gestures;
        const GameResult result = gesture_game_result(r.gesture);
        const TerminationKind termination = r.gesture == GestureResult::kDraw
                                                ? TerminationKind::kAgreement
                                                : TerminationKind::kResignation;
        const std::string description =
            "result gesture on the board: " + std::string(result_text(result));
        // Proposed, the arbiter keeps it as a decision its ruling names (docs/rules.md §0).
        if (accept) {
          end_game(r.at, result, termination, Finality::kFinal, description, out);
        } else {
          apply(r.at, arbiter_->propose_result(*this, result, termination, description, r.at), out);
        }
        break;
      }
      case RecognizerEvent::Kind::kGameEndStable: {
        PressVerdict v;
        v.kind = PressVerdict::Kind::kLegal;
        v.move = r.move;
        v.provenance = r.provenance;
        v.game_end = r.game_end;
        complete_move(r.at, v, CompletionKind::kGameEnd, out);
        break;
      }
      case RecognizerEvent::Kind::kCompleted: {
        PressVerdict v;
        v.kind = PressVerdict::Kind::kLegal;
        v.move = r.move;
        v.provenance = r.provenance;
        v.pressed_earlier = r.completion == UnpressedCompletion::kEarlierPress;
        complete_move(r.at, v, completion_kind(r.completion), out);
        break;
      }
      case RecognizerEvent::Kind::kIllegalCompleted:
        complete_illegal(r.at, r.side, r.illegal, out);
        break;
      case RecognizerEvent::Kind::kOrientation: {
        events::SetupIrregular s;
        s.kind = SetupIrregularKind::kBoardRotated;
        s.description = r.rotated ? "board turned round: squares are mapped (docs/protocols.md 1.6)"
                                  : "board back in its normal orientation";
        out.emplace_back(r.at, std::move(s), EventVisibility::kArbiter,
                         std::vector<std::string>{"7.2.2"});
        break;
      }
    }
  }
}

void GameTracker::clock_events(const std::vector<ClockEvent>& in, GameEvents& out) {
  for (const ClockEvent& ce : in) {
    if (const auto* f = std::get_if<FlagFall>(&ce)) {
      if (!f->decisive || flag_period_[f->side] == f->period) continue;
      flag_period_[f->side] = f->period;
      events::FlagFell flag;
      flag.side = f->side;
      flag.period = f->period;
      flag.moves_completed = f->moves_completed;
      flag.first = f->first;
      out.emplace_back(f->at, std::move(flag), irregularity_visibility(),
                       std::vector<std::string>{"6.9"});
      apply(f->at, arbiter_->on_flag(*this, f->side, f->at), out);
    } else if (const auto* i = std::get_if<IncrementCredited>(&ce)) {
      out.emplace_back(i->at, events::IncrementCredited{i->side, i->amount});
    } else if (const auto* p = std::get_if<PeriodStarted>(&ce)) {
      out.emplace_back(p->at, events::PeriodStarted{p->side, p->period, p->added});
    } else if (const auto* t = std::get_if<TimeControlMissed>(&ce)) {
      out.emplace_back(
          t->at,
          events::TimeControlMissed{t->side, t->period, t->moves_completed, t->moves_required},
          irregularity_visibility());
    } else if (const auto* m = std::get_if<ClockMismatch>(&ce)) {
      out.emplace_back(m->at, events::ClockMismatch{m->field, m->clock_value, m->model_value},
                       EventVisibility::kArbiter);
    }
    // DelayWindow, DelayEnded and PressIgnored change nothing a consumer shows.
  }
}

}  // namespace eboard::engine
