// Shared by eboard-ctl's end-to-end tests: eboardd with emulated DGT boards (`sim:`
// scripts written here), eboard-ctl run as a process with its exit status and output,
// and the daemon's events read from its --print json lines. Waits are bounded.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "eboard/v1/json.h"
#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon::ctl_test {

using namespace testing_support;
using namespace std::chrono_literals;
namespace v1 = eboard::v1;

struct CtlRun {
  int status = -1;
  std::string out;
  std::string err;
};

inline CtlRun ctl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {kBin + "/eboard-ctl"};
  argv.insert(argv.end(), args.begin(), args.end());
  Child child(argv);
  const auto status = child.wait(30s);
  return CtlRun{status.value_or(-1), child.out(), child.err()};
}

// A game that stops after its moves: the board stays on the last position, the game
// in progress (the emulator keeps running after its script).
inline std::string idle_script(const std::string& dir, const std::string& name,
                               const std::string& moves_lines) {
  const std::string path = dir + "/" + name + ".ebs";
  std::ofstream(path) << "board " << name << "\nrules fide-standard\nclock 5400+30\n"
                      << "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
                      << moves_lines;
  return path;
}

// 1.e4 e5, then nothing.
inline const std::string kTwoMoves =
    "0.500 lift e2\n0.800 put e4 P\n1.100 lever white\n"
    "1.500 lift e7\n1.800 put e5 p\n2.100 lever black\n";

inline std::vector<std::string> ctl_daemon_args(const std::string& dir,
                                                const std::vector<std::string>& boards) {
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
                                   "json"};
  for (const auto& b : boards) args.insert(args.end(), {"--board", b});
  return args;
}

// The events of the whole lines printed so far (a pipe may hold half of the last one).
inline std::vector<v1::Event> complete_events(const std::string& out) {
  return parse_events(out.substr(0, out.rfind('\n') + 1));
}

inline std::vector<v1::Event> events_of(Child& daemon) {
  daemon.wait_for([](const std::string&, const std::string&) { return false; }, 0ms);
  return complete_events(daemon.out());
}

// Waits until the daemon printed an event after seq `after` that `match` accepts.
inline std::optional<v1::Event> wait_event(Child& daemon, std::uint32_t after,
                                           const std::function<bool(const v1::Event&)>& match,
                                           std::chrono::milliseconds limit = 15s) {
  std::optional<v1::Event> found;
  daemon.wait_for(
      [&](const std::string& out, const std::string&) {
        for (const auto& e : complete_events(out)) {
          if (e.seq() > after && match(e)) {
            found = e;
            return true;
          }
        }
        return false;
      },
      limit);
  return found;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace eboard::daemon::ctl_test
