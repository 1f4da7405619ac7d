#include "engine/recognize/move_recognizer.h"

#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

Square rook_from_of(Move castling) {
  return make_square(file_of(castling.to()) == 6 ? 7 : 0, rank_of(castling.from()));
}

}  // namespace

MoveRecognizer::MoveRecognizer(const Position& start, RecognizerTiming timing, SensingMode mode)
    : committed_(start), timing_(timing), mode_(mode), clockless_(timing.clockless) {
  if (mode_ == SensingMode::kOccupancy) keys_ = MatchKeys::kOccupancy;
  orientation_fixed_ = mode_ == SensingMode::kOccupancy;
  invalidate_levels();
  sensed_.set_position(committed_);  // until the board reports, assume it is set up
}

void MoveRecognizer::invalidate_levels() {
  for (Level& l : levels_) l.depth = -1;
  level(0);
}

// The table of depth d, built when the chain's first d moves differ from the ones it was
// built for; each is built once per chain prefix, so the lookups stay O(1) per change.
const SuccessorTable& MoveRecognizer::level(int depth) {
  Level& l = levels_[(level0_ + depth) % kMaxPendingPlies];
  bool valid = l.depth == depth;
  for (int i = 0; valid && i < depth; ++i) valid = l.path[i] == chain_[i];
  if (!valid) {
    make_path(depth);
    l.table.build(committed_, keys_);
    unmake_path(depth);
    for (int i = 0; i < depth; ++i) l.path[i] = chain_[i];
    l.depth = depth;
  }
  return l.table;
}

// `completed` (the committed position's move) was played: the tables built after it are
// one level shallower now, the others are stale.
void MoveRecognizer::shift_levels(Move completed) {
  levels_[level0_].depth = -1;
  level0_ = (level0_ + 1) % kMaxPendingPlies;
  for (Level& l : levels_) {
    if (l.depth < 1) continue;
    if (l.path[0] != completed) {
      l.depth = -1;
      continue;
    }
    for (int i = 0; i + 1 < l.depth; ++i) l.path[i] = l.path[i + 1];
    --l.depth;
  }
}

void MoveRecognizer::use_occupancy_keys() {
  if (keys_ == MatchKeys::kOccupancy || mode_ == SensingMode::kPieces) return;
  keys_ = MatchKeys::kOccupancy;
  invalidate_levels();
}

void MoveRecognizer::reset_since_commit() {
  seen_count_ = 0;
  taken_back_ = false;
  left_and_returned_ = false;
  emptied_ = 0;
  emptied_base_ = emptied_count_;
  first_own_ = first_opp_ = kNoSquare;
  released_ = Move::none();
}

// The emptyings after `count` still count as since the last completion.
void MoveRecognizer::keep_emptied_since(std::uint32_t count) {
  emptied_base_ = count;
  for (int s = 0; s < kSquareCount; ++s)
    if (emptied_when_[s] > count) emptied_ |= square_bb(Square(s));
}

void MoveRecognizer::on_change(Square s, SquareCode old_code, SquareCode code, Millis now) {
  last_change_ = now;
  last_change_lift_ = code == kEmptyCode && occupies(old_code);
  analysed_ = false;
  restore_due_ = false;
  held_due_ = false;
  if (code == kOccupiedCode) use_occupancy_keys();
  if (code == kEmptyCode && occupies(old_code)) {
    emptied_ |= square_bb(s);
    emptied_when_[s] = ++emptied_count_;
    const Piece p = committed_.piece_on(s);
    if (p != kNoPiece) {
      if (color_of(p) == committed_.side_to_move()) {
        if (first_own_ == kNoSquare) first_own_ = s;
      } else if (first_own_ == kNoSquare && first_opp_ == kNoSquare) {
        first_opp_ = s;
      }
    }
  }
  const GestureResult g = detect_result_gesture(sensed_);
  if (g != gesture_) {
    gesture_ = g;
    gesture_since_ = now;
    gesture_reported_ = false;
  }
}

void MoveRecognizer::sense_square(Square board_square, SquareCode code, Millis now,
                                  RecognizerEvents& out) {
  const Square s = rotated_ ? rotate_180(board_square) : board_square;
  const SquareCode old_code = sensed_.at(s);
  if (!sensed_.set(s, code)) return;
  on_change(s, old_code, code, now);
  evaluate(now, out);
  if (clockless_on_) clockless_.sensed(now, sensed_);
}

void MoveRecognizer::sense_placement(const std::array<SquareCode, kSquareCount>& board_codes,
                                     Millis now, RecognizerEvents& out) {
  bool changed = false;
  for (int b = 0; b < kSquareCount; ++b) {
    const Square s = rotated_ ? rotate_180(Square(b)) : Square(b);
    const SquareCode old_code = sensed_.at(s);
    if (!sensed_.set(s, board_codes[b])) continue;
    on_change(s, old_code, board_codes[b], now);
    changed = true;
  }
  if (!changed) return;
  evaluate(now, out);
  if (clockless_on_) clockless_.sensed(now, sensed_);
}

// A board set up turned round shows the committed position read backwards; before the
// first completed move that can only mean the board's orientation (docs/protocols.md §1.6).
bool MoveRecognizer::try_orientation(Millis now, RecognizerEvents& out) {
  if (orientation_fixed_) return false;
  const Key rotated_key = keys_ == MatchKeys::kPlacement ? sensed_.rotated_placement_key()
                                                         : sensed_.rotated_occupancy_key();
  if (rotated_key != level(0).base_key()) return false;
  std::array<SquareCode, kSquareCount> codes{};
  for (int s = 0; s < kSquareCount; ++s) codes[s] = sensed_.at(rotate_180(Square(s)));
  sensed_.set_all(codes);
  emptied_ = 0;
  emptied_base_ = emptied_count_;
  first_own_ = first_opp_ = kNoSquare;
  rotated_ = !rotated_;
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kOrientation;
  e.at = now;
  e.rotated = rotated_;
  out.push_back(e);
  return true;
}

void MoveRecognizer::evaluate(Millis now, RecognizerEvents& out) {
  const Key k = sensed_key();
  const SuccessorTable& base = level(0);
  if (k == base.base_key()) return to_committed(now, out);
  // Without a clock nothing but the board completes a move: a capturing piece still in
  // the hand (occupancy_phantom) is not taken for its capture there.
  const auto made = [&](int depth, Move m) {
    return !clockless_on_ || !occupancy_phantom(depth, m);
  };
  if (const int i = base.find(k); i != SuccessorTable::kNone)
    if (const Move m = pick(base, i, 1); made(1, m)) return to_chain(1, m, now, out);
  // Off the clean path: the opponent's reply on a pending move, and so on (6.2.1.2, 6.2.2).
  for (int d = 1; d <= chain_len_ && d < kMaxPendingPlies; ++d) {
    const SuccessorTable& t = level(d);
    if (const int j = t.find(k); j != SuccessorTable::kNone)
      if (const Move m = pick(t, j, d + 1); made(d + 1, m)) return to_chain(d + 1, m, now, out);
  }
  if (try_orientation(now, out)) return evaluate(now, out);
  to_none(now, out);
}

// Among moves showing the same board (occupancy keys only), on a board without a clock the
// move already standing at that ply (no press will judge it: a flicker on another victim's
// square later does not make it another), else the one whose arrival square was lifted last (a
// capture: the victim taken off, before or after the capturing piece was lifted; an earlier flicker
// or knocked piece on another victim's square counts less), else the chosen promotion piece, else
// the first.
Move MoveRecognizer::pick(const SuccessorTable& table, int first, int depth) const {
  Move best = table.move(first);
  if (table.next_same(first) == SuccessorTable::kNone) return best;
  if (clockless_on_ && chain_len_ >= depth) {
    for (int i = first; i != SuccessorTable::kNone; i = table.next_same(i))
      if (table.move(i) == chain_[depth - 1]) return chain_[depth - 1];
  }
  std::int64_t best_score = -1;
  for (int i = first; i != SuccessorTable::kNone; i = table.next_same(i)) {
    const Move m = table.move(i);
    const std::uint32_t when = emptied_when_[m.to()];
    std::int64_t score = when > emptied_base_ ? std::int64_t(when - emptied_base_) * 2 : 0;
    if (!m.is_promotion() || m.promotion() == promotion_choice_) score += 1;
    if (score > best_score) {
      best_score = score;
      best = m;
    }
  }
  return best;
}

// The operator names the piece of the promotion the board cannot sense (docs/protocols.md §10).
// Only the top of the chain is re-matched: a lower ply has moves on top of it that were
// matched against the old piece, so a choice for it waits for the next promotion. The
// move is replaced in place, not slid to, so no touch-move or slide flags come of it.
void MoveRecognizer::set_promotion_choice(PieceType type, Millis now, RecognizerEvents& out) {
  promotion_choice_ = type;
  if (match_ != Match::kChain || keys_ != MatchKeys::kOccupancy) return;
  const int top = chain_len_ - 1;
  const Move old = chain_[top];
  if (!old.is_promotion() || old.promotion() == type) return;
  const Move chosen(old.from(), old.to(), MoveKind::kPromotion, type);
  chain_[top] = chosen;
  if (clockless_move_ == old) clockless_move_ = chosen;
  for (int i = 0; i < seen_count_; ++i)
    if (seen_[i].move == old) seen_[i].move = chosen;
  // An under-promotion can mate or stalemate where the queen did not (and the reverse):
  // the game-end wait starts now, when the position became known.
  top_end_ = game_end_after(top, chosen);
  top_end_for_ = chosen;
  top_end_depth_ = chain_len_;
  end_reported_ = false;
  if (top_end_ != GameEndKind::kNone) top_since_ = now;
  if (reported_ != old || reported_ply_ != top) return;
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kTentative;
  e.at = now;
  e.move = chosen;
  e.ply = top;
  for (int i = 0; i < top; ++i) e.path[i] = chain_[i];
  e.side = top % 2 == 0 ? committed_.side_to_move() : ~committed_.side_to_move();
  e.provenance = top == 0 ? provenance_for(chosen, now) : Provenance{now};
  e.game_end = top_end_;
  out.push_back(e);
  reported_ = chosen;
}

// A released first ply that stood for debounce_ms and is now changed (4.7).
void MoveRecognizer::leave_top(Millis now) {
  if (match_ == Match::kChain && chain_len_ == 1 && now - top_since_ >= timing_.debounce)
    released_ = chain_[0];
}

void MoveRecognizer::correct_illegal(Millis now, RecognizerEvents& out) {
  if (!illegal_outstanding_) return;
  illegal_outstanding_ = false;
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kIllegalCorrected;
  e.at = now;
  e.side = committed_.side_to_move();
  out.push_back(e);
}

void MoveRecognizer::to_committed(Millis now, RecognizerEvents& out) {
  leave_top(now);
  correct_illegal(now, out);
  if (reported_) {
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kWithdrawn;
    e.at = now;
    e.move = reported_;
    e.side = reported_ply_ % 2 == 0 ? committed_.side_to_move() : ~committed_.side_to_move();
    out.push_back(e);
    reported_ = Move::none();
    taken_back_ = true;
  }
  match_ = Match::kCommitted;
  chain_len_ = 0;
  analysed_ = true;
  clockless_.clear();
  illegal_completed_ = false;
}

// Provenance bookkeeping for a first ply coming to stand on the board.
void MoveRecognizer::note_first_ply(Move m, Millis now) {
  if (match_ != Match::kChain || chain_len_ != 1) {
    for (int i = 0; i < seen_count_; ++i)
      if (seen_[i].move == m) left_and_returned_ = true;
  } else {
    leave_top(now);
  }
}

void MoveRecognizer::to_chain(int depth, Move m, Millis now, RecognizerEvents& out) {
  correct_illegal(now, out);
  if (match_ == Match::kChain && chain_len_ == depth && chain_[depth - 1] == m) return;
  if (depth == 1) {
    note_first_ply(m, now);
    first_ply_stood_at_ = emptied_count_;
  } else {
    leave_top(now);
  }
  match_ = Match::kChain;
  chain_[depth - 1] = m;
  chain_len_ = depth;
  top_since_ = now;
  analysed_ = true;
  illegal_completed_ = false;
  if (top_end_for_ != m || top_end_depth_ != depth) {
    top_end_ = game_end_after(depth - 1, m);
    top_end_for_ = m;
    top_end_depth_ = depth;
    end_reported_ = false;
  }
  if (reported_ != m || reported_ply_ != depth - 1) {
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kTentative;
    e.at = now;
    e.move = m;
    e.ply = depth - 1;
    for (int i = 0; i + 1 < depth; ++i) e.path[i] = chain_[i];
    e.side = e.ply % 2 == 0 ? committed_.side_to_move() : ~committed_.side_to_move();
    if (depth == 1) {
      e.provenance = provenance_for(m, now);
      record_seen(m, now);
    } else {
      e.provenance.first_seen = now;
    }
    e.game_end = top_end_;
    out.push_back(e);
    reported_ = m;
    reported_ply_ = depth - 1;
  }
  if (clockless_on_) {
    if (depth == 1) return clockless_stand_top(now);
    return clockless_opponent_moved(now, out);  // the caller commits the first ply
  }
  // 6.2.1.2: the first player made the next move; the first ply is completed. The caller
  // commits it, which leaves a chain of two.
  if (depth == kMaxPendingPlies && !next_move_reported_) {
    next_move_reported_ = true;
    out.push_back(completion_event(UnpressedCompletion::kNextMove, now));
  }
}

RecognizerEvent MoveRecognizer::completion_event(UnpressedCompletion why, Millis at) const {
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kCompleted;
  e.at = at;
  e.move = chain_[0];
  e.side = committed_.side_to_move();
  e.completion = why;
  e.provenance = provenance_for(chain_[0], at);
  return e;
}

void MoveRecognizer::to_none(Millis now, RecognizerEvents&) {
  leave_top(now);
  match_ = Match::kNone;
}

Bitboard MoveRecognizer::vacated_by(Move m) const {
  Bitboard b = square_bb(m.from()) | square_bb(m.to());
  if (m.kind() == MoveKind::kCastling) b |= square_bb(rook_from_of(m));
  if (m.kind() == MoveKind::kEnPassant)
    b |= square_bb(make_square(file_of(m.to()), rank_of(m.from())));
  return b;
}

void MoveRecognizer::record_seen(Move m, Millis now) {
  for (int i = 0; i < seen_count_; ++i)
    if (seen_[i].move == m) return;
  if (seen_count_ < int(seen_.size())) seen_[seen_count_++] = {m, now};
}

Provenance MoveRecognizer::provenance_for(Move m, Millis now) const {
  Provenance p;
  p.first_seen = now;
  for (int i = 0; i < seen_count_; ++i) {
    if (seen_[i].move == m)
      p.first_seen = seen_[i].at;
    else
      p.slid_through = true;
  }
  p.taken_back = taken_back_;
  p.piece_missing = left_and_returned_ || (emptied_ & committed_.pieces() & ~vacated_by(m)) != 0;
  p.rook_first = m.kind() == MoveKind::kCastling && first_own_ == rook_from_of(m);
  if (released_ && released_ != m) p.released_other = released_;
  return p;
}

void MoveRecognizer::make_path(int plies) const {
  for (int i = 0; i < plies; ++i) committed_.make(chain_[i]);
}

void MoveRecognizer::unmake_path(int plies) const {
  for (int i = plies - 1; i >= 0; --i) committed_.unmake(chain_[i]);
}

Position MoveRecognizer::after_path(int plies) const {
  Position p = committed_;
  for (int i = 0; i < plies; ++i) p.make(chain_[i]);
  return p;
}

// Checkmate or stalemate after `m` played on top of the first `plies` pending moves.
GameEndKind MoveRecognizer::game_end_after(int plies, Move m) const {
  make_path(plies);
  committed_.make(m);
  GameEndKind kind = GameEndKind::kNone;
  if (count_legal(committed_) == 0)
    kind = committed_.in_check() ? GameEndKind::kCheckmate : GameEndKind::kStalemate;
  committed_.unmake(m);
  unmake_path(plies);
  return kind;
}

Position MoveRecognizer::after(Move m) const {
  Position p = committed_;
  p.make(m);
  return p;
}

}  // namespace eboard::engine
