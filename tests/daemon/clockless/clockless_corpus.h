// What the clockless corpus tests share: the shared PGN games turned into sensor scripts
// by the noise generator and stripped of every clock line (`lever`, `clocktime`, `flag`),
// as a board without a clock reports them.
#pragma once

#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "engine/game/pgn.h"
#include "simulators/script/statement.h"
#include "simulators/script_gen/script_gen.h"
#include "tests/daemon/replay/corpus_replay.h"

namespace eboard::clockless_testing {

inline bool is_clock_line(const script::Body& body) {
  return std::holds_alternative<script::Lever>(body) ||
         std::holds_alternative<script::ClockTime>(body) ||
         std::holds_alternative<script::Flag>(body);
}

// The script as a board without a clock reports it.
inline std::vector<script::Statement> without_clock_lines(std::vector<script::Statement> script) {
  std::erase_if(script, [](const script::Statement& s) { return is_clock_line(s.body); });
  return script;
}

struct CorpusGame {
  std::string name;  // "file.pgn game K"
  engine::PgnGame game;
};

// Every `stride`-th game of the corpus, from the first.
inline std::vector<CorpusGame> corpus_games(int stride = 1) {
  std::vector<CorpusGame> games;
  int n = 0;
  corpus::for_each_game([&](const std::string& name, const engine::PgnGame& game) {
    if (n++ % stride == 0) games.push_back({name, game});
  });
  return games;
}

// The sample stride: EBOARD_CLOCKLESS_STRIDE (the slow label sets 1, the whole corpus).
inline int stride_from_environment(int default_stride) {
  const char* text = std::getenv("EBOARD_CLOCKLESS_STRIDE");
  const int n = text ? std::atoi(text) : 0;
  return n > 0 ? n : default_stride;
}

inline std::vector<script::Statement> generated(
    const engine::PgnGame& game, sim::NoiseModel noise, std::uint64_t seed,
    sim::ScriptSensing sensing = sim::ScriptSensing::kPieces) {
  sim::ScriptGenOptions options;
  options.noise = noise;
  options.seed = seed;
  options.sensing = sensing;
  return sim::generate_script(game, options);
}

// Per ply of a generated script with its presses: when the move was made (its last
// sensor line) and when its player pressed.
struct PlyTimes {
  std::vector<long> made;
  std::vector<long> pressed;
};

inline PlyTimes ply_times(const std::vector<script::Statement>& script) {
  PlyTimes t;
  long last_sensor = 0;
  for (const script::Statement& s : script) {
    if (!s.at) continue;
    if (std::holds_alternative<script::Lever>(s.body)) {
      t.made.push_back(last_sensor);
      t.pressed.push_back(long(s.at->count()));
    } else if (script::is_sensor(s.body)) {
      last_sensor = long(s.at->count());
    }
  }
  return t;
}

}  // namespace eboard::clockless_testing
