// End to end over real pseudo-terminals: eboard-sim dgt plays a script, eboard-dump reads
// it through the real tty transport and DGT driver. Waits are bounded and event-driven
// (output lines, the link appearing), never fixed sleeps.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "simulators/script/script_reader.h"
#include "simulators/script/script_writer.h"

extern char** environ;

namespace eboard::sim {
namespace {

using Clock = std::chrono::steady_clock;
const std::string kBin = EBOARD_BIN_DIR;
const std::string kScript =
    std::string(EBOARD_SOURCE_DIR) + "/tests/simulators/dgt/data/short_game.ebs";

struct Child {
  pid_t pid = -1;
  int out = -1;  // stdout pipe (read end), or -1
  ~Child() {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
    if (out >= 0) close(out);
  }
};

void spawn(Child& child, std::vector<std::string> args, bool capture) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int fds[2] = {-1, -1};
  if (capture) {
    ASSERT_EQ(pipe(fds), 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
  }
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  ASSERT_EQ(posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  if (capture) {
    close(fds[1]);
    child.out = fds[0];
  }
}

// Sensor lines of a script or of eboard-dump's output.
std::vector<script::Statement> parse(const std::string& text) {
  std::istringstream in(text);
  auto file = script::read_script(in, "dump");
  EXPECT_TRUE(file.ok()) << file.error;
  return file.statements;
}

std::string board_after(const std::vector<script::Statement>& lines) {
  script::Placement p;
  p.squares.fill(script::kEmptySquare);
  for (const auto& s : lines) {
    if (const auto* full = std::get_if<script::Placement>(&s.body)) p = *full;
    if (const auto* lift = std::get_if<script::Lift>(&s.body))
      p.squares[lift->square] = script::kEmptySquare;
    if (const auto* put = std::get_if<script::Put>(&s.body)) p.squares[put->square] = put->piece;
  }
  return script::placement_field(p);
}

// lift/put/lever lines without time, as text.
std::vector<std::string> actions(const std::vector<script::Statement>& lines, bool mirror = false) {
  std::vector<std::string> out;
  for (auto s : lines) {
    if (auto* lift = std::get_if<script::Lift>(&s.body); lift && mirror)
      lift->square = 63 - lift->square;
    if (auto* put = std::get_if<script::Put>(&s.body); put && mirror)
      put->square = 63 - put->square;
    if (std::holds_alternative<script::Lift>(s.body) ||
        std::holds_alternative<script::Put>(s.body) ||
        std::holds_alternative<script::Lever>(s.body)) {
      s.at.reset();
      out.push_back(script::format_statement(s));
    }
  }
  return out;
}

bool is_subsequence(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
  std::size_t i = 0;
  for (const auto& line : whole) {
    if (i < part.size() && part[i] == line) ++i;
  }
  return i == part.size();
}

class DgtEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/eboard-e2e-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    link_ = dir_ + "/b1";
    std::ifstream in(kScript);
    std::stringstream text;
    text << in.rdbuf();
    script_ = parse(text.str());
  }
  void TearDown() override { rmdir(dir_.c_str()); }

  // Runs the emulator with `faults` and eboard-dump until `done(output)` or `limit`.
  std::string run(std::vector<std::string> faults, auto done, std::chrono::seconds limit) {
    Child sim;
    std::vector<std::string> args = {kBin + "/eboard-sim", "dgt", "--link", link_, "--speed", "0"};
    args.insert(args.end(), faults.begin(), faults.end());
    args.push_back(kScript);
    spawn(sim, args, false);
    const auto end = Clock::now() + limit;
    struct stat st {};
    while (lstat(link_.c_str(), &st) != 0 && Clock::now() < end) poll(nullptr, 0, 10);
    Child dump;
    spawn(dump, {kBin + "/eboard-dump", "dgt:" + link_}, true);
    std::string output;
    while (Clock::now() < end && !done(output)) {
      pollfd fd{dump.out, POLLIN, 0};
      if (poll(&fd, 1, 100) > 0) {
        char buffer[4096];
        const ssize_t n = read(dump.out, buffer, sizeof buffer);
        if (n <= 0) break;
        output.append(buffer, static_cast<std::size_t>(n));
      }
    }
    return output;
  }

  std::string final_board() const { return board_after(script_); }

  std::string dir_;
  std::string link_;
  std::vector<script::Statement> script_;
};

TEST_F(DgtEndToEnd, DumpPrintsTheScriptsLiftsPutsAndLevers) {
  const auto expected = actions(script_);
  const std::string out = run(
      {},
      [&](const std::string& o) {
        return actions(parse(o)).size() >= expected.size() &&
               o.find("clocktime 170.0 168.0") != std::string::npos;
      },
      std::chrono::seconds(20));
  const auto lines = parse(out);
  EXPECT_EQ(actions(lines), expected) << out;
  EXPECT_EQ(script::format_statement(script::Statement{0, {}, lines.at(0).body}),
            "placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
  // Hardware clock times are whole seconds: 168.4 shows as 168.
  EXPECT_NE(out.find("clocktime 170.0 168.0"), std::string::npos) << out;
}

TEST_F(DgtEndToEnd, ByteAtATimeDeliveryLosesNothing) {
  const auto expected = actions(script_);
  const std::string out = run(
      {"--split"},
      [&](const std::string& o) { return actions(parse(o)).size() >= expected.size(); },
      std::chrono::seconds(30));
  EXPECT_EQ(actions(parse(out)), expected) << out;
}

TEST_F(DgtEndToEnd, TurnedRoundBoardShowsAMirroredPlacement) {
  const auto expected = actions(script_, true);
  const std::string out = run(
      {"--turned"},
      [&](const std::string& o) { return actions(parse(o)).size() >= expected.size(); },
      std::chrono::seconds(20));
  const auto lines = parse(out);
  EXPECT_EQ(actions(lines), expected) << out;
  EXPECT_EQ(script::format_statement(script::Statement{0, {}, lines.at(0).body}),
            "placement RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr");
}

// Faults: after resync the placement equals the emulator's, and every reported action is
// one the script made, in the script's order.
void expect_resynced(const std::string& out, const std::vector<script::Statement>& script,
                     const std::string& final_board) {
  const auto lines = parse(out);
  EXPECT_EQ(board_after(lines), final_board) << out;
  EXPECT_TRUE(is_subsequence(actions(lines), actions(script))) << out;
}

TEST_F(DgtEndToEnd, GarbageIsDiscardedAndTheBoardResynchronised) {
  const std::string out = run(
      {"--garbage", "3", "--seed", "7"},
      [&](const std::string& o) { return board_after(parse(o)) == final_board(); },
      std::chrono::seconds(20));
  expect_resynced(out, script_, final_board());
}

TEST_F(DgtEndToEnd, DroppedBytesAreRecoveredByADump) {
  const std::string out = run(
      {"--drop", "4", "--seed", "3"},
      [&](const std::string& o) { return board_after(parse(o)) == final_board(); },
      std::chrono::seconds(20));
  expect_resynced(out, script_, final_board());
}

TEST_F(DgtEndToEnd, HangUpAndReturnMidGame) {
  const std::string out = run(
      {"--hangup-at", "9.0", "--hangup-for", "1"},
      [&](const std::string& o) {
        return board_after(parse(o)) == final_board() && actions(parse(o)).back() == "lever white";
      },
      std::chrono::seconds(20));
  expect_resynced(out, script_, final_board());
  // Connected twice: two full placements, and moves reported after the return.
  std::size_t placements = 0;
  for (const auto& s : parse(out)) placements += std::holds_alternative<script::Placement>(s.body);
  EXPECT_GE(placements, 2u) << out;
  EXPECT_NE(out.find("put g1 K"), std::string::npos) << out;
}

}  // namespace
}  // namespace eboard::sim
