// "Cannot checkmate by any possible series of legal moves" (FIDE 5.1.2, 5.2.2, 6.9,
// 7.5.5; docs/rules.md D7 and D10).
//
// The question: from this position, is there any sequence of legal moves, both sides
// cooperating, that ends with `side` checkmating the other (a helpmate)? The answer must
// never be wrong, so there are three verdicts: winnable (a mating line was found and is
// returned as the proof), unwinnable (proven by one of the sound arguments below) and
// undetermined (the budget ran out first).
//
// The method follows the ideas published for the Chess Unwinnability Analyzer
// (M. Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022; our own code, written
// from the paper and README):
//   1. material rules that need no search (the intended winner has a lone king, or only
//      pieces that cannot mate the material the loser can ever own);
//   2. a blocked-structure analysis (unwinnability_blocked.h): pawns that can provably
//      never move nor be taken split the board (with pawns that never leave their files,
//      kings walled in for good and units whose capture would stalemate,
//      unwinnability_stalemate.h); no mate square is possible when no unit of the winner
//      can ever check there, or its flights cannot all be covered at once (the winner's
//      king guards one neighbourhood, the loser's blockers are counted); then a tempo
//      argument over the kings' squares when the loser can move only its king
//      (unwinnability_dance.h);
//   3. a helpmate search (mate_search.h): iterative deepening, a transposition table and
//      "mating corner" move ordering; a line it finds is the winnable proof; when the
//      reachable positions are few it explores all of them, which proves unwinnable.
// Quick mode runs 1 and 2, then a greedy helpmate search of `node_limit` nodes (none by
// default, kDefaultQuickNodeLimit); full mode runs 1 and 2, then gives the searches
// `node_limit` nodes.
//
// Not modelled, as in the analyzer: the 75-move and fivefold rules (9.6) that would cut a
// long helpmate short. The position is taken as given: castling rights and the en passant
// square as in the FEN.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/board/position.h"
#include "engine/rules/rule_set.h"

namespace eboard::engine {

enum class Verdict { kWinnable, kUnwinnable, kUndetermined };
enum class AnalysisMode { kQuick, kFull };

// Why the verdict is what it is (for logs, tests and the judge's statistics).
enum class VerdictReason {
  kNone,              // undetermined
  kLoneKing,          // the winner has nothing but its king
  kMaterial,          // the winner's pieces can never mate what the loser can own
  kBlockedStructure,  // unwinnability_blocked.h: the loser's king can never be checked
  kSearchExhausted,   // every reachable position was visited, none is a mate
  kHelpmateFound,     // `line` holds the mating sequence
  kForcedMateInOne,   // pskov: `line` reaches a position where the mate cannot be avoided
  kStaticTable,       // static_material: the lichess table decided
};

struct Analysis {
  Verdict verdict = Verdict::kUndetermined;
  VerdictReason reason = VerdictReason::kNone;
  std::uint64_t nodes = 0;  // search nodes spent
  std::vector<Move> line;   // the helpmate (from the given position) when found by search
};

inline constexpr std::uint64_t kDefaultFullNodeLimit = 500'000;
// Quick mode: the static proofs, then a greedy helpmate search of this many nodes. The
// default is none: quick mode serves D7 after every move, where only "unwinnable for
// both colours" ends the game, and the greedy search can only prove "winnable" (16 nodes
// proved a third of real positions winnable but cost ~16 µs a query against ~1.3 µs).
// Callers wanting quick "winnable" proofs pass a budget (eboard-judge --max-nodes).
inline constexpr std::uint64_t kDefaultQuickNodeLimit = 0;

// Can `side` checkmate by some series of legal moves from `pos` (docs/rules.md D10
// `fide_helpmate`)? `node_limit` bounds the search (0: no search, static reasoning only).
Analysis analyse_winnability(const Position& pos, Color side, AnalysisMode mode,
                             std::uint64_t node_limit);
inline Analysis analyse_winnability(const Position& pos, Color side,
                                    AnalysisMode mode = AnalysisMode::kFull) {
  return analyse_winnability(
      pos, side, mode,
      mode == AnalysisMode::kFull ? kDefaultFullNodeLimit : kDefaultQuickNodeLimit);
}

// Dead position (5.2.2, D7): neither side can mate. kWinnable here means "not dead" (one
// side was shown able to mate), kUnwinnable "dead", kUndetermined "not known".
Verdict is_dead_position(const Position& pos, AnalysisMode mode, std::uint64_t node_limit);

// The rule set's `mating_test` (docs/rules.md D10): may `side` still be given a win when the
// opponent's flag falls (or the opponent resigns)? kFideHelpmate is the analysis above;
// kStaticMaterial the lichess/python-chess table, answered as the table says (that rule
// set chose it; the table may call a blocked position winnable); kPskovForcedMateInOne is S4 13c(2)
// (unwinnability_pskov.h). kUscf14e is not implemented: it answers kUndetermined.
Analysis analyse_mating_test(const Position& pos, Color side, MatingTest test, AnalysisMode mode,
                             std::uint64_t node_limit);

// The static material table alone (step 1): kUnwinnable with its reason, or kUndetermined.
Analysis material_verdict(const Position& pos, Color side);

}  // namespace eboard::engine
