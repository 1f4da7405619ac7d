#include "engine/rules/unwinnability_stalemate.h"

namespace eboard::engine {

bool capture_stalemates(Square q, const StalemateTrapInput& in) {
  const Bitboard guarded = king_attacks(q) | square_bb(q);  // where the taker then guards
  const Bitboard free_king = in.own_king_reach & ~guarded;  // where c's king may stand
  for (Bitboard ks = free_king; ks;) {
    if (king_attacks(pop_lsb(ks)) & free_king) return false;  // a step c's king may have
  }
  for (Bitboard fs = king_attacks(q) & in.enemy_king_reach; fs;) {
    const Square from = pop_lsb(fs);
    for (Bitboard ks = free_king; ks;) {
      const Square k = pop_lsb(ks);
      if (!line_bb(from, k) || (between_bb(from, k) & in.frozen)) continue;
      const bool orthogonal = file_of(from) == file_of(k) || rank_of(from) == rank_of(k);
      if (orthogonal ? in.enemy_orthogonal : in.enemy_diagonal) return false;
    }
  }
  return true;
}

}  // namespace eboard::engine
