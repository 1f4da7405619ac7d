// The fault soak's sample (fault_soak.h), run in CI: two corpus games under every fault
// pattern, all played side by side (the processes mostly wait on the emulator's time, so
// the whole sample takes about as long as its longest game). The whole corpus is
// fault_soak_slow_test.cpp's.
#include "tests/daemon/soak/fault_soak.h"

namespace eboard::daemon::soak {
namespace {

// Two short games, one of each file: 37 and 31 plies, 5 to 8 minutes of script.
const std::vector<std::pair<std::string, int>> kSample = {
    {"world_championship_matches_1886-2008.pgn", 21},
    {"candidates_matches_1950-2022.pgn", 38},
};

TEST(FaultSoak, TheSampleGivesNoRuling) {
  std::vector<CorpusGame> games;
  for (const auto& [file, number] : kSample) {
    for (auto& g : corpus_file(file))
      if (g.number == number) games.push_back(g);
  }
  ASSERT_EQ(games.size(), kSample.size());
  const std::vector<FaultPattern> patterns = all_patterns();  // every one
  std::vector<SoakRun> runs;
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    for (const auto& g : games) runs.push_back(SoakRun{&g, patterns[p], seed_of(g, patterns[p])});
  }
  const auto t0 = SteadyClock::now();
  const auto outcomes = play_all(runs, unsigned(runs.size()));
  const double wall = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  Totals all;
  for (const auto& pattern : patterns) {
    std::vector<Outcome> of_pattern;
    for (std::size_t i = 0; i < runs.size(); ++i)
      if (runs[i].pattern.name == pattern.name) of_pattern.push_back(outcomes[i]);
    double longest = 0;
    for (const auto& o : of_pattern) longest = std::max(longest, o.wall_seconds);
    for (const auto& o : of_pattern) all.add(o);
    report(pattern.name, of_pattern, longest);
  }
  all.wall_seconds = wall;
  std::printf("%s\n", all.line("all").c_str());
}

}  // namespace
}  // namespace eboard::daemon::soak
