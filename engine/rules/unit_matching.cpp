#include "engine/rules/unit_matching.h"

#include <algorithm>

namespace eboard::engine {
namespace {

// Kuhn's augmenting path: can square `i` of `squares` get a unit, possibly by moving
// others to their alternatives? `owner[u]` is the index of the square unit u holds.
bool assign(int i, const Square* squares, const Bitboard* units, int n_units, int* owner,
            unsigned* seen) {
  for (int u = 0; u < n_units; ++u) {
    if (!(units[u] & square_bb(squares[i])) || (*seen & (1u << u))) continue;
    *seen |= 1u << u;
    if (owner[u] < 0 || assign(owner[u], squares, units, n_units, owner, seen)) {
      owner[u] = i;
      return true;
    }
  }
  return false;
}

}  // namespace

bool units_can_hold_all(Bitboard needed, const Bitboard* units, int n_units) {
  if (popcount(needed) > n_units) return false;
  Square squares[kMaxMatchedUnits];  // no more squares than units (checked above)
  int n = 0;
  for (Bitboard b = needed; b;) squares[n++] = pop_lsb(b);
  int owner[kMaxMatchedUnits];
  std::fill(owner, owner + n_units, -1);
  for (int i = 0; i < n; ++i) {
    unsigned seen = 0;
    if (!assign(i, squares, units, n_units, owner, &seen)) return false;
  }
  return true;
}

}  // namespace eboard::engine
