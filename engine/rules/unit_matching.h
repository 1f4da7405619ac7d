// Counting blockers: can distinct units stand on all of a few squares at once, each unit
// only on the squares it can reach? A bipartite matching (Kuhn's augmenting paths),
// used by the blocked-structure proof (unwinnability_blocked.h): the flight squares of a
// king that the winner cannot attack must each hold a different unit of the loser.
#pragma once

#include "engine/board/bitboard.h"

namespace eboard::engine {

inline constexpr int kMaxMatchedUnits = 16;

// True when every square of `squares` can get its own unit, unit u standing
// only on `units[u]` (n_units <= kMaxMatchedUnits).
bool units_can_hold_all(Bitboard squares, const Bitboard* units, int n_units);

}  // namespace eboard::engine
