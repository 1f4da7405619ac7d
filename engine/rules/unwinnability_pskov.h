// The Pskov blitz rules' mating test, S4 13c(2) (docs/rules.md D10, §5a decision 3):
// the claimant has "sufficient mating material" when a position can arise in which the
// claimant mates in one and the side to move (the opponent) cannot avoid it.
//
// Our reading: some series of legal moves reaches a position with the opponent to move,
// having at least one legal move, in which every legal move allows the claimant a mate
// in one (or, at the root only, the opponent is already checkmated: a mate reached on
// the way is not such a position, docs/rules.md §4.55). Such a position is a helpmate's
// second-to-last step, so "unwinnable" under fide_helpmate implies unwinnable here; the
// winnable proof is the line to such a position, found by the same searches with the
// goal changed.
#pragma once

#include "engine/rules/unwinnability_analyzer.h"

namespace eboard::engine {

// K+N+N or less against a bare king, no pawns: never a forced mate in one (docs/rules.md §4.55).
bool knights_against_bare_king(const Position& pos, Color side);

Analysis analyse_pskov(WinnabilityAnalyzer& analyzer, const Position& pos, Color side,
                       AnalysisMode mode, std::uint64_t node_limit);

}  // namespace eboard::engine
