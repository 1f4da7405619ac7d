// GameTracker: turning the recognizer's and the clock model's reports into domain events.
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/game_tracker.h"

namespace eboard::engine {
namespace {

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
        GameEvent e = event(GameEventKind::kMoveTentative, r.at);
        e.side = r.side;
        e.move = r.move;
        Position base = committed();
        for (int i = 0; i < r.ply; ++i) base.make(r.path[i]);
        e.san = to_san(base, r.move);
        base.make(r.move);
        e.position = snapshot_of(base);
        e.first_seen_ms = r.provenance.first_seen.count();
        e.slid_through = r.provenance.slid_through;
        e.taken_back = r.provenance.taken_back;
        e.piece_missing = r.provenance.piece_missing;
        out.push_back(std::move(e));
        break;
      }
      case RecognizerEvent::Kind::kWithdrawn: {
        GameEvent e = event(GameEventKind::kMoveWithdrawn, r.at);
        e.side = r.side;
        e.move = r.move;
        out.push_back(std::move(e));
        break;
      }
      case RecognizerEvent::Kind::kIllegalPending: {
        GameEvent e = event(GameEventKind::kIllegalMovePending, r.at);
        e.visibility = irregularity_visibility();
        e.side = r.illegal.side;
        e.reason = r.illegal.reason;
        e.description = r.illegal.description;
        if (r.illegal.from != kNoSquare) {
          e.from = r.illegal.from;
          e.to = r.illegal.to;
        }
        e.squares = squares_of(r.illegal.differing);
        e.articles = {"7.5.1"};
        out.push_back(std::move(e));
        break;
      }
      case RecognizerEvent::Kind::kIllegalCorrected: {
        GameEvent e = event(GameEventKind::kIllegalMoveCorrected, r.at);
        e.visibility = EventVisibility::kArbiter;
        e.side = r.side;
        e.articles = {"4.3", "4.7"};
        out.push_back(std::move(e));
        break;
      }
      case RecognizerEvent::Kind::kRestoreRequested: {
        GameEvent e = event(GameEventKind::kRestoreRequested, r.at);
        e.position = snapshot_of(committed());
        e.squares = squares_of(r.illegal.differing);
        e.description = "board disarranged: set it back to the position";
        e.articles = {"7.4"};
        out.push_back(std::move(e));
        break;
      }
      case RecognizerEvent::Kind::kResultGesture: {
        const bool accept = config_.rules.accept_result_gestures;
        const std::string result = gesture_result_text(r.gesture);
        const TerminationKind termination = r.gesture == GestureResult::kDraw
                                                ? TerminationKind::kAgreement
                                                : TerminationKind::kResignation;
        const std::string description = "result gesture on the board: " + result;
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
        GameEvent e = event(GameEventKind::kSetupIrregular, r.at);
        e.visibility = EventVisibility::kArbiter;
        e.setup_kind = SetupIrregularKind::kBoardRotated;
        e.description = r.rotated ? "board turned round: squares are mapped (docs/protocols.md 1.6)"
                                  : "board back in its normal orientation";
        e.articles = {"7.2.2"};
        out.push_back(std::move(e));
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
      GameEvent e = event(GameEventKind::kFlagFell, f->at);
      e.visibility = irregularity_visibility();
      e.side = f->side;
      e.period = f->period;
      e.moves_completed = f->moves_completed;
      e.first = f->first;
      e.articles = {"6.9"};
      out.push_back(e);
      apply(f->at, arbiter_->on_flag(*this, f->side, f->at), out);
    } else if (const auto* i = std::get_if<IncrementCredited>(&ce)) {
      GameEvent e = event(GameEventKind::kIncrementCredited, i->at);
      e.side = i->side;
      e.amount_ms = i->amount.count();
      out.push_back(std::move(e));
    } else if (const auto* p = std::get_if<PeriodStarted>(&ce)) {
      GameEvent e = event(GameEventKind::kPeriodStarted, p->at);
      e.side = p->side;
      e.period = p->period;
      e.amount_ms = p->added.count();
      out.push_back(std::move(e));
    } else if (const auto* t = std::get_if<TimeControlMissed>(&ce)) {
      GameEvent e = event(GameEventKind::kTimeControlMissed, t->at);
      e.visibility = irregularity_visibility();
      e.side = t->side;
      e.period = t->period;
      e.moves_completed = t->moves_completed;
      e.moves_required = t->moves_required;
      out.push_back(std::move(e));
    } else if (const auto* m = std::get_if<ClockMismatch>(&ce)) {
      GameEvent e = event(GameEventKind::kClockMismatch, m->at);
      e.visibility = EventVisibility::kArbiter;
      e.clock_field = m->field;
      e.clock_value = m->clock_value;
      e.model_value = m->model_value;
      out.push_back(std::move(e));
    }
    // DelayWindow, DelayEnded and PressIgnored change nothing a consumer shows.
  }
}

}  // namespace eboard::engine
