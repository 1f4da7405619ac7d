// Position: the placement, side to move, castling rights, en passant square and move
// counters, with make/unmake and the history needed for repetitions.
//
// Invariants (checked by `validate()` and kept by make/unmake):
// - exactly one king of each colour;
// - castling rights only where the king and that rook stand on their original squares;
// - the en passant square is set only when an en passant capture is legal right now
//   (so it is part of the 9.2 identity of positions exactly when it matters).
// Irregular positions that a real game reaches when an illegal move stands (docs/rules.md D5,
// D11) are allowed: the side not to move may be in check, and pawns may stand on the
// first or last rank. Move generation from them is well defined (a king is never
// captured; a pawn on its last rank has no moves).
#pragma once

#include <string>
#include <vector>

#include "engine/board/bitboard.h"
#include "engine/board/types.h"
#include "engine/board/zobrist.h"

namespace eboard::engine {

// What make() changes and unmake() cannot recompute. One entry per ply played from the
// root, so repetitions can be found by walking back.
struct StateInfo {
  Key key = 0;            // full key: placement, side, castling, legal en passant file
  Key placement_key = 0;  // piece-on-square only
  CastlingRights castling = kNoCastling;
  Square en_passant = kNoSquare;     // set only when an en passant capture is legal
  Piece captured = kNoPiece;         // the piece taken by the move that led here
  std::uint16_t halfmove_clock = 0;  // plies since the last capture or pawn move
};

class Position {
 public:
  // The standard start position.
  Position();

  // Builds a position from its parts; `validate()` says whether it is acceptable.
  // Used by the FEN reader; the en passant square is kept only when a capture is legal.
  static Position from_parts(const Piece (&board)[kSquareCount], Color side_to_move,
                             CastlingRights castling, Square en_passant, int halfmove_clock,
                             int fullmove_number);

  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == kNoPiece; }
  Bitboard pieces() const { return by_color_[kWhite] | by_color_[kBlack]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  Square king_square(Color c) const { return lsb(pieces(c, kKing)); }

  Color side_to_move() const { return side_; }
  CastlingRights castling_rights() const { return state().castling; }
  bool can_castle(CastlingRights r) const { return (state().castling & r) != 0; }
  Square en_passant_square() const { return state().en_passant; }
  int halfmove_clock() const { return state().halfmove_clock; }
  int fullmove_number() const { return 1 + game_ply_ / 2; }
  // Plies since the start of the game (0 at White's first move of a standard game).
  int game_ply() const { return game_ply_; }
  // Plies made on this object since it was built (the depth of the history).
  int plies_played() const { return int(states_.size()) - 1; }
  Key key() const { return state().key; }
  Key placement_key() const { return state().placement_key; }
  Piece captured_piece() const { return state().captured; }

  // Pieces of either colour that attack s, given the occupancy.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  bool is_attacked(Square s, Color by) const {
    return (attackers_to(s, pieces()) & pieces(by)) != 0;
  }
  // Opposing pieces giving check to the side to move.
  Bitboard checkers() const { return attackers_to(king_square(side_), pieces()) & pieces(~side_); }
  bool in_check() const { return checkers() != 0; }
  // True when the side that just moved left its own king attacked (docs/rules.md D5, D11).
  bool opponent_in_check() const { return is_attacked(king_square(~side_), side_); }

  // Plays a move that is legal here (as generated). unmake() takes back the last one.
  void make(Move m);
  void unmake(Move m);
  // The placement key after m, without playing it (what a sensed board would show).
  Key placement_key_after(Move m) const;
  // True when m is one of this position's legal moves.
  bool is_legal(Move m) const;
  // True when m takes a piece (en passant included).
  bool is_capture(Move m) const {
    return m.kind() == MoveKind::kEnPassant || (m.kind() != MoveKind::kCastling && !empty(m.to()));
  }

  // How many times the current position occurred before in the history (same full key,
  // same side to move, within the halfmove clock's reach). 2 means threefold now.
  int repetition_count() const;
  // Neither side has mating material by the simple count (K v K, K+minor v K, and
  // bishops all on one colour). The full "any series of legal moves" test is the
  // unwinnability analysis, not this.
  bool is_insufficient_material() const;

  // Recomputes both keys from scratch (tests compare them with the incremental ones).
  Key compute_key() const;
  Key compute_placement_key() const;
  // Same pieces, side, castling rights and legal en passant (the 9.2 identity).
  bool same_position(const Position& other) const { return key() == other.key(); }

 private:
  struct NoInit {};
  explicit Position(NoInit) {}
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  const StateInfo& state() const { return states_.back(); }
  StateInfo& state() { return states_.back(); }
  // Sets the en passant square of the current state if a capture onto it is legal.
  void set_en_passant_if_legal(Square ep);
  Key full_key(const StateInfo& st) const;

  Piece board_[kSquareCount] = {};
  Bitboard by_type_[kPieceTypeCount] = {};
  Bitboard by_color_[2] = {};
  Color side_ = kWhite;
  int game_ply_ = 0;
  std::vector<StateInfo> states_;
};

}  // namespace eboard::engine
