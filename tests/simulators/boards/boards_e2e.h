// What the multi-family end-to-end tests share (boards_e2e_test.cpp,
// four_families_e2e_test.cpp): the events eboardd prints as JSON lines, a corpus game as
// a clockless script for boards without a clock, and the moves `eboard-replay` completes
// for a script, the oracle a game played through eboardd is compared with.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eboard/v1/json.h"
#include "tests/e2e_process.h"

namespace eboard::daemon::boards_e2e {

namespace v1 = eboard::v1;
using namespace testing_support;
using namespace std::chrono_literals;

inline const std::string kCandidates =
    std::string(EBOARD_SHARED_DIR) + "/data/pgn/candidates_matches_1950-2022.pgn";

inline std::vector<v1::Event> parse_events(const std::string& text) {
  std::vector<v1::Event> events;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '{') continue;
    if (auto event = proto::event_from_json(line); event.ok()) events.push_back(event.value());
  }
  return events;
}

// The moves completed on `board` ("": on any board).
inline std::vector<std::string> moves_of(const std::string& json, const std::string& board = "") {
  std::vector<std::string> moves;
  for (const auto& e : parse_events(json)) {
    if (e.has_move_completed() && (board.empty() || e.board_id() == board))
      moves.push_back(e.move_completed().uci());
  }
  return moves;
}

// "38 of 40 moves, the first difference at ply 39": what a failed comparison says.
inline std::string difference(const std::vector<std::string>& got,
                              const std::vector<std::string>& expected) {
  std::size_t ply = 0;
  while (ply < got.size() && ply < expected.size() && got[ply] == expected[ply]) ++ply;
  return std::to_string(got.size()) + " of " + std::to_string(expected.size()) +
         " moves, the first difference at ply " + std::to_string(ply + 1) + " (" +
         (ply < got.size() ? got[ply] : "none") + " for " +
         (ply < expected.size() ? expected[ply] : "none") + ")";
}

inline int count_of(const std::string& json, bool (v1::Event::*has)() const) {
  int n = 0;
  for (const auto& e : parse_events(json)) n += (e.*has)();
  return n;
}

// At --speed 0 the emulator plays as fast as the daemon reads, so the daemon's time between
// two reports is whatever the machine makes it, not the script's: the clockless times are
// set out of reach here and in eboardd (kNoTimers), so that moves complete only when the
// opponent's move is put down on them (COMPLETION_OPPONENT_BEGAN, at once), the same on a
// busy machine as in the replay. The times themselves are the clockless tests' business
// (tests/daemon/clockless).
inline const std::vector<std::string> kNoTimers = {"clockless_stable_ms", "clockless_settle_ms"};
constexpr const char* kOutOfReach = "3600000";

// Game `k` of the candidates corpus as `eboard-sim script` writes it with `noise`.
inline std::string corpus_script_text(int k, const std::string& noise) {
  Child sim({kBin + "/eboard-sim", "script", "--pgn", kCandidates, "--game", std::to_string(k),
             "--noise", noise, "--seed", std::to_string(k)});
  EXPECT_EQ(sim.wait(30s), 0) << sim.err();
  return sim.out();
}

// Game `k` of the candidates corpus, `noise`, without its clock lines and with the
// clockless times out of reach, at dir/NAME.ebs.
inline std::string clockless_script(const std::string& dir, int k, const std::string& noise,
                                    const std::string& name = "game") {
  std::istringstream in(corpus_script_text(k, noise));
  std::ostringstream out;
  std::string line;
  bool params = false;
  while (std::getline(in, line)) {
    if (!params && line.rfind("tag ", 0) == 0) {  // after `start`, with the header
      for (const auto& name : kNoTimers) out << "param " << name << " " << kOutOfReach << "\n";
      params = true;
    }
    const auto space = line.find(' ');
    const std::string word = space == std::string::npos ? "" : line.substr(space + 1, 5);
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])) &&
        (word.rfind("lever", 0) == 0 || word.rfind("clock", 0) == 0 ||
         word.rfind("flag", 0) == 0)) {
      continue;
    }
    out << line << "\n";
  }
  const std::string path = dir + "/" + name + ".ebs";
  std::ofstream(path) << out.str();
  return path;
}

// The moves eboardd completes while the game is played: the replay's, but for a last move
// completed by settling, which the replay's end lets happen (its settle time runs out) and
// eboardd waits for (kOutOfReach).
// A script with its clock lines (a DGT board's) is replayed with its clock: `extra`
// holds the options eboardd is given for it (--rules, --clock). kKept keeps a last move
// completed by settling.
enum class SettledLast : std::uint8_t { kDropped, kKept };
inline std::vector<std::string> replay_moves(const std::string& script,
                                             const std::vector<std::string>& extra = {"--no-clock"},
                                             SettledLast last = SettledLast::kDropped) {
  std::vector<std::string> args = {kBin + "/eboard-replay"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(script);
  Child replay(args);
  EXPECT_EQ(replay.wait(60s), 0) << replay.err();
  std::vector<std::string> moves;
  bool settled_last = false;
  for (const auto& e : parse_events(replay.out())) {
    if (!e.has_move_completed()) continue;
    moves.push_back(e.move_completed().uci());
    settled_last = e.move_completed().completion() == v1::COMPLETION_SETTLED;
  }
  if (settled_last && last == SettledLast::kDropped) moves.pop_back();
  return moves;
}

}  // namespace eboard::daemon::boards_e2e
