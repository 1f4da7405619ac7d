// The shared corpus on a board without a clock: every game scripted with the human and
// rough noise models, every `lever`, `clocktime` and `flag` line removed, replayed in
// process through eboard-replay's session with --no-clock. The completed moves must be
// exactly the game's, with no completed illegal move. A sample (every 100th game) in the
// corpus label; EBOARD_CLOCKLESS_STRIDE=1 (the slow label) runs all of it with two seeds.
//
// It also prints what the missing clock costs: how long after a move was made (its last
// sensor line) it is completed here, against the press that completed it with a clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "tests/daemon/clockless/clockless_corpus.h"
#include "tests/daemon/clockless/noise_timing.h"

namespace eboard::clockless_testing {
namespace {

struct Latency {
  std::vector<long> clockless;  // completion - made
  std::vector<long> pressed;    // press - made, the same plies
  std::map<engine::CompletionKind, long> by_rule;
};

const char* rule_name(engine::CompletionKind k) {
  switch (k) {
    case engine::CompletionKind::kOpponentBegan: return "opponent began";
    case engine::CompletionKind::kSettled: return "settled";
    case engine::CompletionKind::kGameEnd: return "game end";
    default: return "other";
  }
}

void print(const char* noise, const Latency& l) {
  const auto mean = [](const std::vector<long>& v) {
    double sum = 0;
    for (long x : v) sum += double(x);
    return v.empty() ? 0.0 : sum / double(v.size());
  };
  std::printf("%s: completion after the move was made, ms (p50 / p95 / max / mean)\n", noise);
  std::printf("  without a clock %6ld %6ld %6ld %8.0f\n", percentile(l.clockless, 0.5),
              percentile(l.clockless, 0.95), percentile(l.clockless, 1), mean(l.clockless));
  std::printf("  press           %6ld %6ld %6ld %8.0f\n", percentile(l.pressed, 0.5),
              percentile(l.pressed, 0.95), percentile(l.pressed, 1), mean(l.pressed));
  for (const auto& [rule, n] : l.by_rule) std::printf("  %-15s %ld moves\n", rule_name(rule), n);
}

struct Replays {
  sim::NoiseModel noise;
  sim::ScriptSensing sensing;
  corpus::Totals totals;
  Latency latency;
};

void replay_all(const std::vector<CorpusGame>& games, const std::vector<std::uint64_t>& seeds,
                Replays& run) {
  daemon::ReplayOptions options;
  options.clock_presence = engine::ClockPresence::kNone;
  for (const CorpusGame& g : games) {
    for (const std::uint64_t seed : seeds) {
      const auto script = generated(g.game, run.noise, seed, run.sensing);
      const PlyTimes plies = ply_times(script);
      ++run.totals.replays;
      std::size_t ply = 0;
      const std::string failure = corpus::replay_exact(
          g.game, without_clock_lines(script), options, run.totals,
          [&](const engine::GameEvent& e) {
            run.latency.clockless.push_back(long(e.at.count()) - plies.made[ply]);
            run.latency.pressed.push_back(plies.pressed[ply] - plies.made[ply]);
            ++run.latency.by_rule[e.get<engine::events::MoveCompleted>()->completion];
            ++ply;
          });
      if (!failure.empty())
        corpus::note_failure(run.totals, g.name + " --noise " + sim::noise_model_name(run.noise) +
                                             " --seed " + std::to_string(seed) + ": " + failure);
    }
  }
}

TEST(ClocklessReplay, TheCorpusWithoutClockLinesReplaysMoveExact) {
  const int stride = stride_from_environment(100);
  const std::vector<std::uint64_t> seeds =
      stride == 1 ? std::vector<std::uint64_t>{1, 2} : std::vector<std::uint64_t>{1};
  const auto games = corpus_games(stride);
  for (const sim::ScriptSensing sensing :
       {sim::ScriptSensing::kPieces, sim::ScriptSensing::kOccupancy}) {
    for (const sim::NoiseModel noise : {sim::NoiseModel::kHuman, sim::NoiseModel::kRough}) {
      Replays run{noise, sensing, {}, {}};
      replay_all(games, seeds, run);
      const std::string what = std::string(sim::noise_model_name(noise)) +
                               (sensing == sim::ScriptSensing::kOccupancy ? " occupancy" : "");
      std::printf("clockless %s: %zu games, %ld replays, %ld moves, %zu not exact\n", what.c_str(),
                  games.size(), run.totals.replays, run.totals.moves, run.totals.failures.size());
      print(what.c_str(), run.latency);
      EXPECT_TRUE(run.totals.failures.empty())
          << what << ": " << run.totals.failures.size() << " replays not move-exact, e.g.:\n"
          << corpus::failure_list(run.totals);
    }
  }
}

// An illegal move completed without a clock gets the rule set's handling from that
// moment, as after a press: fide-standard gives the opponent two minutes (7.5.5).
TEST(ClocklessReplay, AnIllegalMoveCompletedWithoutAClockGetsTheRuleSetsHandling) {
  daemon::ReplayOptions options;
  options.clock_presence = engine::ClockPresence::kNone;
  daemon::ReplaySession session(options);
  engine::GameEvents events;
  const auto at = [](int ms) { return std::optional<script::Millis>(ms); };
  for (const script::Statement& s :
       {script::Statement{0, at(0), script::start_placement()},
        script::Statement{0, at(1000), script::Lift{*script::parse_square("f1")}},
        script::Statement{0, at(1100), script::Put{*script::parse_square("c4"), 'B'}},
        script::Statement{0, at(1200), script::Lever{script::Side::kWhite}}}) {
    ASSERT_FALSE(session.feed(s, events));
  }
  session.finish(events);
  std::vector<engine::GameEventKind> kinds;
  for (const auto& e : events) kinds.push_back(e.kind());
  const auto has = [&](engine::GameEventKind k) {
    return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
  };
  ASSERT_TRUE(has(engine::GameEventKind::kIllegalMoveCompleted));
  EXPECT_TRUE(has(engine::GameEventKind::kPenalty));
  for (const auto& e : events) {
    if (e.is<engine::events::IllegalMoveCompleted>()) {
      EXPECT_EQ(e.at, engine::Millis(4100));
    }
    // The lever line is dropped: no clock reaches a board without one.
    EXPECT_FALSE(e.is<engine::events::ClockPressWithoutMove>());
  }
}

// The corpus can tell: with a settle time shorter than the generator's longest tried move
// (1.8 s, docs/clockless.md) moves taken back are completed and the replays are not exact.
TEST(ClocklessReplay, ASettleTimeShorterThanATriedMoveBreaksTheReplays) {
  daemon::ReplayOptions options;
  options.clock_presence = engine::ClockPresence::kNone;
  corpus::Totals totals;
  const auto games = corpus_games(100);
  int broken = 0;
  for (const CorpusGame& g : games) {
    std::vector<script::Statement> script =
        without_clock_lines(generated(g.game, sim::NoiseModel::kHuman, 1));
    script.insert(script.begin(),
                  script::Statement{0, std::nullopt, script::Param{"clockless_settle_ms", "1200"}});
    if (!corpus::replay_exact(g.game, script, options, totals).empty()) ++broken;
  }
  std::printf("settle 1.2 s: %d of %zu human replays not exact\n", broken, games.size());
  EXPECT_GT(broken, 5);
}

}  // namespace
}  // namespace eboard::clockless_testing
