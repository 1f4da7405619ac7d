// Clients cannot exhaust the daemon (stream_server.h, consumer.h "Hostile clients"):
// 500 connections that never finish a frame, and a file descriptor limit reached
// (RLIMIT_NOFILE set in the daemon's own process). Memory stays bounded (the daemon's
// RSS is printed), a normal client is still served, and nothing spins (the daemon's CPU
// time over the run is printed and bounded). Figures go to the test's output:
//   ctest -R HostileClients --output-on-failure -V
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace testing_support;
using namespace std::chrono_literals;

// The daemon's resident memory, in KiB (/proc/PID/status VmRSS).
long rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// The daemon's CPU time (user + system), in seconds (/proc/PID/stat fields 14, 15).
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  long ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i >= 14) ticks += std::stol(field);
  }
  return static_cast<double>(ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// Connects, and sends most of a frame that never ends: a length of 16000 (just under the
// client frame limit), then 15000 bytes, so the daemon holds each one's partial frame.
std::unique_ptr<Client> half_frame_client(std::uint16_t port) {
  auto client = std::make_unique<Client>(port);
  if (!client->connected()) return client;
  const std::string start = std::string("\x80\x7d", 2) + std::string(15000, 'x');
  ::send(client->fd(), start.data(), start.size(), MSG_NOSIGNAL);
  return client;
}

// daemon_args() prints JSON on stdout; here nobody reads it.
std::vector<std::string> quiet_args(const std::string& dir) {
  auto args = daemon_args(dir, "e2e=sim:" + kScript);
  args[std::find(args.begin(), args.end(), "--print") - args.begin() + 1] = "none";
  return args;
}

bool served(Client& client) {
  return client.next([](const v1::Frame& f) { return f.has_snapshot(); }, 10s).has_value();
}

TEST(HostileClients, FiveHundredHalfFramesAreBoundedAndTimedOut) {
  const std::string dir = temp_dir("hostile");
  const std::uint16_t port = free_tcp_port();
  auto args = quiet_args(dir);
  args.insert(args.end(),
              {"--listen", "tcp:127.0.0.1:" + std::to_string(port), "--max-connections", "1000",
               "--max-connections-per-peer", "520", "--frame-timeout", "5", "--sim-speed", "0.1"});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  const long rss_before = rss_kib(daemon.pid());
  const double cpu_before = cpu_seconds(daemon.pid());
  const auto start = std::chrono::steady_clock::now();

  std::vector<std::unique_ptr<Client>> hostile;
  for (int i = 0; i < 500; ++i) {
    hostile.push_back(half_frame_client(port));
    ASSERT_TRUE(hostile.back()->connected()) << i;
  }
  // At once (well within the frame timeout): a normal client on the same listener and on
  // the Unix one, and 30 more from the same peer, past --max-connections-per-peer 520.
  Client normal_tcp(port);
  Client normal_unix(dir + "/events.sock");
  std::vector<std::unique_ptr<Client>> extra;
  for (int i = 0; i < 30; ++i) extra.push_back(std::make_unique<Client>(port));
  for (auto& c : hostile) ASSERT_TRUE(served(*c)) << "a hostile client was not even greeted";
  const long rss_held = rss_kib(daemon.pid());
  ASSERT_TRUE(served(normal_tcp));
  ASSERT_TRUE(served(normal_unix));
  std::size_t refused = 0;
  for (auto& c : extra) {
    const auto first =
        c->next([](const v1::Frame& f) { return f.has_goodbye() || f.has_hello(); }, 5s);
    refused += first && first->has_goodbye() &&
               first->goodbye().reason() == v1::GOODBYE_REASON_TOO_MANY_CONNECTIONS &&
               first->goodbye().detail().find("--max-connections-per-peer") != std::string::npos;
  }
  EXPECT_EQ(refused, 30u - 19u) << "500 + 1 normal + 19 fill the 520";

  // The frame timeout: every half frame is dropped with a goodbye saying why.
  std::size_t timed_out = 0;
  for (auto& c : hostile) {
    const auto bye = c->next([](const v1::Frame& f) { return f.has_goodbye(); }, 10s);
    timed_out += bye && bye->goodbye().reason() == v1::GOODBYE_REASON_PROTOCOL_ERROR &&
                 bye->goodbye().detail().find("not complete") != std::string::npos;
  }
  EXPECT_EQ(timed_out, 500u);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds(daemon.pid()) - cpu_before;
  std::printf(
      "hostile clients: RSS %ld KiB idle, %ld KiB with 500 half frames held (+%ld KiB); "
      "CPU %.2f s over %.1f s\n",
      rss_before, rss_held, rss_held - rss_before, cpu, wall);
  EXPECT_LT(rss_held - rss_before, 64 * 1024) << "memory bounded";
  EXPECT_LT(cpu, 0.5 * wall) << "nothing spins";
  ASSERT_TRUE(served(*std::make_unique<Client>(port))) << "served again after the timeouts";
  daemon.kill(SIGTERM);
  EXPECT_EQ(daemon.wait(10s), 0);
  std::filesystem::remove_all(dir);
}

TEST(HostileClients, FileDescriptorLimitPausesAcceptsWithoutSpinning) {
  const std::string dir = temp_dir("nofile");
  const std::uint16_t port = free_tcp_port();
  auto args = quiet_args(dir);
  args.insert(args.end(),
              {"--listen", "tcp:127.0.0.1:" + std::to_string(port), "--sim-speed", "0.1"});
  std::string command = "ulimit -n 64 && exec";
  for (const auto& a : args) command += " '" + a + "'";
  Child daemon({"/bin/sh", "-c", command});
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < 100; ++i) clients.push_back(std::make_unique<Client>(port));
  ASSERT_TRUE(daemon.wait_for_stderr("cannot accept: Too many open files", 10s)) << daemon.err();
  const double cpu_before = cpu_seconds(daemon.pid());
  const auto start = std::chrono::steady_clock::now();
  // Held at the limit for two seconds (the connections stay in the backlog).
  daemon.wait_for([](const std::string&, const std::string&) { return false; }, 2s);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds(daemon.pid()) - cpu_before;
  std::printf("fd limit reached: CPU %.3f s over %.1f s\n", cpu, wall);
  EXPECT_LT(cpu, 0.1 * wall) << "the accept loop spins";
  // The warning is one line with a count, not one a retry.
  const std::string& err = daemon.err();
  const std::string warning = "cannot accept: Too many open files";
  EXPECT_EQ(err.find(warning), err.rfind(warning)) << err;
  // Descriptors freed: a normal client is served (the waiting ones are accepted first).
  clients.clear();
  Client normal(dir + "/events.sock");
  ASSERT_TRUE(served(normal)) << daemon.err();
  daemon.kill(SIGTERM);
  EXPECT_EQ(daemon.wait(10s), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon
