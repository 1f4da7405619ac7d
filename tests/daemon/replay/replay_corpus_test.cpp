// Every game of ../shared/data/pgn/*.pgn, scripted by the noise generator with each
// model and two seeds, replayed in process through the same session eboard-replay uses:
// the completed moves must be exactly the game's, with no completed illegal move (issue
// 4, "Tests"). Reports the numbers of games, replays and sensor events checked.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/programs/eboard_replay/replay_session.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"
#include "simulators/script_gen/script_gen.h"

namespace eboard {
namespace {

std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DIR) + "/data/pgn"))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct Totals {
  long games = 0;
  long replays = 0;
  long sensor_events = 0;
  long moves = 0;
  long ended_by_rule = 0;  // fivefold, 75 moves or dead position before the PGN's last move
  std::vector<std::string> failures;
};

bool ended_by_rule(engine::TerminationKind t) {
  using T = engine::TerminationKind;
  return t == T::kFivefoldRepetition || t == T::kSeventyFiveMoves || t == T::kDeadPosition;
}

// One replay; returns "" or what went wrong.
std::string replay_one(const engine::PgnGame& game, const sim::ScriptGenOptions& options,
                       Totals& totals) {
  const std::vector<script::Statement> script = sim::generate_script(game, options);
  daemon::ReplaySession session({});
  engine::GameEvents events;
  std::size_t ply = 0;
  for (const script::Statement& s : script) {
    if (s.at && script::is_sensor(s.body)) ++totals.sensor_events;
    if (auto error = session.feed(s, events)) return "script error: " + *error;
    for (const engine::GameEvent& e : events) {
      // D7: the game ends by itself before the recorded players went on (they played on,
      // the 2014+ rules end it); the moves up to there must still be exact.
      if (e.kind == engine::GameEventKind::kGameEnded && !e.proposed &&
          ended_by_rule(e.termination)) {
        ++totals.ended_by_rule;
        totals.moves += long(ply);
        return "";
      }
      if (e.kind == engine::GameEventKind::kIllegalMoveCompleted)
        return "illegalMoveCompleted at " + std::to_string(e.at_ms) + " ms: " + e.description;
      if (e.kind != engine::GameEventKind::kMoveCompleted) continue;
      if (ply >= game.moves.size()) return "extra moveCompleted " + e.uci;
      if (e.uci != engine::to_uci(game.moves[ply]))
        return "ply " + std::to_string(ply + 1) + ": completed " + e.uci + ", game has " +
               engine::to_uci(game.moves[ply]);
      ++ply;
    }
    events.clear();
  }
  session.finish(events);
  for (const engine::GameEvent& e : events)
    if (e.kind == engine::GameEventKind::kMoveCompleted) return "extra moveCompleted " + e.uci;
  if (ply != game.moves.size())
    return "missing moves: completed " + std::to_string(ply) + " of " +
           std::to_string(game.moves.size());
  totals.moves += long(ply);
  return "";
}

TEST(ReplayCorpus, EveryGameWithEveryNoiseModelReplaysMoveExact) {
  Totals totals;
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
      ++totals.games;
      for (const sim::NoiseModel noise :
           {sim::NoiseModel::kClean, sim::NoiseModel::kHuman, sim::NoiseModel::kRough}) {
        for (const std::uint64_t seed : {1ULL, 2ULL}) {
          sim::ScriptGenOptions options;
          options.noise = noise;
          options.seed = seed;
          ++totals.replays;
          const std::string failure = replay_one(game->value(), options, totals);
          if (!failure.empty() && totals.failures.size() < 20)
            totals.failures.push_back(path.filename().string() + " game " + std::to_string(index) +
                                      " --noise " + sim::noise_model_name(noise) + " --seed " +
                                      std::to_string(seed) + ": " + failure);
          else if (!failure.empty())
            totals.failures.push_back("");
        }
      }
    }
  }
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
                                       << [&] {
                                            std::string s;
                                            for (const auto& f : totals.failures)
                                              if (!f.empty()) s += f + "\n";
                                            return s;
                                          }();
}

}  // namespace
}  // namespace eboard
