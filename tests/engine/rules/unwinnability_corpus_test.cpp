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
// undetermined count at the default limit is in docs-judge-bench.md.
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
            << "line " << number << " colour " << "WB"[c];
      }
      if ((a.verdict == Verdict::kWinnable) != can_mate) {
        ++wrong;
        ADD_FAILURE() << "line " << number << " colour " << "WB"[c] << ": " << line;
      }
    }
  }
  EXPECT_EQ(positions, 902);
  EXPECT_EQ(wrong, 0);
  RecordProperty("undetermined", undetermined);
  std::printf("CHA vectors: %d queries, %d decided, %d undetermined at %llu nodes\n",
              2 * positions, proven, undetermined, (unsigned long long)kCorpusNodeLimit);
  // Regression bound for this limit (357 measured; see docs-judge-bench.md).
  EXPECT_LE(undetermined, 370);
}

}  // namespace
}  // namespace eboard::engine
