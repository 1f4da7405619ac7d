// The fault soak over the whole corpus (fault_soak.h), slow label: every game of the shared
// PGN files is played once, under the fault pattern its number picks (game K under pattern
// K mod the number of patterns), so each pattern gets its share of the corpus; one test per file
// and pattern. EBOARD_SOAK_LIMIT=N plays only the first N games of each test (a quicker look);
// EBOARD_SOAK_PARALLEL=N plays N games side by side (default 12: they mostly wait).
// A failure repeats with EBOARD_SOAK_GAME=K EBOARD_SOAK_SEED=S (game K of the test's file
// under its pattern, with the seed the failure names) and --gtest_filter on the test.
#include <cstdlib>

#include "tests/daemon/soak/fault_soak.h"

namespace eboard::daemon::soak {
namespace {

std::size_t env_count(const char* name, std::size_t otherwise) {
  const char* text = std::getenv(name);
  return text && *text ? std::strtoul(text, nullptr, 10) : otherwise;
}

using Param = std::tuple<std::string, std::string>;  // file, pattern
class FaultSoakCorpus : public ::testing::TestWithParam<Param> {};

TEST_P(FaultSoakCorpus, EveryGameGivesNoRuling) {
  const auto& [file, name] = GetParam();
  const auto patterns = all_patterns();
  const auto found = std::find_if(patterns.begin(), patterns.end(),
                                  [&](const FaultPattern& p) { return p.name == name; });
  ASSERT_NE(found, patterns.end());
  const std::size_t index = std::size_t(found - patterns.begin());
  const auto games = corpus_file(file);
  ASSERT_FALSE(games.empty()) << file;
  const std::size_t limit = env_count("EBOARD_SOAK_LIMIT", SIZE_MAX);
  std::vector<SoakRun> runs;
  const std::size_t only = env_count("EBOARD_SOAK_GAME", 0);
  for (const auto& g : games) {
    if (only ? std::size_t(g.number) != only : std::size_t(g.number) % patterns.size() != index)
      continue;
    if (runs.size() >= limit) break;
    runs.push_back(SoakRun{&g, *found, seed_of(g, *found)});
  }
  const auto t0 = SteadyClock::now();
  const auto outcomes = play_all(runs, unsigned(env_count("EBOARD_SOAK_PARALLEL", 12)));
  report(file + " " + name, outcomes,
         std::chrono::duration<double>(SteadyClock::now() - t0).count());
}

std::vector<std::string> pattern_names() {
  std::vector<std::string> names;
  for (const auto& p : all_patterns()) names.push_back(p.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Corpus, FaultSoakCorpus,
                         ::testing::Combine(::testing::ValuesIn(corpus_files()),
                                            ::testing::ValuesIn(pattern_names())),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           std::string name = std::get<0>(info.param);
                           name = name.substr(0, name.find('_')) + "_" + std::get<1>(info.param);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace eboard::daemon::soak
