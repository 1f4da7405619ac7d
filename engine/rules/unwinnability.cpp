#include "engine/rules/unwinnability.h"

#include <algorithm>

#include "engine/rules/mate_order.h"
#include "engine/rules/mate_search.h"
#include "engine/rules/unwinnability_analyzer.h"
#include "engine/rules/unwinnability_blocked.h"
#include "engine/rules/unwinnability_dance.h"
#include "engine/rules/unwinnability_pskov.h"

namespace eboard::engine {
namespace {

Bitboard non_king(const Position& pos, Color c) { return pos.pieces(c) & ~pos.pieces(kKing); }

bool one_colour(Bitboard squares) {
  return (squares & kDarkSquares) == 0 || (squares & ~kDarkSquares) == 0;
}

// From this budget on, the exhaustive pass is cut short where it cannot finish.
constexpr std::uint64_t kLargeBudget = 200'000;

// The blocked-structure proofs: where units can ever go (unwinnability_blocked.h), then
// whose turn it is when the kings meet (unwinnability_dance.h).
bool blocked_cannot_mate(const Position& pos, Color winner) {
  if (!may_be_blocked(pos)) return false;
  const BlockedAnalysis a = analyse_blocked(pos, winner);
  return cannot_mate(a, winner) || dance_cannot_mate(pos, a, winner);
}

Analysis unwinnable(VerdictReason why) {
  Analysis a;
  a.verdict = Verdict::kUnwinnable;
  a.reason = why;
  return a;
}

}  // namespace

// Each rule below is a theorem about every position the given one can lead to; with no
// pawns on the board neither side can ever own a piece type it lacks now.
Analysis material_verdict(const Position& pos, Color side) {
  const Color loser = ~side;
  const Bitboard ours = non_king(pos, side);
  if (ours == 0) return unwinnable(VerdictReason::kLoneKing);  // a king never gives check
  if (pos.pieces(kPawn)) return {};
  const Bitboard theirs = non_king(pos, loser);
  const Bitboard our_bishops = pos.pieces(side, kBishop);

  // A lone knight against nothing but queens (K+N v K, FIDE 5.2.2's classic, included).
  // Say the knight checks from K+(1,2) (the other seven ways are the board's mirror
  // images). The two squares next to both the king and the knight, K+(0,1) and K+(1,1),
  // must be empty (a queen there would take the knight) and so covered by the winner's
  // king, which fits only on K+(0,2). Then K+(1,0), on the board because the knight's
  // file is, is attacked by neither: a queen must stand there, and it takes the knight
  // through the empty K+(1,1). So no mate, whatever the queens (the lichess table
  // agrees: lichess-org/scalachess InsufficientMatingMaterial).
  if (theirs == pos.pieces(loser, kQueen) && ours == pos.pieces(side, kKnight) &&
      !more_than_one(ours))
    return unwinnable(VerdictReason::kMaterial);

  if (ours == our_bishops && one_colour(our_bishops)) {
    const Bitboard colour = (our_bishops & kDarkSquares) ? kDarkSquares : ~kDarkSquares;
    // Only bishops on one colour give check, so the mated king stands on that colour and
    // its 2 to 4 orthogonal neighbours are all of the other colour. The winner's king can
    // cover at most one of them (a square next to two of them touches the mated king),
    // so the others must be blocked by the loser's own units that can stand on the other
    // colour: with no knights and no bishops of that colour, queens or rooks. Say the
    // check comes along the diagonal K+(1,1), K+(2,2), ...: of K+(1,0) and K+(0,1) (both
    // on the board) at most one is the winner's king's, so a queen or rook stands on the
    // other, one orthogonal step from K+(1,1). It takes the bishop there or steps in
    // between; nothing pins it (the winner has no rook or queen). There is never a second
    // check: a discovered check would need a bishop leaving one diagonal of the king to
    // check along the other in one move, and a bishop on K+(t,t) only ever moves along
    // K+(t,t) + u(1,-1), which meets the other diagonal only when t = 0. So every check
    // can be parried: no mate, however many bishops.
    if (pos.pieces(loser, kKnight) == 0 && (pos.pieces(loser, kBishop) & ~colour) == 0)
      return unwinnable(VerdictReason::kMaterial);
  }
  return {};
}

Analysis WinnabilityAnalyzer::analyse(const Position& pos, Color side, AnalysisMode mode,
                                      std::uint64_t node_limit) {
  Analysis a = material_verdict(pos, side);
  if (a.verdict != Verdict::kUndetermined) return a;
  if (pos.side_to_move() != side && is_checkmate(pos)) {
    a.verdict = Verdict::kWinnable;
    a.reason = VerdictReason::kHelpmateFound;
    return a;
  }
  auto settle = [&](const SearchResult& r) {
    a.nodes += r.nodes;
    if (r.outcome == SearchOutcome::kMateFound) {
      a.verdict = Verdict::kWinnable;
      a.reason = VerdictReason::kHelpmateFound;
      a.line = r.line;
      return true;
    }
    if (r.outcome == SearchOutcome::kExhausted) {
      a.verdict = Verdict::kUnwinnable;
      a.reason = VerdictReason::kSearchExhausted;
      return true;
    }
    return false;
  };
  // The static proofs first: in live use (D7 after every move, quick mode) only an
  // "unwinnable" for both colours changes anything, and they are the cheap way to it.
  if (blocked_cannot_mate(pos, side)) return unwinnable(VerdictReason::kBlockedStructure);
  if (mode == AnalysisMode::kQuick) {
    if (node_limit > 0) settle(search_.find_helpmate(pos, side, node_limit));
    return a;
  }
  if (node_limit == 0) return a;

  // The helpmate search first (it settles nearly every real position in a few hundred
  // nodes), then the exhaustive pass, which proves unwinnable when the reachable
  // positions are few (locked structures the static argument misses) and, with its deep
  // first lines, finds mates the ordering misses in such positions. Where the pass
  // cannot finish (below) the helpmate search keeps half the budget and the pass gets a
  // quarter. Small budgets (the CI corpus test, quick checks): the helpmate search gets an
  // eighth, the pass the rest (measured at 500k on the vectors, pass in generation order:
  // 1/2 left 160 queries undetermined, 1/4 153, 1/8 148, 1/16 147).
  auto prune = [](const Position& p, Color winner) { return statically_unwinnable(p, winner); };
  const bool huge = node_limit >= kLargeBudget && reachable_set_is_huge(pos, side);
  if (huge) {
    if (settle(search_.find_helpmate(pos, side, node_limit / 2))) return a;
    settle(search_.explore_all(pos, side, node_limit / 4, prune));
    search_.release_large_tables();
    return a;
  }
  if (node_limit < kLargeBudget) {
    if (settle(search_.find_helpmate(pos, side, node_limit / 8))) return a;
    if (node_limit > a.nodes) settle(search_.explore_all(pos, side, node_limit - a.nodes, prune));
    return a;
  }
  run_walks(pos, side, node_limit, a);
  for (ExhaustiveWalk& w : walks_) w.release_large_tables();
  return a;
}

// A large budget whose pass can finish, in this order (each share measured on the CHA
// vectors at 500k nodes, BENCHMARKS.md "Unwinnability analysis"):
// 1. A short helpmate search (1,000 nodes): nearly every real position ends here (the
//    lichess finals need a median of 33 nodes).
// 2. The first walk, aimed at the best corner, for 4,000 nodes: it settles two thirds of
//    the queries that reach it (unwinnable ones prove in a median of ~150 nodes, mates it
//    meets early in ~900) before the helpmate search spends 1/32 of the budget on them.
// 3. The helpmate search with 1/32 of the budget (it restarts; its first 1,000 nodes are
//    spent again).
// 4. The first walk alone until it has spent a quarter of the budget.
// 5. A walk aimed at each of the two remaining corners, 2,000 nodes each.
// 6. The first walk and one aimed at the next-best corner in turns of 4,000 nodes, until
//    the budget is spent.
// Any walk ending without a mate proves unwinnable (each visits the whole reachable set;
// the order only decides when a mate is met). Other orders meet many of the mates the
// first one misses quickly: of the 9 vector queries the first walk alone left
// undetermined at 500k, the other corners' walks found 7 (one within 533 nodes, six of
// them within 2,400); the short tries of step 5 cost ~4k nodes only where the first
// walk has already failed for 125k.
bool WinnabilityAnalyzer::run_walks(const Position& pos, Color side, std::uint64_t node_limit,
                                    Analysis& a) {
  constexpr std::uint64_t kFirstHelpmateNodes = 1'000;
  constexpr std::uint64_t kWalkSlice = 4'000;
  constexpr std::uint64_t kCornerProbe = 2'000;
  auto helpmate = [&](std::uint64_t nodes) {
    const SearchResult r = search_.find_helpmate(pos, side, nodes);
    a.nodes += r.nodes;
    if (r.outcome != SearchOutcome::kMateFound) return false;
    a.verdict = Verdict::kWinnable;
    a.reason = VerdictReason::kHelpmateFound;
    a.line = r.line;
    return true;
  };
  auto remaining = [&] { return node_limit > a.nodes ? node_limit - a.nodes : 0; };
  auto walk = [&](ExhaustiveWalk& w, std::uint64_t nodes) {
    const std::uint64_t before = w.nodes();
    const SearchOutcome outcome = w.run(std::min(nodes, remaining()));
    a.nodes += w.nodes() - before;
    if (outcome == SearchOutcome::kMateFound) {
      a.verdict = Verdict::kWinnable;
      a.reason = VerdictReason::kHelpmateFound;
      a.line = w.line();
      return true;
    }
    if (outcome == SearchOutcome::kExhausted) {
      a.verdict = Verdict::kUnwinnable;
      a.reason = VerdictReason::kSearchExhausted;
      return true;
    }
    return false;
  };
  const StaticProof prune = [](const Position& p, Color winner) {
    return statically_unwinnable(p, winner);
  };
  Square corners[4];
  corner_candidates(pos, side, corners);

  if (helpmate(kFirstHelpmateNodes)) return true;
  ExhaustiveWalk& first = walks_[0];
  first.start(pos, side, corners[0], prune);
  if (walk(first, kWalkSlice)) return true;
  if (helpmate(node_limit / 32)) return true;
  if (first.nodes() < node_limit / 4 && walk(first, node_limit / 4 - first.nodes())) return true;
  // One short try each for the two other corners' orders, then the long alternation.
  for (int c : {2, 3}) {
    walks_[c].start(pos, side, corners[c], prune);
    if (walk(walks_[c], kCornerProbe)) return true;
  }
  ExhaustiveWalk& second = walks_[1];
  second.start(pos, side, corners[1], prune);
  // A walk that ended without a verdict (a path hit the depth cap) spends nothing more.
  while (remaining() > 0 && !(first.ended() && second.ended())) {
    if (walk(first, kWalkSlice) || walk(second, kWalkSlice)) return true;
  }
  return false;
}

// A budget rule, not a proof (cutting the exhaustive pass short can only leave a query
// undetermined): a free queen or rook of the loser multiplies the reachable positions by
// the squares it can reach. When the helpmate search has already failed with a large
// budget (its full-width passes cover small trees), the pass does not finish either; it
// keeps a quarter of the budget because its best-first first lines do meet mates there
// (with a quarter no lichess final is left undetermined, with a sixteenth one is). Measured at 500k
// nodes: of the 1,804 CHA vector queries that reach the pass, one has a loser's free queen or rook,
// while 15 of the 20 lichess finals left undetermined after the lone-minor ordering work did, each
// spending half its budget (~0.1 s) in a pass that never finished. (With small budgets the pass
// finds short mates there, so the rule waits for a large budget.)
bool reachable_set_is_huge(const Position& pos, Color winner) {
  const Bitboard occupied = pos.pieces();
  for (Bitboard b = pos.pieces(~winner, kQueen, kRook); b;) {
    const Square s = pop_lsb(b);
    if (popcount(attacks_bb(type_of(pos.piece_on(s)), s, occupied) & ~occupied) >= 4) return true;
  }
  return false;
}

bool statically_unwinnable(const Position& pos, Color winner) {
  return material_verdict(pos, winner).verdict == Verdict::kUnwinnable ||
         blocked_cannot_mate(pos, winner);
}

Verdict WinnabilityAnalyzer::dead_position(const Position& pos, AnalysisMode mode,
                                           std::uint64_t node_limit) {
  if (pos.is_insufficient_material()) return Verdict::kUnwinnable;
  // The side that just moved first: in play it is the one more likely to be able to mate.
  const Color first = ~pos.side_to_move();
  bool all_unwinnable = true;
  for (Color c : {first, ~first}) {
    Verdict v = analyse(pos, c, mode, node_limit).verdict;
    if (v == Verdict::kWinnable) return Verdict::kWinnable;
    all_unwinnable = all_unwinnable && v == Verdict::kUnwinnable;
  }
  return all_unwinnable ? Verdict::kUnwinnable : Verdict::kUndetermined;
}

// The lichess / python-chess table (scalachess InsufficientMatingMaterial, python-chess
// has_insufficient_material): lone king; K+N while the other side has only queens; bishops only,
// all bishops on the board on one colour, and the other side has no knights or pawns.
Analysis static_material_verdict(const Position& pos, Color side) {
  const Bitboard ours = non_king(pos, side);
  const Bitboard theirs = non_king(pos, ~side);
  bool insufficient = ours == 0;
  if (ours == pos.pieces(side, kKnight) && !more_than_one(ours))
    insufficient = insufficient || theirs == pos.pieces(~side, kQueen);
  if (ours && ours == pos.pieces(side, kBishop) && one_colour(pos.pieces(kBishop)))
    insufficient = insufficient || pos.pieces(~side, kKnight, kPawn) == 0;
  Analysis a;
  a.verdict = insufficient ? Verdict::kUnwinnable : Verdict::kWinnable;
  a.reason = VerdictReason::kStaticTable;
  return a;
}

Analysis WinnabilityAnalyzer::mating_test(const Position& pos, Color side, MatingTest test,
                                          AnalysisMode mode, std::uint64_t node_limit) {
  switch (test) {
    case MatingTest::kFideHelpmate: return analyse(pos, side, mode, node_limit);
    case MatingTest::kStaticMaterial: return static_material_verdict(pos, side);
    case MatingTest::kPskovForcedMateInOne:
      return analyse_pskov(*this, pos, side, mode, node_limit);
    case MatingTest::kUscf14e: break;
  }
  return {};
}

Analysis analyse_winnability(const Position& pos, Color side, AnalysisMode mode,
                             std::uint64_t node_limit) {
  WinnabilityAnalyzer analyzer;
  return analyzer.analyse(pos, side, mode, node_limit);
}

Verdict is_dead_position(const Position& pos, AnalysisMode mode, std::uint64_t node_limit) {
  WinnabilityAnalyzer analyzer;
  return analyzer.dead_position(pos, mode, node_limit);
}

Analysis analyse_mating_test(const Position& pos, Color side, MatingTest test, AnalysisMode mode,
                             std::uint64_t node_limit) {
  WinnabilityAnalyzer analyzer;
  return analyzer.mating_test(pos, side, test, mode, node_limit);
}

}  // namespace eboard::engine
