#include "engine/recognize/move_recognizer.h"

#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

Square rook_from_of(Move castling) {
  return make_square(file_of(castling.to()) == 6 ? 7 : 0, rank_of(castling.from()));
}

}  // namespace

MoveRecognizer::MoveRecognizer(const Position& start, RecognizerTiming timing, SensingMode mode)
    : committed_(start), timing_(timing), mode_(mode) {
  if (mode_ == SensingMode::kOccupancy) keys_ = MatchKeys::kOccupancy;
  orientation_fixed_ = mode_ == SensingMode::kOccupancy;
  rebuild();
  sensed_.set_position(committed_);  // until the board reports, assume it is set up
}

void MoveRecognizer::rebuild() {
  table_.build(committed_, keys_);
  second_for_ = Move::none();
}

void MoveRecognizer::use_occupancy_keys() {
  if (keys_ == MatchKeys::kOccupancy || mode_ == SensingMode::kPieces) return;
  keys_ = MatchKeys::kOccupancy;
  rebuild();
}

void MoveRecognizer::reset_since_commit() {
  seen_count_ = 0;
  taken_back_ = false;
  left_and_returned_ = false;
  emptied_ = 0;
  first_own_ = first_opp_ = kNoSquare;
  released_ = Move::none();
}

void MoveRecognizer::on_change(Square s, SquareCode old_code, SquareCode code, Millis now) {
  last_change_ = now;
  analysed_ = false;
  restore_due_ = false;
  if (code == kOccupiedCode) use_occupancy_keys();
  if (code == kEmptyCode && occupies(old_code)) {
    emptied_ |= square_bb(s);
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
  if (changed) evaluate(now, out);
}

// A board set up turned round shows the committed position read backwards; before the
// first completed move that can only mean the board's orientation (protocols.md §1.6).
bool MoveRecognizer::try_orientation(Millis now, RecognizerEvents& out) {
  if (orientation_fixed_) return false;
  const Key rotated_key = keys_ == MatchKeys::kPlacement ? sensed_.rotated_placement_key()
                                                         : sensed_.rotated_occupancy_key();
  if (rotated_key != table_.base_key()) return false;
  std::array<SquareCode, kSquareCount> codes{};
  for (int s = 0; s < kSquareCount; ++s) codes[s] = sensed_.at(rotate_180(Square(s)));
  sensed_.set_all(codes);
  emptied_ = 0;
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
  if (k == table_.base_key()) return to_committed(now, out);
  if (const int i = table_.find(k); i != SuccessorTable::kNone) return to_one(pick(table_, i), now, out);
  if (one_) {
    if (second_for_ != one_) {
      committed_.make(one_);
      second_.build(committed_, keys_);
      committed_.unmake(one_);
      second_for_ = one_;
    }
    if (const int j = second_.find(k); j != SuccessorTable::kNone) return to_two(pick(second_, j), now, out);
  }
  if (try_orientation(now, out)) return evaluate(now, out);
  to_none(now, out);
}

// Among moves showing the same board (occupancy keys only), the one whose arrival square
// was lifted (a capture), else the chosen promotion piece, else the first.
Move MoveRecognizer::pick(const SuccessorTable& table, int first) const {
  Move best = table.move(first);
  if (table.next_same(first) == SuccessorTable::kNone) return best;
  int best_score = -1;
  for (int i = first; i != SuccessorTable::kNone; i = table.next_same(i)) {
    const Move m = table.move(i);
    int score = (emptied_ & square_bb(m.to())) ? 2 : 0;
    if (!m.is_promotion() || m.promotion() == promotion_choice_) score += 1;
    if (score > best_score) {
      best_score = score;
      best = m;
    }
  }
  return best;
}

void MoveRecognizer::leave_one(Millis now) {
  if (match_ == Match::kOne && now - one_since_ >= timing_.debounce) released_ = one_;
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
  leave_one(now);
  correct_illegal(now, out);
  if (reported_) {
    RecognizerEvent e;
    e.kind = RecognizerEvent::Kind::kWithdrawn;
    e.at = now;
    e.move = reported_;
    e.side = match_ == Match::kTwo ? ~committed_.side_to_move() : committed_.side_to_move();
    out.push_back(e);
    reported_ = Move::none();
    taken_back_ = true;
  }
  match_ = Match::kCommitted;
  one_ = two_ = Move::none();
  analysed_ = true;
}

void MoveRecognizer::to_one(Move m, Millis now, RecognizerEvents& out) {
  correct_illegal(now, out);
  if (match_ == Match::kOne && one_ == m) return;
  if (match_ != Match::kOne) {
    for (int i = 0; i < seen_count_; ++i)
      if (seen_[i].move == m) left_and_returned_ = true;
  } else {
    leave_one(now);
  }
  const bool same_move = one_ == m;
  match_ = Match::kOne;
  one_ = m;
  two_ = Move::none();
  one_since_ = now;
  analysed_ = true;
  if (!same_move || reported_ != m) one_end_ = game_end_after(m);
  if (reported_ == m) return;
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kTentative;
  e.at = now;
  e.move = m;
  e.side = committed_.side_to_move();
  e.provenance = provenance_for(m, now);
  record_seen(m, now);
  e.game_end = one_end_;
  out.push_back(e);
  reported_ = m;
}

void MoveRecognizer::to_two(Move m, Millis now, RecognizerEvents& out) {
  correct_illegal(now, out);
  if (match_ == Match::kTwo && two_ == m) return;
  leave_one(now);
  match_ = Match::kTwo;
  two_ = m;
  analysed_ = true;
  if (reported_ == m) return;
  RecognizerEvent e;
  e.kind = RecognizerEvent::Kind::kTentative;
  e.at = now;
  e.move = m;
  e.ply = 1;
  e.base = one_;
  e.side = ~committed_.side_to_move();
  e.provenance.first_seen = now;
  out.push_back(e);
  reported_ = m;
}

void MoveRecognizer::to_none(Millis now, RecognizerEvents&) {
  leave_one(now);
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

GameEndKind MoveRecognizer::game_end_after(Move m) const {
  committed_.make(m);
  GameEndKind kind = GameEndKind::kNone;
  if (count_legal(committed_) == 0)
    kind = committed_.in_check() ? GameEndKind::kCheckmate : GameEndKind::kStalemate;
  committed_.unmake(m);
  return kind;
}

Position MoveRecognizer::after(Move m) const {
  Position p = committed_;
  p.make(m);
  return p;
}

}  // namespace eboard::engine
