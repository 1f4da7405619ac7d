// Basic chess vocabulary: colours, pieces, squares and the 16-bit move.
//
// Squares count a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping), so a
// square's bit in a bitboard is (1 << square). Pieces pack colour and type as
// (colour << 3) | type, which keeps them usable as small array indices.
#pragma once

#include <cstdint>

namespace eboard::engine {

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t {
  kNoPieceType = 0,
  kPawn = 1,
  kKnight = 2,
  kBishop = 3,
  kRook = 4,
  kQueen = 5,
  kKing = 6,
};
constexpr int kPieceTypeCount = 7;  // including kNoPieceType, for array sizes

// clang-format off: one colour a line
enum Piece : std::uint8_t {
  kNoPiece = 0,
  kWhitePawn = 1,
  kWhiteKnight,
  kWhiteBishop,
  kWhiteRook,
  kWhiteQueen,
  kWhiteKing,
  kBlackPawn = 9,
  kBlackKnight,
  kBlackBishop,
  kBlackRook,
  kBlackQueen,
  kBlackKing,
};
// clang-format on
constexpr int kPieceCount = 16;  // array size for indexing by Piece

constexpr Piece make_piece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// clang-format off: one rank a line
enum Square : std::uint8_t {
  kA1,
  kB1,
  kC1,
  kD1,
  kE1,
  kF1,
  kG1,
  kH1,
  kA2,
  kB2,
  kC2,
  kD2,
  kE2,
  kF2,
  kG2,
  kH2,
  kA3,
  kB3,
  kC3,
  kD3,
  kE3,
  kF3,
  kG3,
  kH3,
  kA4,
  kB4,
  kC4,
  kD4,
  kE4,
  kF4,
  kG4,
  kH4,
  kA5,
  kB5,
  kC5,
  kD5,
  kE5,
  kF5,
  kG5,
  kH5,
  kA6,
  kB6,
  kC6,
  kD6,
  kE6,
  kF6,
  kG6,
  kH6,
  kA7,
  kB7,
  kC7,
  kD7,
  kE7,
  kF7,
  kG7,
  kH7,
  kA8,
  kB8,
  kC8,
  kD8,
  kE8,
  kF8,
  kG8,
  kH8,
  kNoSquare = 64,
};
// clang-format on
constexpr int kSquareCount = 64;

constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// The same square seen from the other side of the board (a1 <-> h8): how a board set up
// turned round reports squares.
constexpr Square rotate_180(Square s) { return Square(63 - s); }
// The same square with the ranks mirrored (a1 <-> a8): White's view of Black's square.
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
constexpr bool is_valid(Square s) { return s < kSquareCount; }

// Castling rights as four bits.
enum CastlingRights : std::uint8_t {
  kNoCastling = 0,
  kWhiteKingside = 1,
  kWhiteQueenside = 2,
  kBlackKingside = 4,
  kBlackQueenside = 8,
  kAllCastling = 15,
};

enum class MoveKind : std::uint8_t { kNormal = 0, kPromotion = 1, kEnPassant = 2, kCastling = 3 };

// A move in 16 bits: from (6) | to (6) | kind (2) | promotion piece (2, knight..queen).
// Castling is encoded as the king's own step (e1g1, e1c1, e8g8, e8c8), as in UCI.
class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::kNormal,
                 PieceType promotion = kKnight)
      : bits_(std::uint16_t(from | (to << 6) | (int(kind) << 12) | ((promotion - kKnight) << 14))) {
  }
  static constexpr Move none() { return Move(); }

  constexpr Square from() const { return Square(bits_ & 63); }
  constexpr Square to() const { return Square((bits_ >> 6) & 63); }
  constexpr MoveKind kind() const { return MoveKind((bits_ >> 12) & 3); }
  constexpr PieceType promotion() const { return PieceType(((bits_ >> 14) & 3) + kKnight); }
  constexpr bool is_promotion() const { return kind() == MoveKind::kPromotion; }
  constexpr std::uint16_t raw() const { return bits_; }
  constexpr explicit operator bool() const { return bits_ != 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  std::uint16_t bits_ = 0;  // 0 is a1a1, never a legal move: it means "no move"
};

}  // namespace eboard::engine
