// Move recognition cost over the whole shared corpus: every game of
// ../shared/data/pgn/*.pgn scripted with the `rough` noise model (seed 1), then replayed
//   - per square change through the MoveRecognizer alone, each change timed on its own:
//     median and 99th percentile in ns (the steady_clock pair's own cost subtracted);
//   - whole replays through the MoveRecognizer (presses and completions included) and
//     through the GameTracker (domain events with SAN and FEN, clock model): sensor
//     events per second on one core.
// The scripts are generated once, outside the timed loops.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "engine/game/game_tracker.h"
#include "engine/game/pgn.h"
#include "engine/rules/rule_set.h"
#include "simulators/script_gen/script_gen.h"

namespace {

using namespace eboard::engine;
using Clock = std::chrono::steady_clock;

struct Input {
  std::int32_t at_ms;
  std::uint8_t kind;  // 0 square change, 1 white press, 2 black press
  std::uint8_t square;
  std::uint8_t code;
};

struct Game {
  Position start;
  std::vector<Input> inputs;
};

const std::vector<Game>& corpus() {
  static const std::vector<Game> games = [] {
    std::vector<Game> out;
    std::vector<std::filesystem::path> files;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DIR) + "/data/pgn"))
      if (e.path().extension() == ".pgn") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      const std::string pgn = text.str();
      PgnReader reader(pgn, path.string());
      eboard::sim::ScriptGenOptions options;
      options.noise = eboard::sim::NoiseModel::kRough;
      while (auto g = reader.next()) {
        if (!g->ok()) continue;
        Game game{g->value().start, {}};
        for (const auto& s : eboard::sim::generate_script(g->value(), options)) {
          if (!s.at) continue;
          const auto at = std::int32_t(s.at->count());
          if (const auto* l = std::get_if<eboard::script::Lift>(&s.body))
            game.inputs.push_back({at, 0, std::uint8_t(l->square), kEmptyCode});
          else if (const auto* p = std::get_if<eboard::script::Put>(&s.body))
            game.inputs.push_back(
                {at, 0, std::uint8_t(p->square), square_code_from_char(p->piece)});
          else if (const auto* v = std::get_if<eboard::script::Lever>(&s.body))
            game.inputs.push_back(
                {at, std::uint8_t(v->side == eboard::script::Side::kWhite ? 1 : 2), 0, 0});
        }
        out.push_back(std::move(game));
      }
    }
    return out;
  }();
  return games;
}

std::size_t count_square_changes() {
  std::size_t n = 0;
  for (const Game& g : corpus())
    for (const Input& i : g.inputs) n += i.kind == 0;
  return n;
}

// One game through the recognizer alone: what the daemon's hot path does per event.
template <class OnChange>
void replay_recognizer(const Game& g, RecognizerEvents& events, OnChange&& on_change) {
  MoveRecognizer r(g.start, RecognizerTiming{});
  for (const Input& in : g.inputs) {
    const Millis now(in.at_ms);
    while (auto d = r.next_deadline()) {
      if (*d > now) break;
      r.advance(*d, events);
    }
    events.clear();
    if (in.kind == 0) {
      on_change(r, in, now, events);
    } else if (Color(in.kind - 1) == r.committed().side_to_move()) {
      const PressVerdict v = r.judge_press(now);
      if (v.kind == PressVerdict::Kind::kLegal) r.commit(v.move, now, events);
    }
  }
}

void BM_SquareChangeLatency(benchmark::State& state) {
  std::vector<std::int64_t> samples;
  samples.reserve(count_square_changes());
  std::int64_t overhead = 1 << 30;
  for (int i = 0; i < 1000; ++i) {
    const auto a = Clock::now(), b = Clock::now();
    overhead = std::min<std::int64_t>(overhead, (b - a).count());
  }
  RecognizerEvents events;
  for (auto _ : state) {
    samples.clear();
    for (const Game& g : corpus())
      replay_recognizer(g, events,
                        [&](MoveRecognizer& r, const Input& in, Millis now, RecognizerEvents& out) {
                          const auto t0 = Clock::now();
                          r.sense_square(Square(in.square), in.code, now, out);
                          samples.push_back((Clock::now() - t0).count() - overhead);
                        });
  }
  std::sort(samples.begin(), samples.end());
  state.counters["square_changes"] = double(samples.size());
  state.counters["median_ns"] = double(samples[samples.size() / 2]);
  state.counters["p99_ns"] = double(samples[samples.size() * 99 / 100]);
  state.counters["max_ns"] = double(samples.back());
  state.counters["clock_overhead_ns"] = double(overhead);
}
BENCHMARK(BM_SquareChangeLatency)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_RecognizerReplay(benchmark::State& state) {
  RecognizerEvents events;
  std::size_t inputs = 0;
  for (auto _ : state) {
    for (const Game& g : corpus()) {
      inputs += g.inputs.size();
      replay_recognizer(g, events,
                        [](MoveRecognizer& r, const Input& in, Millis now, RecognizerEvents& out) {
                          r.sense_square(Square(in.square), in.code, now, out);
                        });
    }
  }
  state.counters["sensor_events_per_s"] =
      benchmark::Counter(double(inputs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RecognizerReplay)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_TrackerReplay(benchmark::State& state) {
  GameEvents events;
  std::size_t inputs = 0;
  const RuleSet rules = rule_set_by_name(kDefaultRuleSetName).value();
  const TimeControl control = parse_time_control(rules.default_clock).value();
  for (auto _ : state) {
    for (const Game& g : corpus()) {
      TrackerConfig config;
      config.rules = rules;
      config.time_control = control;
      config.start = g.start;
      GameTracker t(std::move(config));
      inputs += g.inputs.size();
      for (const Input& in : g.inputs) {
        events.clear();
        if (in.kind == 0)
          t.square(Millis(in.at_ms), Square(in.square), in.code, events);
        else
          t.lever(Millis(in.at_ms), Color(in.kind - 1), events);
      }
    }
  }
  state.counters["sensor_events_per_s"] =
      benchmark::Counter(double(inputs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TrackerReplay)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
