// The clockless corpus through the daemon: games scripted with the human and rough noise,
// their clock lines removed, each played by `eboard-sim dgt --no-clock` on a `sim:` board
// marked `clock=none`, through the real DGT driver into eboardd. Every board's completed
// moves must be exactly its game's.
//
// To keep the run short the sample is the shortest games with some substance, and every
// wait of more than 4 s between two sensor lines is cut to 4 s: only a settled board
// stands that long in the generator's scripts (nothing is in the air for more than
// 1.5 s, docs/clockless.md), and every timer acting on a settled board (settle 3 s,
// restore request 3 s) has run by then, so the cut changes when moves complete, not
// which. EBOARD_CLOCKLESS_STRIDE=1 (slow label) plays more games.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "simulators/script/script_writer.h"
#include "tests/daemon/clockless/clockless_corpus.h"
#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::clockless_testing {
namespace {

using namespace daemon::testing_support;
using namespace std::chrono_literals;
namespace v1 = eboard::v1;

constexpr script::Millis kLongestWait{4000};

std::vector<script::Statement> with_waits_cut(std::vector<script::Statement> script) {
  script::Millis shift{0};
  std::optional<script::Millis> previous;
  for (script::Statement& s : script) {
    if (!s.at) continue;
    const script::Millis at = *s.at;
    if (previous && at - *previous > kLongestWait) shift += at - *previous - kLongestWait;
    previous = at;
    s.at = at - shift;
  }
  return script;
}

struct Board {
  std::string name;
  const CorpusGame* game;
  std::string path;
};

TEST(ClocklessDaemonE2e, SimBoardsMarkedClockNoneCompleteEveryMoveOfTheirGames) {
  const bool whole = stride_from_environment(0) == 1;
  const std::size_t per_noise = whole ? 12 : 2;
  std::vector<CorpusGame> games = corpus_games();
  std::stable_sort(games.begin(), games.end(), [](const CorpusGame& a, const CorpusGame& b) {
    return a.game.moves.size() < b.game.moves.size();
  });
  std::erase_if(games, [](const CorpusGame& g) { return g.game.moves.size() < 12; });
  ASSERT_GE(games.size(), 2 * per_noise);

  const std::string dir = temp_dir("clockless");
  std::vector<Board> boards;
  double longest = 0;
  for (const sim::NoiseModel noise : {sim::NoiseModel::kHuman, sim::NoiseModel::kRough}) {
    for (std::size_t k = 0; k < per_noise; ++k) {
      const CorpusGame& g = games[boards.size()];
      Board b{std::string(sim::noise_model_name(noise)) + std::to_string(k), &g, ""};
      b.path = dir + "/" + b.name + ".ebs";
      const auto script = with_waits_cut(without_clock_lines(generated(g.game, noise, 1)));
      std::ofstream out(b.path);
      for (const script::Statement& s : script) script::write_statement(out, s);
      longest = std::max(longest, std::chrono::duration<double>(*script.back().at).count());
      boards.push_back(b);
    }
  }
  const double speed = 5;
  std::vector<std::string> args = {kBin + "/eboardd",
                                   "--listen",
                                   "unix:" + dir + "/events.sock",
                                   "--journal",
                                   dir + "/journal",
                                   "--journal-fsync",
                                   "never",
                                   "--runtime-dir",
                                   dir,
                                   "--print",
                                   "json",
                                   "--sim-speed",
                                   std::to_string(speed)};
  for (const Board& b : boards)
    args.insert(args.end(), {"--board", b.name + "=sim:" + b.path + ",clock=none"});
  Child daemon(args);
  ASSERT_TRUE(daemon.wait_for_stderr("ready:", 15s)) << daemon.err();

  // Done when every board has completed its game's moves (or a wrong or illegal one).
  std::map<std::string, std::vector<std::string>> moves;
  std::map<std::string, int> illegal;
  const auto tally = [&](const std::string& out) {
    moves.clear();
    illegal.clear();
    for (const v1::Event& e : parse_events(out)) {
      if (e.has_move_completed()) moves[e.board_id()].push_back(e.move_completed().uci());
      if (e.has_illegal_move_completed()) ++illegal[e.board_id()];
    }
  };
  std::size_t seen = 0;
  const auto done = [&](const std::string& out, const std::string&) {
    if (out.size() == seen) return false;
    seen = out.size();
    tally(out);
    return std::all_of(boards.begin(), boards.end(), [&](const Board& b) {
      return moves[b.name].size() >= b.game->game.moves.size() || illegal[b.name] > 0;
    });
  };
  const auto limit = std::chrono::milliseconds(long(longest / speed * 1000)) + 30s;
  EXPECT_TRUE(daemon.wait_for(done, limit)) << "not every game completed in time";
  tally(daemon.out());
  for (const Board& b : boards) {
    std::vector<std::string> want;
    for (const engine::Move m : b.game->game.moves) want.push_back(engine::to_uci(m));
    EXPECT_EQ(moves[b.name], want) << b.name << ": " << b.game->name;
    EXPECT_EQ(illegal[b.name], 0) << b.name << ": " << b.game->name;
  }
  std::printf("clockless daemon: %zu games (human and rough) at %gx, longest %.0f s of play\n",
              boards.size(), speed, longest);
}

}  // namespace
}  // namespace eboard::clockless_testing
