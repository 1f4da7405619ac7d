// The exhaustive pass's keys and walk (engine/rules/mate_walk.cpp): the key of a child
// computed without making the move must be the key of the position the move makes, the
// pass must visit exactly the positions an independent walk finds, and a walk paused and
// resumed must be the walk run at once.
#include "engine/rules/mate_walk.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/rules/mate_search.h"
#include "tests/engine/rules/test_fen.h"

namespace eboard::engine {
namespace {

// Every move two plies deep: explore_key_after(pos, m) is the key of the position
// after make(m), Position::key().
void check_keys(Position& pos, int depth, int& checked) {
  MoveList moves;
  generate_legal(pos, moves);
  const std::string before = to_fen(pos);
  for (Move m : moves) {
    const Key predicted = explore_key_after(pos, m);
    EXPECT_EQ(to_fen(pos), before);
    pos.make(m);
    EXPECT_EQ(predicted, pos.key()) << to_fen(pos);
    ++checked;
    if (depth > 1) check_keys(pos, depth - 1, checked);
    pos.unmake(m);
  }
}

TEST(MateExplore, KeyAfterAMoveIsTheKeyOfThePositionItMakes) {
  // Castling both ways and rights lost by king and rook moves and by captures on the
  // rooks' squares, en passant legal and pinned, promotions with and without capture.
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",  // rooks take rooks on their home squares
      "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1",     // e4: dxe3 would expose the king
      "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",     // e4: dxe3 is legal
  };
  int checked = 0;
  for (const char* text : fens) {
    Position pos = fen(text);
    check_keys(pos, 2, checked);
  }
  EXPECT_GT(checked, 3500);
}

// Positions reachable from `root`, each named by its FEN's first four fields (what makes
// two positions the same, FIDE 9.2.2), walked breadth first.
std::size_t reachable_count(const Position& root) {
  auto name = [](const Position& p) {
    const std::string f = to_fen(p);
    std::size_t cut = f.size();
    for (int spaces = 0; cut > 0 && spaces < 2; --cut)
      if (f[cut - 1] == ' ') ++spaces;
    return f.substr(0, cut);  // without the move counters
  };
  std::set<std::string> seen{name(root)};
  std::vector<Position> frontier{root};
  while (!frontier.empty()) {
    std::vector<Position> next;
    for (Position& p : frontier) {
      MoveList moves;
      generate_legal(p, moves);
      for (Move m : moves) {
        p.make(m);
        if (seen.insert(name(p)).second) next.push_back(p);
        p.unmake(m);
      }
    }
    frontier.swap(next);
  }
  return seen.size();
}

TEST(MateExplore, VisitsExactlyTheReachablePositions) {
  // Locked pawns wall each king into its own three ranks: no check can ever happen, so
  // the pass must visit every reachable position and report no mate.
  const Position root = fen("8/3k4/8/p1p1p1p1/P1P1P1P1/8/2K5/8 w - - 0 1");
  HelpmateSearch search;
  auto never = [](const Position&, Color) { return false; };
  const SearchResult r = search.explore_all(root, kWhite, 100'000, never);
  EXPECT_EQ(r.outcome, SearchOutcome::kExhausted);
  const std::size_t reachable = reachable_count(root);
  EXPECT_GT(reachable, 500u);
  EXPECT_EQ(r.nodes + 1, reachable);  // the root is not counted as a node
  // The same object again (its visited set is cleared by its used slots, not rebuilt).
  EXPECT_EQ(search.explore_all(root, kWhite, 100'000, never).nodes, r.nodes);
  // A limit below the count stops it.
  EXPECT_EQ(search.explore_all(root, kWhite, r.nodes - 1, never).outcome,
            SearchOutcome::kLimitReached);
}

TEST(MateWalk, PausedAndResumedItIsTheSameWalk) {
  // A mate the walk meets after some thousands of nodes (a K+R v K position whose first
  // lines wander), and a locked position it exhausts: in slices of any size the walk ends
  // the same way after the same number of nodes, with the same line.
  const std::vector<std::string> roots = {"8/3k4/8/p1p1p1p1/P1P1P1P1/8/2K5/8 w - - 0 1",
                                          "7k/8/8/8/8/8/8/R3K3 b - - 0 1"};
  auto never = [](const Position&, Color) { return false; };
  for (const std::string& text : roots) {
    const Position root = fen(text);
    ExhaustiveWalk once;
    once.start(root, kWhite, kA1, never);
    const SearchOutcome outcome = once.run(1'000'000);
    ASSERT_NE(outcome, SearchOutcome::kLimitReached) << text;
    for (std::uint64_t slice : {1u, 7u, 1000u}) {
      ExhaustiveWalk sliced;
      sliced.start(root, kWhite, kA1, never);
      SearchOutcome o = SearchOutcome::kLimitReached;
      std::uint64_t calls = 0;
      while (o == SearchOutcome::kLimitReached && calls++ < 2'000'000) {
        const std::uint64_t before = sliced.nodes();
        o = sliced.run(slice);
        EXPECT_LE(sliced.nodes() - before, slice);
      }
      EXPECT_EQ(o, outcome) << text << " slice " << slice;
      EXPECT_EQ(sliced.nodes(), once.nodes()) << text << " slice " << slice;
      EXPECT_EQ(sliced.line(), once.line()) << text << " slice " << slice;
      EXPECT_TRUE(sliced.ended());
      EXPECT_EQ(sliced.run(10), outcome);  // an ended walk stays ended
      EXPECT_EQ(sliced.nodes(), once.nodes());
    }
  }
}

TEST(MateWalk, AnotherCornerProvesTheSameSet) {
  // The order never decides completeness: aimed at any corner, the walk over a locked
  // position visits the same number of positions.
  const Position root = fen("8/3k4/8/p1p1p1p1/P1P1P1P1/8/2K5/8 w - - 0 1");
  auto never = [](const Position&, Color) { return false; };
  std::uint64_t first = 0;
  for (Square corner : {kA1, kH1, kA8, kH8}) {
    ExhaustiveWalk walk;
    walk.start(root, kBlack, corner, never);
    EXPECT_EQ(walk.run(1'000'000), SearchOutcome::kExhausted);
    if (first == 0) first = walk.nodes();
    EXPECT_EQ(walk.nodes(), first);
  }
}

}  // namespace
}  // namespace eboard::engine
