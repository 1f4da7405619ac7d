// A sample of the shared corpus through every family's emulator and decoder, in process
// (boards_corpus.h), without a clock: the moves completed from what the decoder reported
// are those of the clockless script itself, and the game's. The whole corpus runs in
// boards_corpus_slow_test.cpp.
#include "tests/simulators/boards/boards_corpus.h"

#include <gtest/gtest.h>

namespace eboard::sim::testing {
namespace {

TEST(BoardsCorpus, ASampleReplaysTheSameThroughEveryFamily) {
  const auto candidates = corpus_games("candidates_matches_1950-2022.pgn");
  const auto championships = corpus_games("world_championship_matches_1886-2008.pgn");
  ASSERT_GT(candidates.size(), 1000u);
  std::vector<const engine::PgnGame*> sample = {&candidates[0], &candidates[700], &championships[5],
                                                &championships[2500]};
  int compared = 0;
  for (std::size_t g = 0; g < sample.size(); ++g) {
    ScriptGenOptions options;
    options.noise = g % 2 ? NoiseModel::kRough : NoiseModel::kHuman;
    options.seed = g + 1;
    const auto script = clockless(generate_script(*sample[g], options));
    const Replayed expected = replay_script(script);
    ASSERT_GT(expected.moves.size(), 10u);
    EXPECT_EQ(expected.moves, uci_moves(*sample[g])) << "sample game " << g;
    EXPECT_EQ(expected.illegal_completed, 0);
    for (const Family family : {Family::kChessLink, Family::kCertabo, Family::kChessnut}) {
      const Replayed got = replay_through(family, script, static_cast<std::uint32_t>(g + 1));
      EXPECT_TRUE(got.no_clock_reported) << family_name(family);
      EXPECT_EQ(got.moves, expected.moves) << family_name(family) << " sample game " << g;
      EXPECT_EQ(got.illegal_completed, expected.illegal_completed) << family_name(family);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 12);
}

// A promotion while the player's first queen is still on the board takes the calibrated
// board's spare queen, which the decoder knows: candidates game 57 promotes on e8 at its
// 83rd ply with White's queen on g3.
TEST(BoardsCorpus, APromotionOnACertaboBoardIsTheSpareQueen) {
  const auto candidates = corpus_games("candidates_matches_1950-2022.pgn");
  ASSERT_GT(candidates.size(), 57u);
  ScriptGenOptions options;
  options.seed = 57;
  const auto script = clockless(generate_script(candidates[56], options));
  const Replayed expected = replay_script(script);
  ASSERT_EQ(expected.moves, uci_moves(candidates[56]));
  const Replayed got = replay_through(Family::kCertabo, script, 57);
  EXPECT_EQ(got.moves, expected.moves);
}

}  // namespace
}  // namespace eboard::sim::testing
