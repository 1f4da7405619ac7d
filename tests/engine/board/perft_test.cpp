// Move generation against two oracles: the exact node counts of the shared perft suite,
// and, at every node of a shallow tree, invariants that must hold whatever the counts say.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/board/perft_suite.h"
#include "tests/engine/board/reference_movegen.h"

namespace eboard::engine {
namespace {

const std::string kSuitePath = std::string(EBOARD_SHARED_DIR) + "/data/perft/perft_suite.epd";

std::vector<SuiteEntry> load_suite() {
  std::ifstream in(kSuitePath, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  auto suite = parse_suite(text.str(), kSuitePath);
  if (!suite) ADD_FAILURE() << suite.error();
  return suite ? suite.value() : std::vector<SuiteEntry>{};
}

// Depths with more expected nodes than this run only in the `slow` suite
// (EBOARD_PERFT_MAX_NODES=inf, see tests/engine/CMakeLists.txt).
std::uint64_t max_nodes() {
  const char* env = std::getenv("EBOARD_PERFT_MAX_NODES");
  if (!env) return 5'000'000;
  if (std::string(env) == "inf") return UINT64_MAX;
  return std::strtoull(env, nullptr, 10);
}

TEST(PerftSuite, EveryPositionAndDepthHasTheExactCount) {
  auto suite = load_suite();
  ASSERT_GE(suite.size(), 100u) << "the shared suite should have well over 100 positions";
  const std::uint64_t limit = max_nodes();
  int checked = 0;
  for (const SuiteEntry& entry : suite) {
    auto pos = parse_fen(entry.fen);
    ASSERT_TRUE(pos.ok()) << kSuitePath << ":" << entry.line << ": " << pos.error();
    for (auto [depth, expected] : entry.expected) {
      if (expected > limit) continue;
      Position p = pos.value();
      EXPECT_EQ(perft(p, depth), expected) << entry.fen << " depth " << depth;
      EXPECT_EQ(p.key(), pos->key()) << "perft must leave the position as it found it";
      ++checked;
    }
  }
  RecordProperty("checks", checked);
  EXPECT_GT(checked, 800);
}

// Walks the tree to `depth`, checking at every node that the fast generator agrees with
// the slow reference one, that count_legal agrees with the list, that make/unmake
// restores everything, and that the incremental keys equal keys computed from scratch.
void check_node(Position& pos, Square raw_en_passant, int depth, int& nodes) {
  ++nodes;
  ASSERT_EQ(pos.key(), pos.compute_key()) << to_fen(pos);
  ASSERT_EQ(pos.placement_key(), pos.compute_placement_key()) << to_fen(pos);
  MoveList fast;
  generate_legal(pos, fast);
  ASSERT_EQ(count_legal(pos), fast.size()) << to_fen(pos);
  ASSERT_EQ(sorted_moves(fast), reference_legal_moves(pos, raw_en_passant)) << to_fen(pos);
  if (pos.en_passant_square() != kNoSquare) {
    ASSERT_EQ(pos.en_passant_square(), raw_en_passant);
  }
  if (depth == 0) return;
  const std::string fen_before = to_fen(pos);
  const Key key_before = pos.key();
  for (Move m : fast) {
    const Key expected_placement = pos.placement_key_after(m);
    pos.make(m);
    ASSERT_EQ(pos.placement_key(), expected_placement) << fen_before << " " << int(m.raw());
    const bool double_push = type_of(pos.piece_on(m.to())) == kPawn && (m.from() ^ m.to()) == 16;
    check_node(pos, double_push ? Square((m.from() + m.to()) / 2) : kNoSquare, depth - 1, nodes);
    pos.unmake(m);
    ASSERT_EQ(pos.key(), key_before) << fen_before;
    ASSERT_EQ(to_fen(pos), fen_before);
  }
}

TEST(PerftSuite, InvariantsHoldAtEveryNodeOfShallowTrees) {
  auto suite = load_suite();
  int nodes = 0;
  for (const SuiteEntry& entry : suite) {
    Position pos = parse_fen(entry.fen).value();
    std::istringstream fields(entry.fen);
    std::string placement, side, castling, ep = "-";
    fields >> placement >> side >> castling >> ep;
    check_node(pos, parse_square(ep), 2, nodes);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(nodes, 75000);
}

TEST(Perft, DepthZeroIsOneNode) {
  Position pos;
  EXPECT_EQ(perft(pos, 0), 1u);
}

TEST(PerftSuiteFile, BadLinesNameFileAndLine) {
  auto bad = parse_suite("startpos ;D1 20\n8/8 w ;X 3\n", "s.epd");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "s.epd:2: expected \";D<depth> <nodes>\", got \"X 3\"");
  EXPECT_FALSE(parse_suite("fen only\n", "t.epd").ok());
  EXPECT_TRUE(parse_suite("# comment\n\nx ;D1 1\n", "u.epd").ok());
}

}  // namespace
}  // namespace eboard::engine
