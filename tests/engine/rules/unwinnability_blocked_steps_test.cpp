// The set-at-once steps of the blocked-structure proof (unwinnability_blocked_steps.h)
// against the board's per-square attack tables (a step of a set is the union of the steps
// of its squares, and the edges of the board stop every step), and its file fill against
// a fill of one step a round.
#include "engine/rules/unwinnability_blocked_steps.h"

#include <gtest/gtest.h>

namespace eboard::engine {
namespace {

using namespace blocked_steps;

// One square's step set per kind, from the board's tables (a slider's first square on each
// ray: attacks with every square occupied).
struct Kind {
  const char* name;
  Bitboard (*step)(Bitboard);
  PieceType table;
};
constexpr Kind kKinds[] = {{"orth", orth_step, kRook},
                           {"diag", diag_step, kBishop},
                           {"king", king_step, kKing},
                           {"knight", knight_step, kKnight}};

TEST(BlockedSteps, EverySquareStepsLikeTheAttackTables) {
  for (const Kind& k : kKinds)
    for (int s = 0; s < kSquareCount; ++s)
      EXPECT_EQ(k.step(square_bb(Square(s))), attacks_bb(k.table, Square(s), ~Bitboard(0)))
          << k.name << " from square " << s;
}

TEST(BlockedSteps, ASetStepsLikeTheUnionOfItsSquares) {
  // A fixed pseudo-random sequence of sets (xorshift), dense and sparse.
  Bitboard x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 2000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const Bitboard set = (i % 2) ? x : x & (x >> 9) & (x << 5);
    for (const Kind& k : kKinds) {
      Bitboard want = 0;
      for (Bitboard b = set; b;) want |= attacks_bb(k.table, pop_lsb(b), ~Bitboard(0));
      ASSERT_EQ(k.step(set), want) << k.name << " from set " << set;
    }
  }
  EXPECT_EQ(king_step(0), 0u);
}

// The file fill against one step a round: s joins when the square before it (north or
// south) has joined and s is open.
Bitboard step_fill(Bitboard from, Bitboard open, bool to_north) {
  for (;;) {
    const Bitboard next = from | (open & (to_north ? north(from) : south(from)));
    if (next == from) return from;
    from = next;
  }
}

TEST(BlockedSteps, FileFillsLikeOneStepARound) {
  Bitboard x = 0x2545F4914F6CDD1Dull;
  const auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  int grew = 0;
  for (int i = 0; i < 2000; ++i) {
    const Bitboard from = next() & next() & next();  // sparse starts
    const Bitboard open = next() | next();           // mostly open
    ASSERT_EQ(file_fill<true>(from, open), step_fill(from, open, true)) << from << " " << open;
    ASSERT_EQ(file_fill<false>(from, open), step_fill(from, open, false)) << from << " " << open;
    grew += file_fill<true>(from, open) != from;
  }
  EXPECT_GT(grew, 1000);  // the fills really went somewhere
  // A whole open file from its first square, and a wall that stops it.
  EXPECT_EQ(file_fill<true>(square_bb(kA1), ~Bitboard(0)), kFileA);
  EXPECT_EQ(file_fill<true>(square_bb(kA1), ~square_bb(kA4)),
            square_bb(kA1) | square_bb(kA2) | square_bb(kA3));
}

}  // namespace
}  // namespace eboard::engine
