// Bitboards and attack tables.
//
// Sliding attacks use "fancy" magic bitboards: (occupancy & mask) * magic >> shift indexes
// a per-square slice of one shared table. Only 64-bit multiplication is needed, so it is
// portable (x86-64, 64-bit ARM such as the Raspberry Pi 4/5). With EBOARD_USE_PEXT (x86-64
// with BMI2, off by default) the index is pext(occupancy, mask) instead. The magics are
// found at start-up by a seeded search, so the tables never change after init and the
// same seed always gives the same tables.
//
// Tables are filled before main() by a static initializer in bitboard.cpp; nothing else
// may use them from a static initializer of its own.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "engine/board/types.h"

#if defined(EBOARD_USE_PEXT)
#include <immintrin.h>
#endif

namespace eboard::engine {

using Bitboard = std::uint64_t;

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank2 = kRank1 << 8;
constexpr Bitboard kRank3 = kRank1 << 16;
constexpr Bitboard kRank4 = kRank1 << 24;
constexpr Bitboard kRank5 = kRank1 << 32;
constexpr Bitboard kRank6 = kRank1 << 40;
constexpr Bitboard kRank7 = kRank1 << 48;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(int file) { return kFileA << file; }
constexpr Bitboard rank_bb(int rank) { return kRank1 << (8 * rank); }
// Where the CPU has no population-count instruction in the portable baseline (x86-64
// without POPCNT), the compiler calls a slow library routine; the SWAR sum is faster.
constexpr int popcount(Bitboard b) {
#if defined(__POPCNT__) || defined(__aarch64__) || !defined(__x86_64__)
  return std::popcount(b);
#else
  b = b - ((b >> 1) & 0x5555555555555555ULL);
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return int((b * 0x0101010101010101ULL) >> 56);
#endif
}
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }
// Returns the lowest set square and clears it; b must not be empty.
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
// The squares of a bitboard, a1 first (events list squares in this order).
inline std::vector<Square> squares_of(Bitboard b) {
  std::vector<Square> out;
  while (b) out.push_back(pop_lsb(b));
  return out;
}

// Shifts that drop what falls off the board edge.
constexpr Bitboard north(Bitboard b) { return b << 8; }
constexpr Bitboard south(Bitboard b) { return b >> 8; }
constexpr Bitboard east(Bitboard b) { return (b & ~kFileH) << 1; }
constexpr Bitboard west(Bitboard b) { return (b & ~kFileA) >> 1; }
constexpr Bitboard north_east(Bitboard b) { return (b & ~kFileH) << 9; }
constexpr Bitboard north_west(Bitboard b) { return (b & ~kFileA) << 7; }
constexpr Bitboard south_east(Bitboard b) { return (b & ~kFileH) >> 7; }
constexpr Bitboard south_west(Bitboard b) { return (b & ~kFileA) >> 9; }
// One step forward for the given colour.
template <Color C>
constexpr Bitboard pawn_push(Bitboard b) {
  return C == kWhite ? north(b) : south(b);
}
// Squares attacked by a set of pawns of colour C.
template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard pawns) {
  return C == kWhite ? north_east(pawns) | north_west(pawns)
                     : south_east(pawns) | south_west(pawns);
}

namespace detail {
struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occupied) const {
#if defined(EBOARD_USE_PEXT)
    return unsigned(_pext_u64(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};
extern Magic rook_magics[kSquareCount];
extern Magic bishop_magics[kSquareCount];
extern Bitboard pawn_attacks[2][kSquareCount];
extern Bitboard knight_attacks[kSquareCount];
extern Bitboard king_attacks[kSquareCount];
extern Bitboard between[kSquareCount][kSquareCount];
extern Bitboard line[kSquareCount][kSquareCount];
}  // namespace detail

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::rook_magics[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::bishop_magics[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
inline Bitboard knight_attacks(Square s) { return detail::knight_attacks[s]; }
inline Bitboard king_attacks(Square s) { return detail::king_attacks[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return detail::pawn_attacks[c][s]; }
// Squares strictly between a and b when they share a rank, file or diagonal; else empty.
inline Bitboard between_bb(Square a, Square b) { return detail::between[a][b]; }
// The whole line (edge to edge) through a and b when aligned; else empty.
inline Bitboard line_bb(Square a, Square b) { return detail::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return (line_bb(a, b) & square_bb(c)) != 0; }

namespace detail {
constexpr std::array<std::array<std::uint8_t, kSquareCount>, kSquareCount> make_distances() {
  std::array<std::array<std::uint8_t, kSquareCount>, kSquareCount> d{};
  for (int a = 0; a < kSquareCount; ++a)
    for (int b = 0; b < kSquareCount; ++b) {
      const int files = a % 8 > b % 8 ? a % 8 - b % 8 : b % 8 - a % 8;
      const int ranks = a / 8 > b / 8 ? a / 8 - b / 8 : b / 8 - a / 8;
      d[a][b] = std::uint8_t(files > ranks ? files : ranks);
    }
  return d;
}
inline constexpr auto kDistances = make_distances();
}  // namespace detail

// King steps from a to b (Chebyshev distance); a table: the move scorer asks it per move.
inline int square_distance(Square a, Square b) { return detail::kDistances[a][b]; }

// Attacks of a piece of the given type (not pawn) from s with the given occupancy.
// Inline: the helpmate search's move scorer calls it for every move it scores.
inline Bitboard attacks_bb(PieceType type, Square s, Bitboard occupied) {
  switch (type) {
    case kKnight: return knight_attacks(s);
    case kBishop: return bishop_attacks(s, occupied);
    case kRook: return rook_attacks(s, occupied);
    case kQueen: return queen_attacks(s, occupied);
    case kKing: return king_attacks(s);
    default: return 0;
  }
}

}  // namespace eboard::engine
