// eboardd's end-to-end figures (BENCHMARKS.md):
//
//   bench_daemon_latency latency [--pace-ms N] [--fsync
//   after-publish(default)|always|interval|never] [--games G]
//     This process is the DGT board: it holds the pty (simulators' PtyLink and
//     DgtEmulator, the same code as `eboard-sim dgt`) and is also a consumer on the
//     daemon's Unix socket. It plays the demo game statement by statement and, for every
//     clock press, takes the time from just before the press's bytes are written to the
//     pty to the arrival of the event it causes (moveCompleted) - emulator write to
//     consumer receive, through the kernel's pty, the DGT driver, the tracker, the
//     journal and the socket. --pace-ms 0 plays as fast as possible; 500 is human pace.
//     --games G plays the game G times (a NewGame command between them), so that with
//     G >= 3 (129+ presses) the p99 is a percentile and not the slowest press of one game.
//
//   bench_daemon_latency load [--boards N] [--seconds S]
//     eboardd with N `sim:` boards playing the demo game at human speed (one emulator
//     process each) and one eboard-events consumer; reports the daemon's CPU share of
//     one core (utime+stime over S seconds) and its resident memory (VmRSS, VmHWM).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "benchmarks/demo_on_pty.h"
#include "daemon/core/demo_game.h"
#include "daemon/core/sim_process.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
namespace v1 = eboard::v1;

// `log`: a file for the child's stderr instead of /dev/null (quiet only).
pid_t spawn(const std::vector<std::string>& argv, bool quiet, const std::string& log = "") {
  const pid_t pid = fork();
  if (pid == 0) {
    if (quiet) {
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::dup2(log.empty() ? null : ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

void stop(pid_t pid) {
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

int connect_unix(const std::string& path, std::chrono::milliseconds limit) {
  const auto end = Clock::now() + limit;
  while (Clock::now() < end) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path.c_str());
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0) return fd;
    ::close(fd);
    ::poll(nullptr, 0, 20);  // the daemon is still starting: a bounded retry
  }
  return -1;
}

std::string temp_dir() {
  char pattern[] = "/tmp/eboardd-bench-XXXXXX";
  return ::mkdtemp(pattern);
}

int latency(int pace_ms, const std::string& fsync, int games) {
  const std::string bin = eboard::daemon::program_directory();
  const std::string dir = temp_dir();
  eboard::sim::PtyLink link(dir + "/board.pty");
  if (std::holds_alternative<eboard::sim::PtyError>(link.open())) return 1;
  eboard::sim::DgtEmulator board = eboard::bench::demo_board();
  const pid_t daemon = spawn(
      {bin + "/eboardd", "--board", "b1=dgt:" + dir + "/board.pty", "--listen",
       "unix:" + dir + "/s.sock", "--journal", dir, "--journal-fsync", fsync, "--runtime-dir", dir},
      true, dir + "/eboardd.log");
  const int consumer = connect_unix(dir + "/s.sock", 10s);
  if (consumer < 0) return 1;
  std::vector<double> samples;
  for (const auto& press : eboard::bench::play_demo_on_pty(link, board, consumer, pace_ms, games)) {
    samples.push_back(
        std::chrono::duration<double, std::micro>(press.received - press.written).count());
  }
  stop(daemon);
  // Under after-publish the daemon says at shutdown how many events had to wait for a
  // seq reservation's sync (daemon/core/seq_reservation.h); they should be none.
  std::ifstream log(dir + "/eboardd.log");
  for (std::string line; std::getline(log, line);) {
    if (line.find("seq reservation") != std::string::npos)
      std::printf("daemon: %s\n", line.c_str());
  }
  using eboard::bench::percentile;
  std::printf(
      "latency: pace %d ms, fsync %s, %d games, %zu presses: p50 %.0f us, p90 %.0f us, "
      "p99 %.0f us, max %.0f us\n",
      pace_ms, fsync.c_str(), games, samples.size(), percentile(samples, 0.5),
      percentile(samples, 0.9), percentile(samples, 0.99), percentile(samples, 1.0));
  std::string cleanup = "rm -rf " + dir;
  (void)!std::system(cleanup.c_str());
  return samples.empty() ? 1 : 0;
}

long field(const std::string& text, const std::string& name) {
  const auto at = text.find(name);
  return at == std::string::npos ? -1 : std::stol(text.substr(at + name.size()));
}

std::pair<long, long> cpu_ticks(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string value;
  long utime = 0;
  long stime = 0;
  for (int i = 3; i <= 15 && fields >> value; ++i) {
    if (i == 14) utime = std::stol(value);
    if (i == 15) stime = std::stol(value);
  }
  return {utime, stime};
}

int load(int boards, int seconds) {
  const std::string bin = eboard::daemon::program_directory();
  const std::string dir = temp_dir();
  std::ofstream(dir + "/game.ebs") << eboard::daemon::demo_script().value();
  std::vector<std::string> argv = {bin + "/eboardd",
                                   "--listen",
                                   "unix:" + dir + "/s.sock",
                                   "--journal",
                                   dir + "/journal",
                                   "--runtime-dir",
                                   dir,
                                   "--sim-speed",
                                   "1"};
  for (int b = 0; b < boards; ++b) {
    argv.push_back("--board");
    argv.push_back("b" + std::to_string(b) + "=sim:" + dir + "/game.ebs");
  }
  const pid_t daemon = spawn(argv, true);
  const int probe = connect_unix(dir + "/s.sock", 20s);
  if (probe < 0) return 1;
  ::close(probe);
  const pid_t consumer = spawn(
      {bin + "/eboard-events", "--connect", "unix:" + dir + "/s.sock", "--format", "json"}, true);
  ::poll(nullptr, 0, 3000);  // let every board connect and its game start
  const auto [u0, s0] = cpu_ticks(daemon);
  const auto t0 = Clock::now();
  ::poll(nullptr, 0, seconds * 1000);
  const auto [u1, s1] = cpu_ticks(daemon);
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  std::ifstream status_file("/proc/" + std::to_string(daemon) + "/status");
  std::string status((std::istreambuf_iterator<char>(status_file)), {});
  const double cpu =
      static_cast<double>((u1 - u0) + (s1 - s0)) / static_cast<double>(sysconf(_SC_CLK_TCK));
  std::printf(
      "load: %d boards, %.1f s: daemon CPU %.2f%% of one core (user %.2f s, system %.2f s), "
      "RSS %ld KiB, peak RSS %ld KiB\n",
      boards, wall, 100.0 * cpu / wall, static_cast<double>(u1 - u0) / sysconf(_SC_CLK_TCK),
      static_cast<double>(s1 - s0) / sysconf(_SC_CLK_TCK), field(status, "VmRSS:"),
      field(status, "VmHWM:"));
  stop(consumer);
  stop(daemon);
  std::string cleanup = "rm -rf " + dir;
  (void)!std::system(cleanup.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  int pace_ms = 0;
  int boards = 64;
  int seconds = 30;
  std::string fsync = "after-publish";  // eboardd's default
  int games = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    if (name == "--pace-ms")
      pace_ms = std::atoi(argv[i + 1]);
    else if (name == "--boards")
      boards = std::atoi(argv[i + 1]);
    else if (name == "--seconds")
      seconds = std::atoi(argv[i + 1]);
    else if (name == "--fsync")
      fsync = argv[i + 1];
    else if (name == "--games")
      games = std::max(1, std::atoi(argv[i + 1]));
  }
  if (mode == "latency") return latency(pace_ms, fsync, games);
  if (mode == "load") return load(boards, seconds);
  std::cerr << "usage: bench_daemon_latency latency [--pace-ms N] [--fsync "
               "always|after-publish|interval|never] [--games G]\n"
               "       bench_daemon_latency load [--boards N] [--seconds S]\n";
  return 2;
}
