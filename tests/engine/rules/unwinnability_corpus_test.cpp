// Every labelled position of the Chess Unwinnability Analyzer's test vectors
// (../shared/data/unwinnability/cha_vectors.txt, 902 positions, both colours): no verdict
// may contradict a label. Undetermined answers are allowed and counted.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/rules/mate_search.h"
#include "engine/rules/unwinnability_analyzer.h"

namespace eboard::engine {
namespace {

// Kept below the judge's default so the whole corpus runs in seconds on one core; the
// undetermined count at the default limit is in BENCHMARKS.md.
constexpr std::uint64_t kCorpusNodeLimit = 20'000;

TEST(UnwinnabilityCorpus, NoVerdictContradictsTheChaLabels) {
  std::ifstream in(std::string(EBOARD_SHARED_DIR) + "/data/unwinnability/cha_vectors.txt");
  ASSERT_TRUE(in) << "cha_vectors.txt missing";
  WinnabilityAnalyzer analyzer;
  int positions = 0, wrong = 0, undetermined = 0, proven = 0;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    ASSERT_GT(line.size(), 3u);
    const std::string label = line.substr(0, 2);
    auto pos = parse_fen(line.substr(3), FenMode::kAllowIrregular);
    ASSERT_TRUE(pos.ok()) << "line " << number << ": " << pos.error();
    ++positions;
    for (Color c : {kWhite, kBlack}) {
      const bool can_mate = label[c] != '-';
      Analysis a = analyzer.analyse(pos.value(), c, AnalysisMode::kFull, kCorpusNodeLimit);
      if (a.verdict == Verdict::kUndetermined) {
        ++undetermined;
        continue;
      }
      ++proven;
      if (a.verdict == Verdict::kWinnable && !a.line.empty()) {
        // The proof itself: legal moves ending with the loser checkmated.
        Position p = pos.value();
        bool legal = true;
        for (Move m : a.line) {
          if (!(legal = p.is_legal(m))) break;
          p.make(m);
        }
        EXPECT_TRUE(legal && p.side_to_move() == ~c && is_checkmate(p))
            << "line " << number << " colour "
            << "WB"[c];
      }
      if ((a.verdict == Verdict::kWinnable) != can_mate) {
        ++wrong;
        ADD_FAILURE() << "line " << number << " colour "
                      << "WB"[c] << ": " << line;
      }
    }
  }
  EXPECT_EQ(positions, 902);
  EXPECT_EQ(wrong, 0);
  RecordProperty("undetermined", undetermined);
  std::printf("CHA vectors: %d queries, %d decided, %d undetermined at %llu nodes\n", 2 * positions,
              proven, undetermined, (unsigned long long)kCorpusNodeLimit);
  // Regression bound for this limit (84 measured; see BENCHMARKS.md).
  EXPECT_LE(undetermined, 84);
}

}  // namespace
}  // namespace eboard::engine

namespace eboard::engine {
namespace {

// Does the side to move have a legal move, and does every one of them let the other side
// mate at once (S4 13c(2)'s "mates in one and the side to move cannot avoid it")?
bool every_reply_allows_mate(Position& pos) {
  MoveList replies;
  generate_legal(pos, replies);
  if (replies.empty()) return false;
  for (Move r : replies) {
    pos.make(r);
    MoveList mates;
    generate_legal(pos, mates);
    bool mate = false;
    for (Move m : mates) {
      pos.make(m);
      mate = is_checkmate(pos);
      pos.unmake(m);
      if (mate) break;
    }
    pos.unmake(r);
    if (!mate) return false;
  }
  return true;
}

// The theorem behind knights_against_bare_king() (docs/rules.md §4.55), checked by brute
// force: every placement of K+N+N v K with the bare king to move, the bare king in the
// a1-d1-d4 triangle (the other placements are mirror images: no pawns, no castling).
TEST(UnwinnabilityCorpus, TwoKnightsNeverForceMateInOne) {
  constexpr Square kTriangle[] = {kA1,        Square(1),  Square(2),  Square(3),  Square(9),
                                  Square(10), Square(11), Square(18), Square(19), Square(27)};
  std::uint64_t placements = 0, found = 0;
  for (Square bk : kTriangle)
    for (int wk = 0; wk < 64; ++wk) {
      if (wk == bk || (king_attacks(bk) & square_bb(Square(wk)))) continue;
      for (int n1 = 0; n1 < 64; ++n1)
        for (int n2 = n1 + 1; n2 < 64; ++n2) {
          if (n1 == bk || n1 == wk || n2 == bk || n2 == wk) continue;
          Piece board[kSquareCount] = {};
          board[bk] = kBlackKing;
          board[wk] = kWhiteKing;
          board[n1] = board[n2] = kWhiteKnight;
          Position pos = Position::from_parts(board, kBlack, kNoCastling, kNoSquare, 0, 1);
          ++placements;
          if (every_reply_allows_mate(pos)) ++found;
        }
    }
  EXPECT_GT(placements, 1'000'000u);
  EXPECT_EQ(found, 0u);
  // The check can fail: with a rook such a position exists (Kg8 is forced, then Ra8#).
  Position rook = parse_fen("7k/R7/6K1/8/8/8/8/8 b - - 0 1").value();
  EXPECT_TRUE(every_reply_allows_mate(rook));
}

}  // namespace
}  // namespace eboard::engine
