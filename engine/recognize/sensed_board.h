// What the board's sensors show right now: one code per square and the keys the matcher
// looks up, kept up to date in O(1) per square change.
//
// A piece-sensing board (DGT and most others) reports the piece on each square; an
// occupancy-only board (Pegasus, Centaur, Certabo without recognition, docs/protocols.md §10)
// only whether a square is occupied. Both keys are kept for every board so that the
// matcher can use whichever the board supports: the placement key XORs
// zobrist::piece_square over identified pieces (the same number Position keeps), the
// occupancy key XORs zobrist::occupancy over occupied squares. The DGT result pieces
// (docs/protocols.md §1.6 codes 0D-0F) are physical pieces but never part of a chess
// position, so they count towards neither key (as PicoChess treats them).
//
// Squares here are engine squares after the orientation mapping; the recognizer maps
// the board's own numbering before calling set().
#pragma once

#include <array>
#include <cstdint>

#include "engine/board/bitboard.h"
#include "engine/board/position.h"
#include "engine/board/types.h"
#include "engine/board/zobrist.h"

namespace eboard::engine {

// One square as sensed: 0 empty, a Piece value (1-6, 9-14), or one of the codes below.
using SquareCode = std::uint8_t;
inline constexpr SquareCode kEmptyCode = 0;
inline constexpr SquareCode kOccupiedCode = 16;     // occupied, identity unknown ('?')
inline constexpr SquareCode kResultDrawCode = 17;   // DGT result piece "1": draw
inline constexpr SquareCode kResultWhiteCode = 18;  // "2": white wins
inline constexpr SquareCode kResultBlackCode = 19;  // "3": black wins
inline constexpr int kSquareCodeCount = 20;

constexpr bool is_piece_code(SquareCode c) {
  return c != 0 && c < 16 && (c & 7) != 0 && (c & 7) != 7;
}
constexpr bool is_result_code(SquareCode c) {
  return c >= kResultDrawCode && c <= kResultBlackCode;
}
// Counts for a chess position: identified pieces and unknown occupied squares.
constexpr bool occupies(SquareCode c) { return is_piece_code(c) || c == kOccupiedCode; }

// The script's letters: '.', FEN letters, '?', '1' '2' '3'; kNoCode for anything else.
inline constexpr SquareCode kNoCode = 255;
SquareCode square_code_from_char(char c);
char square_code_to_char(SquareCode c);

class SensedBoard {
 public:
  SensedBoard() = default;

  SquareCode at(Square s) const { return codes_[s]; }
  // Changes one square; returns false when nothing changed.
  bool set(Square s, SquareCode code) {
    const SquareCode old = codes_[s];
    if (old == code) return false;
    remove(s, old);
    add(s, code);
    codes_[s] = code;
    return true;
  }
  void set_all(const std::array<SquareCode, kSquareCount>& codes) {
    for (int s = 0; s < kSquareCount; ++s) set(Square(s), codes[s]);
  }
  // The sensed board of a position (what a piece-sensing board shows).
  void set_position(const Position& pos) {
    for (int s = 0; s < kSquareCount; ++s) set(Square(s), pos.piece_on(Square(s)));
  }

  Key placement_key() const { return placement_key_; }
  Key occupancy_key() const { return occupancy_key_; }
  // The keys of the same sensors read as a board turned round (square s is 63 - s).
  Key rotated_placement_key() const { return rotated_placement_key_; }
  Key rotated_occupancy_key() const { return rotated_occupancy_key_; }
  int count(SquareCode code) const { return counts_[code]; }
  // Squares holding a piece or an unknown occupant (result pieces excluded).
  Bitboard occupied() const { return occupied_; }
  Bitboard result_pieces() const { return result_pieces_; }
  int unknown_count() const { return counts_[kOccupiedCode]; }
  int color_count(Color c) const { return color_counts_[c]; }

 private:
  void add(Square s, SquareCode c) {
    ++counts_[c];
    if (is_piece_code(c)) {
      placement_key_ ^= zobrist::piece_square(Piece(c), s);
      rotated_placement_key_ ^= zobrist::piece_square(Piece(c), rotate_180(s));
      ++color_counts_[color_of(Piece(c))];
    }
    if (occupies(c)) {
      occupancy_key_ ^= zobrist::occupancy(s);
      rotated_occupancy_key_ ^= zobrist::occupancy(rotate_180(s));
      occupied_ |= square_bb(s);
    }
    if (is_result_code(c)) result_pieces_ |= square_bb(s);
  }
  void remove(Square s, SquareCode c) {
    --counts_[c];
    if (is_piece_code(c)) {
      placement_key_ ^= zobrist::piece_square(Piece(c), s);
      rotated_placement_key_ ^= zobrist::piece_square(Piece(c), rotate_180(s));
      --color_counts_[color_of(Piece(c))];
    }
    if (occupies(c)) {
      occupancy_key_ ^= zobrist::occupancy(s);
      rotated_occupancy_key_ ^= zobrist::occupancy(rotate_180(s));
      occupied_ &= ~square_bb(s);
    }
    if (is_result_code(c)) result_pieces_ &= ~square_bb(s);
  }

  std::array<SquareCode, kSquareCount> codes_{};
  std::array<int, kSquareCodeCount> counts_{kSquareCount};  // all empty at first
  std::array<int, 2> color_counts_{};
  Key placement_key_ = 0;
  Key occupancy_key_ = 0;
  Key rotated_placement_key_ = 0;
  Key rotated_occupancy_key_ = 0;
  Bitboard occupied_ = 0;
  Bitboard result_pieces_ = 0;
};

// The occupancy key of a position (an occupancy-only board's view of it).
Key occupancy_key(const Position& pos);
// The occupancy key after a legal move, without playing it; `base` is occupancy_key(pos).
Key occupancy_key_after(const Position& pos, Move m, Key base);

}  // namespace eboard::engine
