// eboardd --print with a standard output nobody reads (daemon/programs/eboardd/print_out.h):
// a pipe that fills must not stop the daemon. Before, the first write to the full pipe
// blocked the event loop: the demo game stood still, the stream with it, and the daemon
// never reached its end (the demo plays in about 6 s at 50 times its pace). A real process; waits
// are bounded, never sleeps.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

using namespace testing_support;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PrintStdoutE2e, AStdoutNobodyReadsDoesNotStopTheStream) {
  const std::string dir = temp_dir("print");
  const std::string socket = dir + "/events.sock";
  const std::string log = dir + "/stderr";
  int out[2];
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  // One page: the demo's events (some 40 KB of JSON) fill it early in the game.
  ASSERT_EQ(::fcntl(out[1], F_SETPIPE_SZ, 4096), 4096);
  const std::vector<std::string> argv = {kBin + "/eboardd", "--demo-speed",  "50",
                                         "--print",         "json",          "--listen",
                                         "unix:" + socket,  "--runtime-dir", dir};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out[1], 1);
    const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(err, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);  // out[0] stays open and is never read: the pipe fills
  ASSERT_TRUE(poll_until([&] { return read_file(log).find("ready:") != std::string::npos; }, 15s))
      << read_file(log);
  Client client(socket);
  ASSERT_TRUE(client.connected());
  v1::Frame subscribe;
  subscribe.mutable_subscribe()->set_command_id(1);
  subscribe.mutable_subscribe()->set_from_seq(1);
  ASSERT_TRUE(client.send(subscribe));
  std::size_t moves = 0;
  const auto ended = client.next(
      [&](const v1::Frame& f) {
        if (f.has_event() && f.event().has_move_completed()) ++moves;
        return f.has_event() && f.event().has_game_ended();
      },
      30s);
  EXPECT_TRUE(ended.has_value()) << moves << " moves, then nothing: " << read_file(log);
  EXPECT_EQ(moves, 43u);
  // The demo ends on its own shortly after the game, its output still queued.
  int status = -1;
  EXPECT_TRUE(poll_until([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, 30s));
  if (status == -1) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << read_file(log);
  // What the pipe took is the events' JSON, from the first.
  char first[64] = {};
  EXPECT_GT(::read(out[0], first, sizeof first - 1), 0);
  EXPECT_EQ(std::string(first).rfind("{\"boardId\"", 0), 0u) << first;
  ::close(out[0]);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon
