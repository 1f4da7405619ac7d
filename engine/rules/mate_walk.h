// ExhaustiveWalk: one walk over every position reachable from a root (the exhaustive pass
// of mate_search.h), which can be paused and resumed.
//
// It visits each reachable position once (a visited set of 64-bit keys, an explicit stack),
// children best first by the mating plan of mate_order.h for one mating corner, and skips
// positions that `prune` proves hopeless. If it ends without meeting the goal, the goal is
// unreachable: unwinnable. The order only decides how soon a mate is met, never whether
// the walk is complete, so two walks with different corners prove the same things; the
// analyser (unwinnability.cpp) runs two of them in turns because searches guided by a
// heuristic are heavy-tailed: a mate one corner's order meets after 300k positions, the
// other's often meets after a few hundred.
//
// run(n) spends at most n more nodes (a node is a position made and looked at; the root is
// not one) and stops, with everything it needs to go on kept, just before the next one.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/board/movegen.h"
#include "engine/board/position.h"
#include "engine/rules/search_types.h"

namespace eboard::engine {

class ExhaustiveWalk {
 public:
  // Starts a walk from `root` for `winner`, its order aimed at `corner`. The walk's tables
  // are kept between walks (a large set is cleared by its used slots, not reallocated).
  void start(const Position& root, Color winner, Square corner, StaticProof prune,
             SearchGoal goal = SearchGoal::kCheckmate);
  // Goes on for at most `more_nodes` nodes: kMateFound or kExhausted once the walk has
  // ended that way (and from then on), kLimitReached when it paused.
  SearchOutcome run(std::uint64_t more_nodes);
  std::uint64_t nodes() const { return nodes_; }
  // The walk has ended: run() spends nothing more and returns the same outcome.
  bool ended() const { return ended_; }
  // Frees tables a large walk grew beyond a small size, ending the walk. A board session
  // keeps its analyser for the whole game: one flag fall in a locked position can grow a
  // walk's tables to tens of megabytes (a 250k-node path holds ~2M children), which a
  // Raspberry Pi serving many boards should not keep until the next one.
  void release_large_tables();
  // From the root to the mate, once the outcome is kMateFound (empty when the root is it).
  const std::vector<Move>& line() const { return line_; }

 private:
  struct Child {
    Key key;  // of the position after `move`
    Move move;
    int score;  // by the plan; kTaken once the walk has taken it
  };
  // The path's children live in one arena, each frame owning a slice of it (a slice is as
  // long as the node's unvisited children, where a MoveList would take 256): the best-
  // first walk runs down long paths (one reachable set of 5,524 positions was walked
  // more than 4,096 plies deep), and a depth cap there would leave the proof incomplete.
  struct Frame {
    std::uint32_t begin = 0;  // the node's children: arena_[begin, end)
    std::uint32_t end = 0;
    Move via;  // the move that led here (none at the root)
  };
  static constexpr int kTaken = std::numeric_limits<int>::min();

  void push_frame(Move via);  // the node at pos_, its legal moves in moves_
  void push_unvisited();
  std::int64_t best_untaken(const Frame& frame) const;
  SearchOutcome finish(SearchOutcome outcome);
  std::size_t visited_slot(Key key) const;
  bool visited(Key key) const;
  bool visit(Key key);  // inserts into the visited set; false when already there
  void clear_visited();

  Position pos_;
  Color winner_ = kWhite;
  Square corner_ = kA1;
  StaticProof prune_ = nullptr;
  SearchGoal goal_ = SearchGoal::kCheckmate;
  std::uint64_t nodes_ = 0;
  bool ended_ = false;
  SearchOutcome outcome_ = SearchOutcome::kLimitReached;
  bool incomplete_ = false;  // a path hit the depth cap: no proof of "exhausted"
  MoveList moves_;
  std::vector<Child> arena_;
  std::vector<Frame> stack_;
  std::vector<Move> line_;
  std::vector<Key> visited_;                 // open addressing, 0 = empty
  std::vector<std::uint32_t> visited_used_;  // its filled slots, in insertion order
};

// pos.key() after m, mostly without making m; pos is unchanged.
Key explore_key_after(Position& pos, Move m);

// True when `winner` (to move) has a move in `moves` (the legal moves of pos) that mates.
// pos is made and unmade, unchanged at the end; *mating gets the move when given.
bool has_mate_in_one(Position& pos, Color winner, const MoveList& moves, Move* mating = nullptr);
// Every move of the loser (to move in pos, `loser_moves` its legal moves) lets the winner
// mate at once (S4 13c(2), the pskov test).
bool every_move_allows_mate_in_one(Position& pos, Color winner, const MoveList& loser_moves);

}  // namespace eboard::engine
