// MoveRecognizer on a board without a clock: what it hands ClocklessCompletion and what
// it reports when that unit decides (docs/clockless.md). The sensor side and the timers
// call in here only when clockless_on_.
#include "engine/recognize/move_recognizer.h"

namespace eboard::engine {

void MoveRecognizer::set_clockless(bool on, Millis now, RecognizerEvents& out) {
  if (on == clockless_on_) return;
  clockless_on_ = on;
  clockless_.clear();
  if (!on) return;
  if (match_ == Match::kChain && chain_len_ >= 2) return clockless_opponent_moved(now, out);
  if (match_ == Match::kChain && chain_len_ == 1) return clockless_stand_top(top_since_);
  if (match_ == Match::kNone && illegal_outstanding_) clockless_stand_illegal();
}

// The move at the top of a chain of one stands since `since`.
void MoveRecognizer::clockless_stand_top(Millis since) {
  make_path(1);
  const Bitboard opponent = committed_.pieces(committed_.side_to_move());
  unmake_path(1);
  clockless_.stand(CandidateKind::kLegalMove, since, sensed_, opponent);
}

// The illegal placement just reported stands since the board last changed. A disarranged
// board is no move: it waits for the players or the arbiter (restoreRequested), never for
// a timer. One completed illegal placement is not completed again while the board stays
// off the legal path (the rule set's handling may reinstate the same position).
void MoveRecognizer::clockless_stand_illegal() {
  if (last_illegal_.reason == IllegalReason::kUnexplained || illegal_completed_) return;
  const Color opponent = ~last_illegal_.side;
  Bitboard pieces = 0;
  if (keys_ == MatchKeys::kPlacement) {
    for (Bitboard b = sensed_.occupied(); b;) {
      const Square s = pop_lsb(b);
      if (is_piece_code(sensed_.at(s)) && color_of(Piece(sensed_.at(s))) == opponent)
        pieces |= square_bb(s);
    }
  } else {
    // Presence only: the opponent's pieces are where the committed position has them, but
    // for the square the illegal move went to.
    pieces = committed_.pieces(opponent) & sensed_.occupied();
    if (last_illegal_.to != kNoSquare) pieces &= ~square_bb(last_illegal_.to);
  }
  clockless_.stand(CandidateKind::kIllegalPlacement, last_change_, sensed_, pieces);
}

// The opponent's move stands on the pending one: they began (and made) their next move.
void MoveRecognizer::clockless_opponent_moved(Millis now, RecognizerEvents& out) {
  if (opponent_move_reported_) return;
  opponent_move_reported_ = true;
  clockless_.clear();
  out.push_back(completion_event(UnpressedCompletion::kOpponentBegan, now));
}

// After a commit the chain is one shorter: the opponent's move, if it stood on the
// completed one, is the candidate now, standing since it came to stand.
void MoveRecognizer::clockless_after_commit(Millis now, RecognizerEvents& out) {
  if (clockless_.has_candidate() || match_ != Match::kChain) return;
  if (chain_len_ >= 2) return clockless_opponent_moved(now, out);
  if (chain_len_ == 1) clockless_stand_top(top_since_);
}

void MoveRecognizer::clockless_advance(Millis now, RecognizerEvents& out) {
  const std::optional<ClocklessDecision> d = clockless_.due(now);
  if (!d) return;
  const UnpressedCompletion why = d->rule == ClocklessRule::kSettled
                                      ? UnpressedCompletion::kSettled
                                      : UnpressedCompletion::kOpponentBegan;
  if (d->kind == CandidateKind::kLegalMove) {
    if (chain_len_ >= 1) out.push_back(completion_event(why, d->at));
    return;
  }
  illegal_completed_ = true;
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kIllegalCompleted;
  e.at = d->at;
  e.illegal = last_illegal_;
  e.side = last_illegal_.side;
  e.completion = why;
  out.push_back(std::move(e));
}

}  // namespace eboard::engine
