// Unit tests for the "cannot checkmate by any series of legal moves" analysis
// (engine/rules/unwinnability.h; docs/rules.md D7, D10).
#include "engine/rules/unwinnability.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/rules/mate_search.h"
#include "engine/rules/unwinnability_analyzer.h"
#include "engine/rules/unwinnability_blocked.h"
#include "tests/engine/rules/test_fen.h"

namespace eboard::engine {
namespace {

Analysis full(const std::string& text, Color side, std::uint64_t nodes = 100'000) {
  return analyse_winnability(fen(text), side, AnalysisMode::kFull, nodes);
}

// A returned helpmate must be a real one: legal moves ending in mate of the loser.
void expect_mating_line(const std::string& text, const Analysis& a, Color winner) {
  ASSERT_EQ(a.verdict, Verdict::kWinnable);
  Position pos = fen(text);
  for (Move m : a.line) {
    ASSERT_TRUE(pos.is_legal(m));
    pos.make(m);
  }
  EXPECT_EQ(pos.side_to_move(), ~winner);
  EXPECT_TRUE(is_checkmate(pos));
}

// The static proofs alone (quick mode, no search) show `winner` cannot mate: the blocked-
// structure reasoning of unwinnability_blocked.h and the arguments built on it.
void expect_blocked_proof(const char* text, Color winner) {
  const Analysis a = analyse_winnability(fen(text), winner, AnalysisMode::kQuick, 0);
  EXPECT_EQ(a.verdict, Verdict::kUnwinnable) << text << " winner " << int(winner);
  EXPECT_EQ(a.reason, VerdictReason::kBlockedStructure) << text << " winner " << int(winner);
}

TEST(Unwinnability, LoneKingCannotMate) {
  Analysis a = full("8/8/8/4k3/8/8/8/4K2Q w - -", kBlack);
  EXPECT_EQ(a.verdict, Verdict::kUnwinnable);
  EXPECT_EQ(a.reason, VerdictReason::kLoneKing);
}

TEST(Unwinnability, KingAndKnightAgainstBareKing) {
  EXPECT_EQ(full("8/8/8/4k3/8/8/8/4K1N1 w - -", kWhite).reason, VerdictReason::kMaterial);
  // With a pawn on the board the rule does not apply (the pawn may promote).
  EXPECT_NE(material_verdict(fen("8/8/8/4k3/8/8/P7/4K1N1 w - -"), kWhite).verdict,
            Verdict::kUnwinnable);
}

TEST(Unwinnability, SameColouredBishopsAgainstNothingThatBlocks) {
  Analysis a = full("8/8/8/8/8/1kB5/1B6/BKB5 w - -", kWhite);
  EXPECT_EQ(a.verdict, Verdict::kUnwinnable);
  EXPECT_EQ(a.reason, VerdictReason::kMaterial);
  // A knight of the loser can block a flight square: then a mate exists (a 25-ply line
  // the ordering ranks badly: this one needs a larger budget, ~0.1 s).
  expect_mating_line("8/8/8/8/3k4/1Bn5/BKB5/1B6 w - -",
                     full("8/8/8/8/3k4/1Bn5/BKB5/1B6 w - -", kWhite, 1'000'000), kWhite);
}

TEST(Unwinnability, SingleBishopAgainstRookOrQueen) {
  EXPECT_EQ(full("8/8/8/8/8/2k5/8/r1B1K3 w - -", kWhite).reason, VerdictReason::kMaterial);
  EXPECT_EQ(full("8/8/8/8/8/2k5/8/r1B1K3 w - -", kBlack).verdict, Verdict::kWinnable);
}

TEST(Unwinnability, SameColouredBishopsAgainstRooksNeverDoubleCheck) {
  // Two dark bishops against two rooks (CHA vectors): a bishop can never discover a
  // second check, so a rook next to the king always parries.
  for (const char* text : {"5b2/4bk2/8/8/8/8/3KR3/3R4 w - -", "8/8/8/8/8/2b1k1b1/3R4/4KR2 w - -"})
    EXPECT_EQ(material_verdict(fen(text), kBlack).reason, VerdictReason::kMaterial) << text;
  // A knight of the loser blocks without parrying: no rule.
  EXPECT_EQ(material_verdict(fen("5b2/4bk2/8/8/8/8/3KN3/3R4 w - -"), kBlack).verdict,
            Verdict::kUndetermined);
}

TEST(Unwinnability, HelpmatesAreFoundAndReplayable) {
  const char* kQueen = "8/8/8/4k3/8/8/8/4K2Q w - -";
  expect_mating_line(kQueen, full(kQueen, kWhite), kWhite);
  const char* kKnights = "k7/8/1K6/8/8/8/3NN3/8 w - -";  // K+N+N v K: a helpmate exists
  expect_mating_line(kKnights, full(kKnights, kWhite), kWhite);
  // The analyzer's README example: only a long (22-ply) helpmate exists.
  const char* kLong = "Bb2kb2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 b - -";
  Analysis a = full(kLong, kWhite, 200'000);
  expect_mating_line(kLong, a, kWhite);
  EXPECT_GE(a.line.size(), 10u);
}

// Real final positions (lichess) where the winner has a lone minor: the mate needs the
// loser's king in a corner walled in by its own units. The blockers-phase ordering
// (mate_order.h) finds these within 100k nodes; before it, 500k nodes did not.
TEST(Unwinnability, LoneMinorMatesWithTheLosersBlockers) {
  const struct {
    const char* fen;
    Color winner;
  } cases[] = {
      {"8/8/2B2pk1/8/1p6/p7/1r5p/K7 w - - 0 64", kWhite},   // bishop, corner h1
      {"8/3k1b2/8/6P1/6PK/8/8/8 w - - 3 51", kBlack},       // bishop, promoted blockers
      {"8/8/8/8/8/1PRnkB1P/PK4P1/8 w - - 3 51", kBlack},    // knight
      {"8/8/p7/1p1k4/2p1N3/8/2r5/4K3 w - - 0 64", kWhite},  // knight
      // the loser's rooks would interpose on the bishop's check: the winner takes them
      {"2R5/b7/8/5P1P/3k2P1/8/2R1K3/8 w - - 1 61", kBlack},
      // a lone bishop against a queen and pawns (not found at 500k nodes before)
      {"8/4K3/4B3/6k1/4ppp1/6q1/8/8 w - - 0 89", kWhite},
      // the loser's king walks to the corner before its pawns promote
      {"8/6k1/1p3p2/2p2B1p/8/5K2/1p6/8 b - - 1 47", kWhite},
      {"8/6bk/8/1Q6/3P4/8/PP3PPP/3R2K1 b - - 0 36", kBlack},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fen);
    expect_mating_line(c.fen, full(c.fen, c.winner), c.winner);
  }
}

// The budget rule that skips the exhaustive pass: only a loser's queen or rook with room
// to move counts (a rook walled in by its own pawns does not).
TEST(Unwinnability, ReachableSetIsHugeOnlyWithAFreeHeavyPieceOfTheLoser) {
  EXPECT_TRUE(reachable_set_is_huge(fen("8/8/8/4k3/8/8/1r6/B3K3 w - -"), kWhite));
  EXPECT_FALSE(reachable_set_is_huge(fen("8/8/8/4k3/8/8/1r6/B3K3 w - -"), kBlack));
  EXPECT_FALSE(reachable_set_is_huge(fen("rk6/pp6/8/8/8/8/8/B3K3 w - -"), kWhite));
}

TEST(Unwinnability, AlreadyMatedIsWinnableWithoutSearch) {
  Analysis a =
      analyse_winnability(fen("k1R5/8/1K6/8/8/8/8/8 b - -"), kWhite, AnalysisMode::kQuick, 0);
  EXPECT_EQ(a.verdict, Verdict::kWinnable);
  EXPECT_TRUE(a.line.empty());
}

TEST(Unwinnability, LockedPawnChainsSeparateTheKings) {
  const char* kChain = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -";
  for (Color c : {kWhite, kBlack}) expect_blocked_proof(kChain, c);
  // The analyzer's README example: Black's bishops are on the wrong colour to cross.
  Analysis black = analyse_winnability(fen("7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - -"), kBlack,
                                       AnalysisMode::kQuick, 0);
  EXPECT_EQ(black.verdict, Verdict::kUnwinnable);
  // One pawn that can still move breaks the lock: no proof then.
  BlockedAnalysis open = analyse_blocked(fen("2b1k3/8/8/1p1p1p1p/1P1P1P2/8/7P/2B1K3 w - -"));
  EXPECT_FALSE(cannot_mate(open, kWhite));
}

TEST(Unwinnability, SameColouredBishopsOnBothSides) {
  // Every bishop on the board is on a dark square: the mated king's light neighbours can
  // be blocked by nobody (a CHA test vector, labelled dead).
  const char* kDark = "3b1b1k/2b1b1b1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1B1B1 w - -";
  for (Color c : {kWhite, kBlack})
    EXPECT_EQ(material_verdict(fen(kDark), c).reason, VerdictReason::kMaterial);
  // A light bishop of the loser may block: the rule no longer applies.
  EXPECT_EQ(
      material_verdict(fen("3b1b1k/2b1b1b1/1b1b1b2/2b5/4KB2/4B1B1/3B1B1B/2B1BB2 w - -"), kBlack)
          .verdict,
      Verdict::kUndetermined);
}

TEST(Unwinnability, LoneKnightAgainstOnlyQueens) {
  // However many queens block, one of them can take the checking knight (CHA vectors).
  for (const char* text : {"6nk/8/8/8/4K3/8/3Q4/8 w - -", "1q1q1q2/1k2q1q1/8/8/8/8/2N5/1K6 b - -",
                           "k7/8/8/1K6/N7/8/8/q7 w - -"}) {
    const Color knight_side = fen(text).pieces(kWhite, kKnight) ? kWhite : kBlack;
    EXPECT_EQ(material_verdict(fen(text), knight_side).reason, VerdictReason::kMaterial) << text;
  }
  // A rook cannot take along a diagonal: K+N v K+R is a selfmate position, no rule.
  EXPECT_EQ(material_verdict(fen("6nk/8/8/8/4K3/8/3R4/8 w - -"), kBlack).verdict,
            Verdict::kUndetermined);
}

TEST(Unwinnability, AKingThatCanNeverMoveHoldsItsPawns) {
  // White's king on a1 is walled in by its b2 pawn and Black's a2 pawn (defended by b3, and
  // b1 is attacked): it never moves, so the b2 pawn stays defended and the black king can
  // never take it or step next to it. Every bishop of White is dark, Black's is light.
  const char* kWalled = "k6B/1b4B1/5B2/4B3/3B4/1pB1B3/pP1B4/K7 w - -";
  for (Color c : {kWhite, kBlack}) expect_blocked_proof(kWalled, c);
  // Without Black's a2 pawn the king walks out: no proof for Black.
  EXPECT_FALSE(
      cannot_mate(analyse_blocked(fen("k6B/1b4B1/5B2/4B3/3B4/1pB1B3/1P1B4/K7 w - -")), kBlack));
}

TEST(Unwinnability, BlockersAreCountedNotJustPlaced) {
  // Black's light bishops are the only checkers beyond the locked chain; White's king is
  // mated only with two or more of its dark neighbours blocked, and White has one dark
  // bishop to do it (a CHA test vector, labelled dead).
  const char* kOne = "8/4kb2/8/1p1p1p1p/1P1P1P1P/1b6/3B1K2/8 b - -";
  expect_blocked_proof(kOne, kBlack);
  // With a second dark bishop White can block two squares (Kh1, Bg1, Bh2): no proof.
  EXPECT_FALSE(
      cannot_mate(analyse_blocked(fen("8/4kb2/8/1p1p1p1p/1P1P1P1P/1b6/3B1K2/2B5 b - -")), kBlack));
}

TEST(Unwinnability, TheWinnersKingCoversOneNeighbourhoodAtATime) {
  // White's king can walk round the locked centre to any square, but a mate of Black's
  // king needs its flights covered at once: White's light bishop and pawns take only light
  // squares, and the king covers the dark ones next to one square only (CHA vector, dead).
  const char* kCentre = "1k6/8/3p1p2/3PbP2/3pBp2/3P1P2/4B3/3K4 w - -";
  expect_blocked_proof(kCentre, kWhite);
}

TEST(Unwinnability, PawnsThatCanNeverLeaveTheirFilesNeverPass) {
  // White's second-rank pawns face Black's fifth-rank pawns on the same files, with no
  // unit but the kings ever on a square either could capture to: neither ever leaves its
  // file, White's are never taken, so Black's never pass them (nor promote). White's king
  // may take Black's, yet White's pawns then stop at their own sixth-rank ones. A CHA
  // test vector labelled dead.
  const char* kFiles = "1b1k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - -";
  for (Color c : {kWhite, kBlack}) expect_blocked_proof(kFiles, c);
  // A white knight gives Black's pawns something to take (and jumps the wall): no proof.
  const char* kKnight = "1b1k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/1N6/P1P1P1P1/3K4 w - -";
  EXPECT_FALSE(cannot_mate(analyse_blocked(fen(kKnight)), kWhite));
}

TEST(Unwinnability, LongPathsOfTheExhaustivePassAreFollowed) {
  // The best-first walk of this reachable set (White's bishops roam behind the wall of
  // pawns and bishops, nothing ever gives check) runs deeper than 4,096 plies, which the
  // pass once gave up on; then it was undetermined even at 500k nodes (a CHA vector).
  Analysis a = full("2B1B1B1/pBpBpBpB/P1P1P1P1/4k3/8/8/4K3/8 w - -", kWhite, 200'000);
  EXPECT_EQ(a.verdict, Verdict::kUnwinnable);
  EXPECT_EQ(a.reason, VerdictReason::kSearchExhausted);
}

TEST(Unwinnability, AKingCaptureThatStalematesKeepsTheLockShut) {
  // Black's king can take g2 only while White's king stands on h4 and h5 only while it
  // stands on h3: either capture leaves White, whose king is its only mobile unit,
  // without a move. And Black's king on h2 (to guard h3 for a mate on h4) arrives only
  // when White's king is on h4, stalemating it first: the kings' dance.
  const char* kShuttle = "8/b7/k6p/5p1P/5p2/5PpK/6P1/8 w - -";
  for (Color c : {kWhite, kBlack}) expect_blocked_proof(kShuttle, c);
  // White's king on a7 would mate Black's on a5 (a6 guarded, a dark bishop checks), but
  // Black's king reaches a5 only from a6, next to a7: whoever arrives last stalemates.
  const char* kDance = "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - -";
  expect_blocked_proof(kDance, kWhite);
  // With a spare black pawn move (h7-h6) there is no stalemate to rely on: no proof.
  EXPECT_NE(analyse_winnability(fen("8/1p2B1Bp/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - -"), kWhite,
                                AnalysisMode::kQuick, 0)
                .verdict,
            Verdict::kUnwinnable);
}

TEST(Unwinnability, SmallReachableSpaceIsSearchedExhaustively) {
  // The white rook is shut in on h3-h4 behind its own king: no mate for White, found by
  // visiting every reachable position.
  Analysis a = full("2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - -", kWhite);
  EXPECT_EQ(a.verdict, Verdict::kUnwinnable);
  EXPECT_EQ(a.reason, VerdictReason::kSearchExhausted);
}

// Quick mode given a budget proves "winnable" with a tiny greedy search: the line must
// be a real helpmate, and the node budget is respected.
TEST(Unwinnability, QuickModeFindsShortHelpmates) {
  constexpr std::uint64_t kBudget = 16;
  const char* kBackRank = "6k1/5ppp/8/8/8/8/8/R3K3 w - -";
  Analysis a = analyse_winnability(fen(kBackRank), kWhite, AnalysisMode::kQuick, kBudget);
  expect_mating_line(kBackRank, a, kWhite);
  EXPECT_LE(a.nodes, kBudget);
  // The start position: a short helpmate exists for either side (fool's mate style).
  for (Color c : {kWhite, kBlack}) {
    Analysis s = analyse_winnability(Position(), c, AnalysisMode::kQuick, kBudget);
    EXPECT_LE(s.nodes, kBudget);
    if (s.verdict == Verdict::kWinnable) {
      Position pos;
      for (Move m : s.line) {
        ASSERT_TRUE(pos.is_legal(m));
        pos.make(m);
      }
      EXPECT_TRUE(is_checkmate(pos));
    }
  }
  // A locked position is never called winnable, whatever the budget.
  EXPECT_NE(analyse_winnability(fen("7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - -"), kBlack,
                                AnalysisMode::kQuick, kBudget)
                .verdict,
            Verdict::kWinnable);
}

TEST(Unwinnability, QuickModeNeverSearches) {
  Analysis a = analyse_winnability(Position(), kWhite, AnalysisMode::kQuick, 0);
  EXPECT_EQ(a.verdict, Verdict::kUndetermined);
  EXPECT_EQ(a.nodes, 0u);
}

TEST(Unwinnability, DeadPositions) {
  EXPECT_EQ(is_dead_position(fen("8/8/8/4k3/8/8/8/2B1K3 b - -"), AnalysisMode::kQuick, 0),
            Verdict::kUnwinnable);
  EXPECT_EQ(
      is_dead_position(fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - -"), AnalysisMode::kQuick, 0),
      Verdict::kUnwinnable);
  EXPECT_EQ(is_dead_position(Position(), AnalysisMode::kFull, 100'000), Verdict::kWinnable);
  EXPECT_EQ(is_dead_position(Position(), AnalysisMode::kQuick, 0), Verdict::kUndetermined);
}

TEST(MatingTest, StaticMaterialFollowsTheTable) {
  // Lone knight against queens: insufficient by the table.
  EXPECT_EQ(analyse_mating_test(fen("8/8/8/4k3/8/8/3q4/4K1N1 w - -"), kWhite,
                                MatingTest::kStaticMaterial, AnalysisMode::kQuick, 0)
                .verdict,
            Verdict::kUnwinnable);
  // The blocked position the table misses (docs/rules.md D10): "winnable".
  EXPECT_EQ(analyse_mating_test(fen("7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7 b - -"), kBlack,
                                MatingTest::kStaticMaterial, AnalysisMode::kQuick, 0)
                .verdict,
            Verdict::kWinnable);
}

TEST(MatingTest, PskovForcedMateInOne) {
  // Already a position where Black (to move) cannot avoid Rh8#: Kb8 is the only move.
  Analysis now =
      analyse_mating_test(fen("k7/8/1K6/8/8/8/8/7R b - -"), kWhite,
                          MatingTest::kPskovForcedMateInOne, AnalysisMode::kFull, 10'000);
  EXPECT_EQ(now.verdict, Verdict::kWinnable);
  EXPECT_EQ(now.reason, VerdictReason::kForcedMateInOne);
  // docs/rules.md P7 / scenario 57: K+Q v K+P, the pawn may promote: Black has mating material.
  Analysis p7 =
      analyse_mating_test(fen("8/8/4k3/8/8/8/1p6/3K3Q w - - 0 70"), kBlack,
                          MatingTest::kPskovForcedMateInOne, AnalysisMode::kFull, 200'000);
  EXPECT_EQ(p7.verdict, Verdict::kWinnable);
  // Unwinnable under the helpmate test is unwinnable here too.
  EXPECT_EQ(analyse_mating_test(fen("8/8/8/4k3/8/8/8/4K1N1 w - -"), kWhite,
                                MatingTest::kPskovForcedMateInOne, AnalysisMode::kFull, 1000)
                .verdict,
            Verdict::kUnwinnable);
  // K+N+N v K (P6): a helpmate exists, an unavoidable mate in one does not; never winnable.
  EXPECT_NE(analyse_mating_test(fen("8/8/8/3k4/8/8/8/2NNK3 b - -"), kWhite,
                                MatingTest::kPskovForcedMateInOne, AnalysisMode::kFull, 20'000)
                .verdict,
            Verdict::kWinnable);
}

}  // namespace
}  // namespace eboard::engine
