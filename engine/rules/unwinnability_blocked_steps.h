// One step of each kind of unit from every square of a set at once, for the flood fills of
// the blocked-structure proof (unwinnability_blocked.h) and the kings' dance
// (unwinnability_dance.h). The hot loops of those fills spend most of their time here,
// hence the shared sideways shifts: a diagonal or king step is a sideways step (or none)
// followed by a vertical one, which needs no file mask.
#pragma once

#include "engine/board/bitboard.h"

namespace eboard::engine::blocked_steps {

inline Bitboard orth_step(Bitboard b) { return north(b) | south(b) | east(b) | west(b); }

inline Bitboard diag_step(Bitboard b) {
  const Bitboard sideways = east(b) | west(b);
  return north(sideways) | south(sideways);
}

inline Bitboard king_step(Bitboard b) {
  const Bitboard sideways = east(b) | west(b);
  const Bitboard row = b | sideways;
  return north(row) | south(row) | sideways;
}

inline Bitboard knight_step(Bitboard b) {
  constexpr Bitboard kFileB = kFileA << 1, kFileG = kFileA << 6;
  const Bitboard not_a = ~kFileA, not_h = ~kFileH;
  const Bitboard not_ab = ~(kFileA | kFileB), not_gh = ~(kFileG | kFileH);
  return ((b & not_h) << 17) | ((b & not_a) << 15) | ((b & not_gh) << 10) | ((b & not_ab) << 6) |
         ((b & not_a) >> 17) | ((b & not_h) >> 15) | ((b & not_ab) >> 10) | ((b & not_gh) >> 6);
}

// Squares of `from` and those reached from them by repeated steps north (or south)
// through squares of `open`: a file-wise fill in three doublings instead of
// one step a round (s joins when it and the squares between it and `from` are open).
template <bool kNorth>
inline Bitboard file_fill(Bitboard from, Bitboard open) {
  const auto move = [](Bitboard b, int ranks) {
    return kNorth ? b << (8 * ranks) : b >> (8 * ranks);
  };
  from |= open & move(from, 1);
  open &= move(open, 1);
  from |= open & move(from, 2);
  open &= move(open, 2);
  return from | (open & move(from, 4));
}

}  // namespace eboard::engine::blocked_steps
