// Zobrist keys, fixed at compile time from a seeded generator.
//
// Two keys describe a position. The placement key XORs one number per (piece, square):
// it is what a piece-sensing board can see, and the move recognizer matches sensed boards
// against it. The full key adds the side to move, the castling rights and the en passant
// file (only when an en passant capture is legal, as the 9.2 identity of positions asks),
// and is used for repetitions. Occupancy-only boards (docs/protocols.md §10) are matched with
// the occupancy keys: one number per occupied square.
#pragma once

#include <array>
#include <cstdint>

#include "engine/board/types.h"

namespace eboard::engine {

using Key = std::uint64_t;

namespace zobrist {

struct Tables {
  std::array<std::array<Key, kSquareCount>, kPieceCount> piece_square{};
  std::array<Key, 16> castling{};
  std::array<Key, 8> en_passant_file{};
  std::array<Key, kSquareCount> occupancy{};
  Key black_to_move = 0;
};

constexpr Tables make_tables() {
  Tables t;
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  auto next = [&state]() {  // splitmix64
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  for (auto& row : t.piece_square)
    for (auto& k : row) k = next();
  for (int p = 0; p < kPieceCount; ++p)  // no piece on a square adds nothing
    if (type_of(Piece(p)) == kNoPieceType)
      for (auto& k : t.piece_square[p]) k = 0;
  // Castling keys combine one key per right, so rights can be toggled one at a time.
  std::array<Key, 4> right{};
  for (auto& k : right) k = next();
  for (int rights = 0; rights < 16; ++rights)
    for (int bit = 0; bit < 4; ++bit)
      if (rights & (1 << bit)) t.castling[rights] ^= right[bit];
  for (auto& k : t.en_passant_file) k = next();
  for (auto& k : t.occupancy) k = next();
  t.black_to_move = next();
  return t;
}

inline constexpr Tables kTables = make_tables();

constexpr Key piece_square(Piece p, Square s) { return kTables.piece_square[p][s]; }
constexpr Key castling(CastlingRights rights) { return kTables.castling[rights]; }
constexpr Key en_passant_file(int file) { return kTables.en_passant_file[file]; }
constexpr Key occupancy(Square s) { return kTables.occupancy[s]; }
constexpr Key black_to_move() { return kTables.black_to_move; }

}  // namespace zobrist
}  // namespace eboard::engine
