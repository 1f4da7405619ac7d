// MoveRecognizer: what happens with time and at a press (timers, press verdicts,
// completion). The sensor side is in move_recognizer.cpp.
#include "engine/recognize/move_recognizer.h"

#include <algorithm>

namespace eboard::engine {

std::optional<Millis> MoveRecognizer::next_deadline() const {
  std::optional<Millis> next;
  const auto consider = [&next](Millis t) {
    if (!next || t < *next) next = t;
  };
  if (gesture_ != GestureResult::kNone && !gesture_reported_) consider(gesture_since_ + timing_.debounce);
  if (match_ == Match::kNone && !analysed_) consider(last_change_ + timing_.debounce);
  if (match_ == Match::kNone && restore_due_) consider(last_change_ + timing_.unexplained_timeout);
  if (match_ == Match::kOne && one_end_ != GameEndKind::kNone) consider(one_since_ + timing_.game_end_stable);
  return next;
}

void MoveRecognizer::advance(Millis now, RecognizerEvents& out) {
  if (gesture_ != GestureResult::kNone && !gesture_reported_ && now >= gesture_since_ + timing_.debounce) {
    gesture_reported_ = true;
    analysed_ = true;  // a gesture is not an illegal move
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kResultGesture;
    e.at = gesture_since_ + timing_.debounce;
    e.gesture = gesture_;
    out.push_back(e);
  }
  if (match_ == Match::kNone && !analysed_ && now >= last_change_ + timing_.debounce) {
    analysed_ = true;
    if (!pieces_in_air(committed_, sensed_, keys_)) {
      RecognizerEvent e;
      e.kind = RecognizerEvent::Kind::kIllegalPending;
      e.at = last_change_ + timing_.debounce;
      e.illegal = analyse_placement(committed_, sensed_, keys_);
      e.side = e.illegal.side;
      restore_due_ = e.illegal.reason == IllegalReason::kUnexplained;
      illegal_outstanding_ = true;
      out.push_back(std::move(e));
    }
  }
  if (match_ == Match::kNone && restore_due_ && now >= last_change_ + timing_.unexplained_timeout) {
    restore_due_ = false;
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kRestoreRequested;
    e.at = last_change_ + timing_.unexplained_timeout;
    e.illegal.differing = differing_squares(committed_, sensed_, keys_);
    e.side = committed_.side_to_move();
    out.push_back(std::move(e));
  }
  if (match_ == Match::kOne && one_end_ != GameEndKind::kNone && now >= one_since_ + timing_.game_end_stable) {
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kGameEndStable;
    e.at = one_since_ + timing_.game_end_stable;
    e.move = one_;
    e.side = committed_.side_to_move();
    e.game_end = one_end_;
    e.provenance = provenance_for(one_, e.at);
    out.push_back(e);
    one_end_ = GameEndKind::kNone;  // reported once; the caller commits the move
  }
}

PressVerdict MoveRecognizer::judge_press(Millis now) const {
  PressVerdict v;
  switch (match_) {
    case Match::kCommitted:
      return v;
    case Match::kOne:
    case Match::kTwo: {
      v.kind = PressVerdict::Kind::kLegal;
      v.move = one_;
      v.provenance = provenance_for(one_, now);
      v.game_end = match_ == Match::kOne ? game_end_after(one_) : GameEndKind::kNone;
      return v;
    }
    case Match::kNone:
      break;
  }
  // The mover's legal move is on the board and the opponent already holds a piece to
  // reply (6.2.2): the press completes the move on the board.
  if (one_ && pieces_in_air(after(one_), sensed_, keys_)) {
    v.kind = PressVerdict::Kind::kLegal;
    v.move = one_;
    v.provenance = provenance_for(one_, now);
    v.game_end = game_end_after(one_);
    return v;
  }
  v.kind = PressVerdict::Kind::kIllegal;
  v.illegal = analyse_placement(committed_, sensed_, keys_);
  return v;
}

void MoveRecognizer::commit(Move m, Millis now, RecognizerEvents& out) {
  const Move second = match_ == Match::kTwo && one_ == m ? two_ : Move::none();
  committed_.make(m);
  orientation_fixed_ = true;
  rebuild();
  reset_since_commit();
  // The move stands on the board: no longer tentative, and nothing to withdraw.
  if (reported_ == m) reported_ = Move::none();
  match_ = Match::kCommitted;
  one_ = two_ = Move::none();
  illegal_outstanding_ = false;
  analysed_ = true;
  if (second) {
    reported_ = second;  // already reported as the opponent's tentative move
    seen_[seen_count_++] = {second, now};
  }
  evaluate(now, out);
}

void MoveRecognizer::replace_committed(const Position& pos, Millis now, RecognizerEvents& out) {
  committed_ = pos;
  rebuild();
  reset_since_commit();
  match_ = Match::kNone;
  one_ = two_ = Move::none();
  illegal_outstanding_ = false;
  last_change_ = now;
  analysed_ = false;
  evaluate(now, out);
}

}  // namespace eboard::engine
