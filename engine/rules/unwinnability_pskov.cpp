#include "engine/rules/unwinnability_pskov.h"

namespace eboard::engine {

// docs/rules.md §4.55: K+N+N (or less) against a bare king, no pawns. Every position it can
// lead to has that material or less (K+N v K never mates at all), and
// UnwinnabilityCorpus.TwoKnightsNeverForceMateInOne enumerates every placement of
// K+N+N v K with the bare king to move: none has a legal move while all of them allow a
// mate in one. So no S4 13c(2) position can arise.
bool knights_against_bare_king(const Position& pos, Color side) {
  const Bitboard ours = pos.pieces(side) & ~pos.pieces(kKing);
  return pos.pieces(kPawn) == 0 && pos.pieces(~side) == pos.pieces(~side, kKing) &&
         ours == pos.pieces(side, kKnight) && popcount(ours) <= 2;
}

Analysis analyse_pskov(WinnabilityAnalyzer& analyzer, const Position& pos, Color side,
                       AnalysisMode mode, std::uint64_t node_limit) {
  Analysis helpmate = analyzer.analyse(pos, side, mode, node_limit);
  if (helpmate.verdict == Verdict::kUnwinnable) return helpmate;  // stricter test
  Analysis a;
  a.nodes = helpmate.nodes;
  if (pos.side_to_move() != side && count_legal(pos) == 0 && pos.in_check()) {
    a.verdict = Verdict::kWinnable;  // already mated
    a.reason = VerdictReason::kForcedMateInOne;
    return a;
  }
  if (knights_against_bare_king(pos, side)) {
    a.verdict = Verdict::kUnwinnable;
    a.reason = VerdictReason::kMaterial;
    return a;
  }
  if (node_limit == 0) return a;
  auto prune = [](const Position& p, Color winner) { return statically_unwinnable(p, winner); };
  SearchResult r =
      analyzer.search().find_helpmate(pos, side, node_limit / 2, SearchGoal::kForcedMateInOne);
  if (r.outcome != SearchOutcome::kMateFound && mode == AnalysisMode::kFull) {
    const std::uint64_t used = r.nodes;
    r = analyzer.search().explore_all(pos, side, node_limit - used, prune,
                                      SearchGoal::kForcedMateInOne);
    r.nodes += used;
  }
  a.nodes += r.nodes;
  if (r.outcome == SearchOutcome::kMateFound) {
    a.verdict = Verdict::kWinnable;
    a.reason = VerdictReason::kForcedMateInOne;
    a.line = r.line;
  } else if (r.outcome == SearchOutcome::kExhausted) {
    a.verdict = Verdict::kUnwinnable;
    a.reason = VerdictReason::kSearchExhausted;
  }
  return a;
}

}  // namespace eboard::engine
