// Helpmate search: is there a series of legal moves, both sides cooperating, that ends
// with `winner` checkmating the other side? (docs/rules.md D10 `fide_helpmate`.)
//
// Two searches share one object so their tables are allocated once and reused:
// * find_helpmate(): limited-discrepancy search. Moves are ordered by the plan of
//   mate_order.h (the loser's king goes to a mating corner, the winner's units bear on
//   it, pawns promote when the winner needs it, the loser's units block when the winner
//   has a lone minor); a line may deviate from the preferred move by at most k ranks in
//   total, and shallow full-width passes are interleaved. Restarts try the other corners
//   with a doubled budget (greedy search is heavy-tailed). A forced move costs no depth.
//   Every winner node first tries each checking move for an immediate mate. A
//   transposition table remembers "no mate within depth d and k discrepancies" for the
//   whole call (a full-width fact holds for every corner, a limited one for its own).
//   A tiny budget (quick mode) runs only short lines, without the table. Any line it
//   returns is a proof of winnable (the tests replay every one); it never proves
//   unwinnable.
// * explore_all(): visits every position reachable from the root (an ExhaustiveWalk of
//   mate_walk.h aimed at the best corner), skipping positions that `prune` proves
//   hopeless. If it finishes without meeting a mate of the loser, no mate is reachable:
//   unwinnable.
// Keys are 64-bit Zobrist keys; a collision could hide a position (probability about
// n^2 / 2^65 for n positions: below 1e-8 at the default limits). The helpmate table keeps
// 49 of them (index and check): a false hit there also only hides a line.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "engine/board/movegen.h"
#include "engine/board/position.h"
#include "engine/rules/mate_walk.h"
#include "engine/rules/search_types.h"

namespace eboard::engine {

class HelpmateSearch {
 public:
  SearchResult find_helpmate(const Position& root, Color winner, std::uint64_t node_limit,
                             SearchGoal goal = SearchGoal::kCheckmate);
  SearchResult explore_all(const Position& root, Color winner, std::uint64_t node_limit,
                           StaticProof prune, SearchGoal goal = SearchGoal::kCheckmate);
  // explore_all's tables beyond a small size are freed (ExhaustiveWalk::release_large_tables).
  void release_large_tables() { walk_.release_large_tables(); }

 private:
  struct TtEntry {
    std::uint32_t check = 0;  // key bits beyond the index
    std::uint16_t tag = 0;    // generation (14 bits) and the corner's index (2 bits)
    std::uint8_t depth = 0;
    std::uint8_t discrepancies = 0;
  };
  std::uint16_t tag() const;
  bool lds(int depth, int discrepancies, int ply);
  bool attempt(const Position& root, Square corner, std::uint64_t attempt_limit, int widest);
  bool mate_in_one(const MoveList& moves);
  void score_moves(const MoveList& moves, int* scores);
  static int next_best(int* scores, int n);
  bool tt_failed(Key key, int depth, int discrepancies) const;
  void tt_store(Key key, int depth, int discrepancies);
  Position pos_;
  Color winner_ = kWhite;
  SearchGoal goal_ = SearchGoal::kCheckmate;
  std::uint64_t nodes_ = 0;
  std::uint64_t limit_ = 0;        // of the current attempt
  std::uint64_t total_limit_ = 0;  // of the whole find_helpmate call
  Square corner_ = kA1;            // where the loser's king is sent in this attempt
  bool aborted_ = false;
  std::vector<Move> line_;          // built backwards while unwinding
  std::deque<MoveList> ply_moves_;  // lds: the moves of the node at each ply
  std::vector<TtEntry> tt_;
  std::uint32_t generation_ = 0;
  bool use_tt_ = true;
  ExhaustiveWalk walk_;  // explore_all's
};

// True when the side to move is checkmated.
bool is_checkmate(const Position& pos);

}  // namespace eboard::engine
