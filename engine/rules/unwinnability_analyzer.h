// WinnabilityAnalyzer: the analyses of unwinnability.h with their search tables kept
// between calls (the judge, the benchmarks and a board session reuse one; the free
// functions in unwinnability.h build a fresh one per call).
#pragma once

#include "engine/rules/mate_search.h"
#include "engine/rules/mate_walk.h"
#include "engine/rules/unwinnability.h"

namespace eboard::engine {

class WinnabilityAnalyzer {
 public:
  Analysis analyse(const Position& pos, Color side, AnalysisMode mode, std::uint64_t node_limit);
  Verdict dead_position(const Position& pos, AnalysisMode mode, std::uint64_t node_limit);
  Analysis mating_test(const Position& pos, Color side, MatingTest test, AnalysisMode mode,
                       std::uint64_t node_limit);
  HelpmateSearch& search() { return search_; }

 private:
  // The exhaustive pass of a large budget: walks aimed at each mating corner
  // (unwinnability.cpp).
  bool run_walks(const Position& pos, Color side, std::uint64_t node_limit, Analysis& a);

  HelpmateSearch search_;
  ExhaustiveWalk walks_[4];
};

// Material or blocked-structure proof that `winner` cannot mate (no search).
bool statically_unwinnable(const Position& pos, Color winner);
// Budget rule: the loser has a queen or rook with room to move, so the exhaustive pass
// cannot finish (full mode cuts it short; an answer of true proves nothing).
bool reachable_set_is_huge(const Position& pos, Color winner);
// The static_material mating test (lichess table).
Analysis static_material_verdict(const Position& pos, Color side);

}  // namespace eboard::engine
