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

// On an occupancy-only board a capturing piece lifted and still in the hand shows the
// same occupancy as its capture of any piece it attacks (the victim's square stays
// occupied). A capture is made by putting the capturing piece down on its victim's
// square, so a capture matched at a lift is that piece in the hand, not a move made (en
// passant excepted: its victim, on another square, may go last).
bool MoveRecognizer::occupancy_phantom(int depth, Move m) const {
  if (keys_ != MatchKeys::kOccupancy || !last_change_lift_ || m.kind() == MoveKind::kEnPassant)
    return false;
  make_path(depth - 1);
  const bool capture = committed_.piece_on(m.to()) != kNoPiece;
  unmake_path(depth - 1);
  return capture;
}

// The move at the top of a chain of one stands since `since`.
void MoveRecognizer::clockless_stand_top(Millis since) {
  clockless_move_ = chain_[0];
  clockless_stood_at_ = emptied_count_;
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
  // Whose piece a lift takes off a board off the legal path shows only where the board
  // senses pieces; an occupancy-only board's illegal placement completes by settling.
  const Color opponent = ~last_illegal_.side;
  Bitboard pieces = 0;
  if (keys_ == MatchKeys::kPlacement) {
    for (Bitboard b = sensed_.occupied(); b;) {
      const Square s = pop_lsb(b);
      if (is_piece_code(sensed_.at(s)) && color_of(Piece(sensed_.at(s))) == opponent)
        pieces |= square_bb(s);
    }
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
    // The candidate, even where a lifted capturing piece now reads as another move.
    RecognizerEvent e = completion_event(why, d->at);
    e.move = clockless_move_;
    e.provenance = provenance_for(clockless_move_, d->at);
    out.push_back(std::move(e));
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
