// MoveRecognizer: what happens with time and at a press (timers, press verdicts,
// completion). The sensor side is in move_recognizer.cpp.
#include <algorithm>

#include "engine/recognize/move_recognizer.h"

namespace eboard::engine {

std::optional<Millis> MoveRecognizer::next_deadline() const {
  std::optional<Millis> next;
  const auto consider = [&next](Millis t) {
    if (!next || t < *next) next = t;
  };
  if (gesture_ != GestureResult::kNone && !gesture_reported_)
    consider(gesture_since_ + timing_.debounce);
  if (match_ == Match::kNone && !analysed_) consider(last_change_ + timing_.debounce);
  if (match_ == Match::kNone && held_due_) consider(last_change_ + held_limit());
  if (match_ == Match::kNone && restore_due_)
    consider(std::max(last_change_ + timing_.unexplained_timeout, illegal_at_));
  if (match_ == Match::kChain && top_end_ != GameEndKind::kNone && !end_reported_)
    consider(top_since_ + timing_.game_end_stable);
  if (earlier_press_due_) consider(*earlier_press_due_);
  if (clockless_on_)
    if (const auto t = clockless_.next_deadline()) consider(*t);
  return next;
}

void MoveRecognizer::advance(Millis now, RecognizerEvents& out) {
  if (gesture_ != GestureResult::kNone && !gesture_reported_ &&
      now >= gesture_since_ + timing_.debounce) {
    gesture_reported_ = true;
    analysed_ = true;  // a gesture is not an illegal move
    held_due_ = false;
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kResultGesture;
    e.at = gesture_since_ + timing_.debounce;
    e.gesture = gesture_;
    out.push_back(e);
  }
  if (match_ == Match::kNone && !analysed_ && now >= last_change_ + timing_.debounce) {
    analysed_ = true;
    if (!pieces_in_air(committed_, sensed_, keys_))
      report_illegal(last_change_ + timing_.debounce, out);
    else
      held_due_ = true;
  }
  // Pieces off the board (or a piece short) for longer than anyone holds one: knocked off,
  // taken away. Disarranged, never a move (docs/rules.md D2, 7.4).
  if (match_ == Match::kNone && held_due_ && now >= last_change_ + held_limit()) {
    held_due_ = false;
    report_illegal(last_change_ + held_limit(), out);
  }
  if (match_ == Match::kNone && restore_due_ && now >= last_change_ + timing_.unexplained_timeout) {
    restore_due_ = false;
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kRestoreRequested;
    e.at = std::max(last_change_ + timing_.unexplained_timeout, illegal_at_);
    e.illegal.differing = differing_squares(committed_, sensed_, keys_);
    e.side = committed_.side_to_move();
    out.push_back(std::move(e));
  }
  if (match_ == Match::kChain && top_end_ != GameEndKind::kNone && !end_reported_ &&
      now >= top_since_ + timing_.game_end_stable) {
    end_reported_ = true;  // reported once; the caller commits the moves
    const Millis at = top_since_ + timing_.game_end_stable;
    // The plies under the ending move complete with it, in order (6.2.1.1); the caller
    // commits each before the next is reported, so chain_[0] is always the next one.
    RecognizerEvent under = completion_event(UnpressedCompletion::kGameEnd, at);
    for (int i = 0; i + 1 < chain_len_; ++i) {
      under.move = chain_[i];
      under.side = i % 2 == 0 ? committed_.side_to_move() : ~committed_.side_to_move();
      out.push_back(under);
    }
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kGameEndStable;
    e.at = at;
    e.move = chain_[chain_len_ - 1];
    e.side = chain_len_ % 2 == 1 ? committed_.side_to_move() : ~committed_.side_to_move();
    e.game_end = top_end_;
    e.provenance = chain_len_ == 1 ? provenance_for(e.move, at) : Provenance{top_since_};
    out.push_back(e);
  }
  if (earlier_press_due_ && now >= *earlier_press_due_) {
    const Millis at = *earlier_press_due_;
    earlier_press_due_.reset();
    if (chain_len_ >= 1) out.push_back(completion_event(UnpressedCompletion::kEarlierPress, at));
  }
  if (clockless_on_) clockless_advance(now, out);
}

void MoveRecognizer::report_illegal(Millis at, RecognizerEvents& out) {
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kIllegalPending;
  e.at = at;
  e.illegal = analyse_placement(committed_, sensed_, keys_, lifted_victim());
  e.side = e.illegal.side;
  restore_due_ = e.illegal.reason == IllegalReason::kUnexplained;
  if (restore_due_ && rotated_placement_matches())
    e.illegal.description = "board turned round: the position stands mirrored, turn the board back";
  illegal_outstanding_ = true;
  illegal_at_ = at;
  last_illegal_ = e.illegal;
  out.push_back(std::move(e));
  if (clockless_on_) clockless_stand_illegal();
}

// The committed position read turned round (after the first move, never re-mapped).
bool MoveRecognizer::rotated_placement_matches() const {
  const Key rotated_key = keys_ == MatchKeys::kPlacement ? sensed_.rotated_placement_key()
                                                         : sensed_.rotated_occupancy_key();
  const Key base =
      keys_ == MatchKeys::kPlacement ? committed_.placement_key() : occupancy_key(committed_);
  return rotated_key == base;
}

PressVerdict MoveRecognizer::judge_press(Millis now) const {
  PressVerdict v;
  switch (match_) {
    case Match::kCommitted: return v;
    case Match::kChain: {
      v.kind = PressVerdict::Kind::kLegal;
      v.move = chain_[0];
      v.provenance = provenance_for(chain_[0], now);
      v.game_end = chain_len_ == 1 ? game_end_after(0, chain_[0]) : GameEndKind::kNone;
      return v;
    }
    case Match::kNone: break;
  }
  // The mover's legal move is on the board and a piece is in a hand on top of it (the
  // opponent's reply being made, 6.2.2): the press completes the move on the board.
  for (int d = chain_len_; d >= 1; --d) {
    if (!pieces_in_air(after_path(d), sensed_, keys_)) continue;
    v.kind = PressVerdict::Kind::kLegal;
    v.move = chain_[0];
    v.provenance = provenance_for(chain_[0], now);
    v.game_end = game_end_after(0, chain_[0]);
    return v;
  }
  // A piece still in the hand and nothing put down (a capture's victim lifted but the
  // capturing piece not yet released, a piece lifted and held): no move has been made
  // (4.7), so the press is one without a move (D3, 7.5.3), not an illegal move.
  // On an occupancy-only board a capture made looks like this too, except that the
  // victim's square was lifted and is occupied again: a capture, judged as a move.
  const Square victim = lifted_victim();
  const bool one_origin = popcount(committed_.pieces() & ~sensed_.occupied()) == 1;
  if (only_removals(committed_, sensed_, keys_) && (victim == kNoSquare || !one_origin)) {
    v.piece_in_hand = true;
    return v;
  }
  v.kind = PressVerdict::Kind::kIllegal;
  v.illegal = analyse_placement(committed_, sensed_, keys_, victim);
  return v;
}

// The square of the committed position lifted last since the completion and occupied
// again: on an occupancy-only board the only trace of a capture's victim.
Square MoveRecognizer::lifted_victim() const {
  if (keys_ != MatchKeys::kOccupancy) return kNoSquare;
  Square best = kNoSquare;
  std::uint32_t best_when = emptied_base_;
  for (Bitboard b = emptied_ & sensed_.occupied() & committed_.pieces(); b;) {
    const Square s = pop_lsb(b);
    if (emptied_when_[s] > best_when) {
      best = s;
      best_when = emptied_when_[s];
    }
  }
  return best;
}

bool MoveRecognizer::press_over_pending(Color side) {
  if (side == committed_.side_to_move() || chain_len_ < 2) return false;
  if (match_ != Match::kChain && !pieces_in_air(after_path(2), sensed_, keys_)) return false;
  second_pressed_ = true;
  return true;
}

void MoveRecognizer::commit(Move m, Millis now, RecognizerEvents& out) {
  const bool in_chain = chain_len_ >= 1 && chain_[0] == m;
  clockless_.clear();
  opponent_move_reported_ = false;
  committed_.make(m);
  if (m.is_promotion()) promotion_choice_ = kQueen;  // the operator's choice was for this one
  orientation_fixed_ = true;
  if (in_chain) {
    shift_levels(m);
    for (int i = 0; i + 1 < chain_len_; ++i) chain_[i] = chain_[i + 1];
    --chain_len_;
    --top_end_depth_;
    reported_ply_ = std::max(0, reported_ply_ - 1);
  } else {
    chain_len_ = 0;
    invalidate_levels();
  }
  level(0);
  reset_since_commit();
  if (clockless_on_ && m == clockless_move_)
    keep_emptied_since(clockless_stood_at_);
  else if (clockless_on_ && in_chain)
    keep_emptied_since(first_ply_stood_at_);
  // The move stands on the board: no longer tentative, and nothing to withdraw.
  if (reported_ == m) reported_ = Move::none();
  if (chain_len_ == 0) {
    top_end_for_ = Move::none();
    if (match_ == Match::kChain) match_ = Match::kCommitted;
  }
  illegal_outstanding_ = false;
  analysed_ = true;
  held_due_ = false;
  next_move_reported_ = false;
  if (second_pressed_ && in_chain && chain_len_ >= 1) earlier_press_due_ = now;
  second_pressed_ = false;
  if (chain_len_ >= 1) record_seen(chain_[0], now);
  evaluate(now, out);
  if (clockless_on_) clockless_after_commit(now, out);
}

void MoveRecognizer::replace_committed(const Position& pos, Millis now, RecognizerEvents& out) {
  committed_ = pos;
  chain_len_ = 0;
  invalidate_levels();
  reset_since_commit();
  match_ = Match::kNone;
  second_pressed_ = false;
  earlier_press_due_.reset();
  next_move_reported_ = false;
  clockless_.clear();
  opponent_move_reported_ = false;
  illegal_outstanding_ = false;
  last_change_ = now;
  analysed_ = false;
  held_due_ = false;
  evaluate(now, out);
}

}  // namespace eboard::engine
