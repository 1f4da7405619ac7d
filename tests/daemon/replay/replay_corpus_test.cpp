// Every game of ../shared/data/pgn/*.pgn, scripted by the noise generator with each
// model and two seeds, replayed in process through the same session eboard-replay uses:
// the completed moves must be exactly the game's, with no completed illegal move (issue
// 4, "Tests"). Reports the numbers of games, replays and sensor events checked.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "simulators/script_gen/script_gen.h"
#include "tests/daemon/replay/corpus_replay.h"

namespace eboard::corpus {
namespace {

TEST(ReplayCorpus, EveryGameWithEveryNoiseModelReplaysMoveExact) {
  Totals totals;
  const auto started = std::chrono::steady_clock::now();
  for_each_game([&](const std::string& name, const engine::PgnGame& game) {
    ++totals.games;
    for (const sim::NoiseModel noise :
         {sim::NoiseModel::kClean, sim::NoiseModel::kHuman, sim::NoiseModel::kRough}) {
      for (const std::uint64_t seed : {1ULL, 2ULL}) {
        sim::ScriptGenOptions options;
        options.noise = noise;
        options.seed = seed;
        ++totals.replays;
        const std::string failure =
            replay_exact(game, sim::generate_script(game, options), {}, totals);
        if (!failure.empty())
          note_failure(totals, name + " --noise " + sim::noise_model_name(noise) + " --seed " +
                                   std::to_string(seed) + ": " + failure);
      }
    }
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "replay corpus: " << totals.games << " games, " << totals.replays << " replays, "
            << totals.moves << " moves (" << totals.ended_by_rule
            << " replays ended by fivefold, 75 moves or dead position before the PGN's end), "
            << totals.sensor_events << " sensor events checked in " << seconds << " s\n";
  RecordProperty("games", std::to_string(totals.games));
  RecordProperty("sensor_events", std::to_string(totals.sensor_events));
  EXPECT_GT(totals.games, 4000);
  EXPECT_TRUE(totals.failures.empty()) << totals.failures.size() << " failed replays, e.g.:\n"
                                       << failure_list(totals);
}

}  // namespace
}  // namespace eboard::corpus
