// What the helpmate search (mate_search.h) and the exhaustive walk (mate_walk.h) answer.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/board/position.h"

namespace eboard::engine {

enum class SearchOutcome { kMateFound, kExhausted, kLimitReached };
// What the search looks for: a checkmate of the loser (FIDE helpmate), or a position with
// the loser to move in which every legal move allows a mate in one (S4 13c(2), pskov).
enum class SearchGoal { kCheckmate, kForcedMateInOne };

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::kLimitReached;
  std::uint64_t nodes = 0;
  std::vector<Move> line;  // from the root to the mate when found
};

// Decides cheaply whether `winner` provably cannot mate from `pos` (used to prune).
using StaticProof = bool (*)(const Position& pos, Color winner);

}  // namespace eboard::engine
