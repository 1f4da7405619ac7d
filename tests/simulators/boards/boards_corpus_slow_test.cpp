// Every game of the shared corpus through every family's emulator and decoder, in process
// (boards_corpus.h), human noise: the same completed moves as the clockless script. Label
// `slow` (minutes); boards_corpus_test.cpp runs a sample in CI.
#include <gtest/gtest.h>

#include <iostream>

#include "tests/simulators/boards/boards_corpus.h"

namespace eboard::sim::testing {
namespace {

TEST(BoardsCorpusSlow, EveryGameReplaysTheSameThroughEveryFamily) {
  long games = 0;
  std::vector<std::string> failures;
  for (const std::string file :
       {"candidates_matches_1950-2022.pgn", "world_championship_matches_1886-2008.pgn"}) {
    const auto all = corpus_games(file);
    for (std::size_t g = 0; g < all.size(); ++g) {
      ScriptGenOptions options;
      options.seed = g + 1;
      const auto script = clockless(generate_script(all[g], options));
      const Replayed expected = replay_script(script);
      ++games;
      for (const Family family : {Family::kChessLink, Family::kCertabo, Family::kChessnut}) {
        const Replayed got = replay_through(family, script, static_cast<std::uint32_t>(g + 1));
        if (got.moves != expected.moves || got.illegal_completed != expected.illegal_completed) {
          failures.push_back(file + " game " + std::to_string(g + 1) + " " + family_name(family));
        }
      }
    }
  }
  std::cout << "boards corpus: " << games << " games x 3 families, " << failures.size()
            << " differing\n";
  EXPECT_GT(games, 4000);
  EXPECT_TRUE(failures.empty()) << failures.size() << " e.g. " << failures.front();
}

}  // namespace
}  // namespace eboard::sim::testing
