// GameTracker: completion (docs/rules.md D3, D6, 7.5.3). A press by the side whose clock
// runs, or the board itself (6.2.1.1, 6.2.1.2, a board without a clock), completes what
// stands on the board: a legal move, an illegal one, or nothing.
#include "engine/board/notation.h"
#include "engine/game/game_tracker.h"

namespace eboard::engine {
void GameTracker::lever(Millis now, Color side, GameEvents& out) {
  ensure_started(now, out);
  advance(now, out);
  if (ended_) return;
  // D3: a press by the side whose clock does not run is ignored for move logic.
  if (clock_.paused() || clock_.running() != side) {
    clock_events(clock_.press(side, now, moves_completed_[side]), out);
    return;
  }
  // Players who signal a result on the board (D8) stop the clocks: not a move.
  if (recognizer_.gesture() != GestureResult::kNone) return;
  if (side != committed().side_to_move()) {
    // 6.2.2 after 6.2.1.2: its own move stands on the opponent's pending one.
    if (!recognizer_.press_over_pending(side)) return press_without_move(now, side, out);
    clock_events(clock_.press(side, now, moves_completed_[side]), out);
    return clock_update(now, out);
  }
  const PressVerdict verdict = recognizer_.judge_press(now);
  switch (verdict.kind) {
    case PressVerdict::Kind::kLegal:
      return complete_move(now, verdict, CompletionKind::kClockPress, out);
    case PressVerdict::Kind::kIllegal: return complete_illegal(now, side, verdict.illegal, out);
    case PressVerdict::Kind::kNothing: return press_without_move(now, side, out);
  }
}

void GameTracker::complete_move(Millis now, const PressVerdict& verdict, CompletionKind how,
                                GameEvents& out) {
  const Position& before = committed();
  const Color side = before.side_to_move();
  const Move m = verdict.move;
  events::MoveCompleted e;
  e.side = side;
  e.move = m;
  e.san = to_san(before, m);
  e.completion = how;
  const Provenance& p = verdict.provenance;
  e.sighting = {p.first_seen, p.slid_through, p.taken_back, p.piece_missing};
  // Completed on a board without a clock: no article of the Laws says when (docs/clockless.md).
  std::vector<std::string> articles;
  if (how != CompletionKind::kOpponentBegan && how != CompletionKind::kSettled)
    articles = {how == CompletionKind::kGameEnd    ? "6.2.1.1"
                : how == CompletionKind::kNextMove ? "6.2.1.2"
                                                   : "6.2.1"};
  GameEvents touch;
  const Square rook_square = make_square(file_of(m.to()) == 6 ? 7 : 0, rank_of(m.from()));
  if (p.rook_first || p.released_other) {
    events::TouchMoveViolation t;
    t.side = side;
    t.move = m;
    t.square = p.rook_first ? rook_square : p.released_other.from();
    t.description = p.rook_first ? "castled with the rook moved first"
                                 : "released move " + to_uci(p.released_other) + " changed to " +
                                       to_uci(m) + " before the press";
    touch.emplace_back(now, std::move(t), EventVisibility::kArbiter,
                       std::vector<std::string>{p.rook_first ? "4.4.2" : "4.7"});
  }
  // However the press or the board completed it, a move recovery showed is reported as found.
  if (move_source_ == MoveSource::kRecovered) e.completion = CompletionKind::kRecovered;
  RecognizerEvents after;  // what the board shows beyond the move (a reply already made)
  recognizer_.commit(m, now, after);
  ++moves_completed_[side];
  e.ply = config_.plies_before + int(moves_.size()) + 1;
  e.position = snapshot_of(committed());
  // A move completed by the player's next move, or pressed for earlier, leaves the clock
  // as it is (6.2.1.2, 6.2.2).
  std::vector<ClockEvent> ce;
  if (how == CompletionKind::kGameEnd)
    ce = clock_.stop(now);
  else if (how == CompletionKind::kClockPress && !verdict.pressed_earlier)
    ce = clock_.press(side, now, moves_completed_[side]);
  e.white_remaining = clock_.remaining(kWhite, now);
  e.black_remaining = clock_.remaining(kBlack, now);
  moves_.push_back({m, side, now, side == kWhite ? e.white_remaining : e.black_remaining});
  out.emplace_back(now, e, EventVisibility::kPublic, std::move(articles));
  for (GameEvent& t : touch) out.push_back(std::move(t));
  clock_events(ce, out);
  if (verdict.game_end != GameEndKind::kNone) {
    const bool mate = verdict.game_end == GameEndKind::kCheckmate;
    end_game(now, mate ? win_for(side) : GameResult::kDraw,
             mate ? TerminationKind::kCheckmate : TerminationKind::kStalemate, Finality::kFinal,
             mate ? "checkmate" : "stalemate", out);
    return;
  }
  clock_update(now, out);
  translate(after, out);
  apply(now, arbiter_->on_move_completed(*this, e, now), out);
}

void GameTracker::complete_illegal(Millis now, Color side, const IllegalAnalysis& a,
                                   GameEvents& out) {
  events::IllegalMoveCompleted e;
  e.side = side;
  e.reason = a.reason;
  e.description = a.description;
  e.count = ++illegal_counts_[side] + arbiter_->unseen_illegal_acts(*this, side);
  if (a.from != kNoSquare && a.to != kNoSquare) {
    e.from = a.from;
    e.to = a.to;
  }
  out.emplace_back(now, e, irregularity_visibility(),
                   std::vector<std::string>{
                       a.reason == IllegalReason::kPromotionIncomplete ? "7.5.2" : "7.5.1"});
  clock_events(clock_.press(side, now, moves_completed_[side]), out);
  clock_update(now, out);
  apply(now, arbiter_->on_illegal_completed(*this, e, now), out);
}

void GameTracker::press_without_move(Millis now, Color side, GameEvents& out) {
  const PressClass classification = arbiter_->classify_press_without_move(*this, side);
  const EventVisibility visibility = irregularity_visibility();
  out.emplace_back(now, events::ClockPressWithoutMove{side, classification}, visibility,
                   std::vector<std::string>{"7.5.3"});
  if (classification == PressClass::kIllegal) {
    events::IllegalMoveCompleted i;
    i.side = side;
    i.reason = IllegalReason::kPressWithoutMove;
    i.description = "clock pressed without a move";
    i.count = ++illegal_counts_[side] + arbiter_->unseen_illegal_acts(*this, side);
    out.emplace_back(now, i, visibility, std::vector<std::string>{"7.5.3"});
    clock_events(clock_.press(side, now, moves_completed_[side]), out);
    clock_update(now, out);
    apply(now, arbiter_->on_illegal_completed(*this, i, now), out);
    return;
  }
  clock_events(clock_.press(side, now, moves_completed_[side]), out);
  clock_update(now, out);
}

}  // namespace eboard::engine
