// Every game of ../shared/data/pgn/*.pgn scripted as an occupancy-only board reports it
// (docs/protocols.md §10: `?` for every piece, a `promote` line for each under-promotion),
// with the human and rough noise models and two seeds each, replayed in
// process through a real GameTracker: the completed moves must be exactly the game's,
// with no completed illegal move. Reports games, replays, moves and sensor events.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "simulators/script_gen/script_gen.h"
#include "tests/simulators/script_gen/tracker_replay.h"

namespace eboard::sim {
namespace {

std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DIR) + "/data/pgn"))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string first_difference(const std::vector<std::string>& got,
                             const std::vector<std::string>& want) {
  for (std::size_t i = 0; i < std::max(got.size(), want.size()); ++i) {
    const std::string g = i < got.size() ? got[i] : "(none)";
    const std::string w = i < want.size() ? want[i] : "(none)";
    if (g != w) return "ply " + std::to_string(i + 1) + ": completed " + g + ", game has " + w;
  }
  return "";
}

TEST(OccupancyCorpus, EveryGameReplaysMoveExactOnAnOccupancyOnlyBoard) {
  long games = 0, replays = 0, moves = 0, sensor_events = 0, under_promotions = 0;
  std::vector<std::string> failures;
  const auto started = std::chrono::steady_clock::now();
  for (const auto& path : corpus_files()) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    engine::PgnReader reader(text, path.filename().string());
    int index = 0;
    while (auto game = reader.next()) {
      ++index;
      ASSERT_TRUE(game->ok()) << game->error();
      ++games;
      const std::vector<std::string> want = testing::game_ucis(game->value());
      for (const engine::Move m : game->value().moves)
        under_promotions += m.is_promotion() && m.promotion() != engine::kQueen;
      for (const NoiseModel noise : {NoiseModel::kHuman, NoiseModel::kRough}) {
        for (const std::uint64_t seed : {1ULL, 2ULL}) {
          ScriptGenOptions options;
          options.noise = noise;
          options.seed = seed;
          options.sensing = ScriptSensing::kOccupancy;
          const auto r =
              testing::replay_in_tracker(game->value(), generate_script(game->value(), options));
          ++replays;
          sensor_events += r.sensor_events;
          moves += long(r.completed.size());
          std::string failure = r.failure;
          if (failure.empty() && !r.occupancy)
            failure = "not recognised as an occupancy-only board";
          if (failure.empty()) failure = first_difference(r.completed, want);
          if (!failure.empty())
            failures.push_back(path.filename().string() + " game " + std::to_string(index) +
                               " --noise " + noise_model_name(noise) + " --seed " +
                               std::to_string(seed) + " --sensing occupancy: " + failure);
        }
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "occupancy corpus: " << games << " games (" << under_promotions
            << " under-promotions), " << replays << " replays, " << moves << " moves, "
            << sensor_events << " sensor events, " << failures.size() << " failed, in " << seconds
            << " s\n";
  RecordProperty("games", std::to_string(games));
  RecordProperty("sensor_events", std::to_string(sensor_events));
  EXPECT_GT(games, 4000);
  std::string shown;
  for (std::size_t i = 0; i < failures.size() && i < 20; ++i) shown += failures[i] + "\n";
  EXPECT_TRUE(failures.empty()) << failures.size() << " failed replays, e.g.:\n" << shown;
}

}  // namespace
}  // namespace eboard::sim
