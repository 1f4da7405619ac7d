// Every game of the shared corpus through every family's emulator and decoder, in process
// (boards_corpus.h), human noise, without a clock: the same completed moves as the
// clockless script, which are the game's (a game the rules end early, fivefold repetition
// or 75 moves, is compared up to there by the clockless corpus tests, not here). Label
// `slow` (minutes); boards_corpus_test.cpp runs a sample in CI.
#include <gtest/gtest.h>

#include <iostream>

#include "tests/simulators/boards/boards_corpus.h"

namespace eboard::sim::testing {
namespace {

TEST(BoardsCorpusSlow, EveryGameReplaysTheSameThroughEveryFamily) {
  long games = 0;
  long not_the_game = 0;  // the script's own replay differs from the PGN
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
      not_the_game += expected.moves != uci_moves(all[g]);
      for (const Family family : {Family::kChessLink, Family::kCertabo, Family::kChessnut}) {
        const Replayed got = replay_through(family, script, static_cast<std::uint32_t>(g + 1));
        if (got.moves != expected.moves || got.illegal_completed != expected.illegal_completed ||
            !got.no_clock_reported) {
          failures.push_back(file + " game " + std::to_string(g + 1) + " " + family_name(family));
        }
      }
    }
  }
  std::cout << "boards corpus: " << games << " games x 3 families, " << failures.size()
            << " differing; " << not_the_game << " scripts not replayed as their game\n";
  EXPECT_GT(games, 4000);
  EXPECT_TRUE(failures.empty()) << failures.size() << " e.g. " << failures.front();
}

}  // namespace
}  // namespace eboard::sim::testing
