#include "engine/board/position.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace eboard::engine {
namespace {

// Rights lost when a piece leaves or arrives on a square (king and rook home squares).
constexpr std::array<std::uint8_t, kSquareCount> make_castling_loss() {
  std::array<std::uint8_t, kSquareCount> loss{};
  loss[kE1] = kWhiteKingside | kWhiteQueenside;
  loss[kH1] = kWhiteKingside;
  loss[kA1] = kWhiteQueenside;
  loss[kE8] = kBlackKingside | kBlackQueenside;
  loss[kH8] = kBlackKingside;
  loss[kA8] = kBlackQueenside;
  return loss;
}
constexpr auto kCastlingLoss = make_castling_loss();

// The rook's step that goes with the king's castling step.
struct RookStep {
  Square from, to;
};
constexpr RookStep castling_rook(Square king_to) {
  switch (king_to) {
    case kG1: return {kH1, kF1};
    case kC1: return {kA1, kD1};
    case kG8: return {kH8, kF8};
    default: return {kA8, kD8};  // kC8
  }
}

}  // namespace

Position::Position() {
  static constexpr PieceType kBackRank[8] = {kRook, kKnight, kBishop, kQueen,
                                             kKing, kBishop, kKnight, kRook};
  Piece board[kSquareCount] = {};
  for (int f = 0; f < 8; ++f) {
    board[make_square(f, 0)] = make_piece(kWhite, kBackRank[f]);
    board[make_square(f, 1)] = kWhitePawn;
    board[make_square(f, 6)] = kBlackPawn;
    board[make_square(f, 7)] = make_piece(kBlack, kBackRank[f]);
  }
  *this = from_parts(board, kWhite, kAllCastling, kNoSquare, 0, 1);
}

Position Position::from_parts(const Piece (&board)[kSquareCount], Color side_to_move,
                              CastlingRights castling, Square en_passant, int halfmove_clock,
                              int fullmove_number) {
  Position pos(NoInit{});
  pos.states_.reserve(64);
  pos.states_.emplace_back();
  for (int s = 0; s < kSquareCount; ++s)
    if (board[s] != kNoPiece) pos.put_piece(board[s], Square(s));
  pos.side_ = side_to_move;
  pos.game_ply_ = 2 * (fullmove_number > 0 ? fullmove_number - 1 : 0) + side_to_move;
  StateInfo& st = pos.state();
  st.castling = castling;
  st.halfmove_clock = std::uint16_t(halfmove_clock < 0        ? 0
                                    : halfmove_clock > 0xFFFF ? 0xFFFF
                                                              : halfmove_clock);
  st.placement_key = pos.compute_placement_key();
  if (en_passant != kNoSquare) pos.set_en_passant_if_legal(en_passant);
  st.key = pos.full_key(st);
  return pos;
}

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  by_type_[type_of(p)] |= square_bb(s);
  by_color_[color_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  by_type_[type_of(p)] ^= square_bb(s);
  by_color_[color_of(p)] ^= square_bb(s);
  board_[s] = kNoPiece;
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard from_to = square_bb(from) | square_bb(to);
  by_type_[type_of(p)] ^= from_to;
  by_color_[color_of(p)] ^= from_to;
  board_[from] = kNoPiece;
  board_[to] = p;
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(kBlack, s) & pieces(kWhite, kPawn)) |
         (pawn_attacks(kWhite, s) & pieces(kBlack, kPawn)) |
         (knight_attacks(s) & by_type_[kKnight]) | (king_attacks(s) & by_type_[kKing]) |
         (rook_attacks(s, occupied) & pieces(kRook, kQueen)) |
         (bishop_attacks(s, occupied) & pieces(kBishop, kQueen));
}

Key Position::full_key(const StateInfo& st) const {
  Key k = st.placement_key ^ zobrist::castling(st.castling);
  if (st.en_passant != kNoSquare) k ^= zobrist::en_passant_file(file_of(st.en_passant));
  if (side_ == kBlack) k ^= zobrist::black_to_move();
  return k;
}

Key Position::compute_placement_key() const {
  Key k = 0;
  for (Bitboard b = pieces(); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::piece_square(board_[s], s);
  }
  return k;
}

Key Position::compute_key() const {
  StateInfo st = state();
  st.placement_key = compute_placement_key();
  return full_key(st);
}

// The en passant square is kept only when the side to move can legally capture onto it:
// a pawn of theirs attacks it and, after the capture, their king is not attacked (this
// covers pins, the rank-wise discovered check, and a check by another piece).
void Position::set_en_passant_if_legal(Square ep) {
  Color us = side_;
  Square victim = Square(us == kWhite ? ep - 8 : ep + 8);
  Bitboard capturers = pawn_attacks(~us, ep) & pieces(us, kPawn);
  if (!capturers || board_[victim] != make_piece(~us, kPawn) || !empty(ep)) return;
  Square king = king_square(us);
  while (capturers) {
    Square from = pop_lsb(capturers);
    Bitboard occupied = (pieces() ^ square_bb(from) ^ square_bb(victim)) | square_bb(ep);
    Bitboard attackers = attackers_to(king, occupied) & pieces(~us) & ~square_bb(victim);
    if (!attackers) {
      state().en_passant = ep;
      return;
    }
  }
}

void Position::make(Move m) {
  states_.push_back(states_.back());
  StateInfo& st = states_.back();
  Key placement = st.placement_key;
  const Square from = m.from(), to = m.to();
  const Piece moved = board_[from];
  const Color us = side_;
  st.en_passant = kNoSquare;
  st.captured = kNoPiece;
  ++st.halfmove_clock;

  if (m.kind() == MoveKind::kCastling) {
    RookStep rook = castling_rook(to);
    Piece rook_piece = board_[rook.from];
    placement ^= zobrist::piece_square(moved, from) ^ zobrist::piece_square(moved, to) ^
                 zobrist::piece_square(rook_piece, rook.from) ^
                 zobrist::piece_square(rook_piece, rook.to);
    move_piece(from, to);
    move_piece(rook.from, rook.to);
  } else {
    Square victim_square = m.kind() == MoveKind::kEnPassant ? Square(to ^ 8) : to;
    Piece victim = board_[victim_square];
    if (victim != kNoPiece) {
      st.captured = victim;
      st.halfmove_clock = 0;
      placement ^= zobrist::piece_square(victim, victim_square);
      remove_piece(victim_square);
    }
    placement ^= zobrist::piece_square(moved, from) ^ zobrist::piece_square(moved, to);
    move_piece(from, to);
    if (type_of(moved) == kPawn) {
      st.halfmove_clock = 0;
      if (m.kind() == MoveKind::kPromotion) {
        Piece promoted = make_piece(us, m.promotion());
        placement ^= zobrist::piece_square(moved, to) ^ zobrist::piece_square(promoted, to);
        remove_piece(to);
        put_piece(promoted, to);
      }
    }
  }
  st.castling = CastlingRights(st.castling & ~(kCastlingLoss[from] | kCastlingLoss[to]));
  st.placement_key = placement;
  side_ = ~us;
  ++game_ply_;
  if (type_of(moved) == kPawn && (from ^ to) == 16)
    set_en_passant_if_legal(Square((from + to) / 2));
  st.key = full_key(st);
}

void Position::unmake(Move m) {
  const StateInfo& st = state();
  const Square from = m.from(), to = m.to();
  side_ = ~side_;
  --game_ply_;
  if (m.kind() == MoveKind::kCastling) {
    RookStep rook = castling_rook(to);
    move_piece(to, from);
    move_piece(rook.to, rook.from);
  } else {
    if (m.kind() == MoveKind::kPromotion) {
      remove_piece(to);
      put_piece(make_piece(side_, kPawn), to);
    }
    move_piece(to, from);
    if (st.captured != kNoPiece)
      put_piece(st.captured, m.kind() == MoveKind::kEnPassant ? Square(to ^ 8) : to);
  }
  states_.pop_back();
}

Key Position::placement_key_after(Move m) const {
  Key k = state().placement_key;
  const Square from = m.from(), to = m.to();
  const Piece moved = board_[from];
  k ^= zobrist::piece_square(moved, from);
  switch (m.kind()) {
    case MoveKind::kCastling: {
      RookStep rook = castling_rook(to);
      Piece rook_piece = board_[rook.from];
      return k ^ zobrist::piece_square(moved, to) ^ zobrist::piece_square(rook_piece, rook.from) ^
             zobrist::piece_square(rook_piece, rook.to);
    }
    case MoveKind::kEnPassant:
      return k ^ zobrist::piece_square(moved, to) ^
             zobrist::piece_square(board_[to ^ 8], Square(to ^ 8));
    case MoveKind::kPromotion:
      return k ^ zobrist::piece_square(board_[to], to) ^
             zobrist::piece_square(make_piece(side_, m.promotion()), to);
    case MoveKind::kNormal: break;
  }
  return k ^ zobrist::piece_square(board_[to], to) ^ zobrist::piece_square(moved, to);
}

int Position::repetition_count() const {
  const int last = int(states_.size()) - 1;
  const int reach = std::min<int>(state().halfmove_clock, last);
  const Key k = state().key;
  int count = 0;
  for (int back = 2; back <= reach; back += 2)
    if (states_[last - back].key == k) ++count;
  return count;
}

bool Position::is_insufficient_material() const {
  if (pieces(kPawn, kRook) || pieces(kQueen)) return false;
  Bitboard minors = pieces(kKnight, kBishop);
  if (popcount(minors) <= 1) return true;
  // Only bishops, all on squares of one colour: no checkmate is possible.
  if (pieces(kKnight)) return false;
  Bitboard bishops = pieces(kBishop);
  return (bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0;
}

}  // namespace eboard::engine
