// The noise generator's timing distributions (noise_timing.h), printed for
// docs/clockless.md, over the whole corpus with the human and rough models.
#include "tests/daemon/clockless/noise_timing.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <iostream>

#include "tests/daemon/clockless/clockless_corpus.h"

namespace eboard::clockless_testing {
namespace {

void print(const char* title, const StandTimes& t) {
  std::printf("%s\n%-52s %8s %6s %6s %6s %6s %6s\n", title, "episode", "count", "min", "p50", "p95",
              "p99.9", "max");
  for (int i = 0; i < int(Stand::kCount); ++i) {
    const auto& v = t.of(Stand(i));
    if (v.empty()) continue;
    std::printf("%-52s %8zu %6ld %6ld %6ld %6ld %6ld\n", stand_name(Stand(i)), v.size(),
                percentile(v, 0), percentile(v, 0.5), percentile(v, 0.95), percentile(v, 0.999),
                percentile(v, 1));
  }
}

TEST(NoiseTiming, WholeCorpus) {
  const auto games = corpus_games(stride_from_environment(1));
  for (const sim::NoiseModel noise : {sim::NoiseModel::kHuman, sim::NoiseModel::kRough}) {
    NoiseTimer timer;
    for (const auto& g : games) {
      for (const std::uint64_t seed : {1ULL, 2ULL}) {
        sim::ScriptGenOptions options;
        options.noise = noise;
        options.seed = seed;
        timer.measure(g.game, sim::generate_script(g.game, options));
      }
    }
    print(sim::noise_model_name(noise), timer.times());
  }
}

}  // namespace
}  // namespace eboard::clockless_testing
