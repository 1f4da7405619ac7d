// eboardd end to end: the DGT emulator on a pty -> eboardd -> consumers, as real
// processes over real ptys and sockets. Waits are on output with
// bounded timeouts, never fixed sleeps.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "eboard/v1/framing.h"
#include "eboard/v1/json.h"
#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace testing_support;
using namespace std::chrono_literals;

TEST(DaemonE2e, TwoConsumersGetTheSameWholeGameAsEboardReplay) {
  const std::string dir = temp_dir();
  const std::uint16_t port = free_tcp_port();
  auto args = daemon_args(dir, "e2e=sim:" + kScript);
  args.insert(args.end(), {"--listen", "tcp:127.0.0.1:" + std::to_string(port)});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  Child unix_consumer({kBin + "/eboard-events", "--connect", "unix:" + dir + "/events.sock",
                       "--from-seq", "1", "--format", "json", "--until-game-end", "--timeout",
                       "60"});
  Child tcp_consumer({kBin + "/eboard-events", "--connect", "tcp:127.0.0.1:" + std::to_string(port),
                      "--from-seq", "1", "--format", "json", "--until-game-end", "--timeout",
                      "60"});
  ASSERT_EQ(unix_consumer.wait(70s), 0) << unix_consumer.err() << daemon.err();
  ASSERT_EQ(tcp_consumer.wait(70s), 0) << tcp_consumer.err();
  EXPECT_EQ(unix_consumer.out(), tcp_consumer.out());
  const auto events = parse_events(unix_consumer.out());
  expect_gap_free(events);
  EXPECT_EQ(moves_of(events), kMoves);
  const v1::Event* end = game_end(events);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->game_ended().result(), "1-0");
  EXPECT_EQ(end->game_ended().termination(), v1::TERMINATION_CHECKMATE);

  // eboard-replay on the same script: the same moves, illegal moves and result.
  if (std::filesystem::exists(kBin + "/eboard-replay")) {
    Child replay({kBin + "/eboard-replay", kScript});
    ASSERT_EQ(replay.wait(30s), 0) << replay.err();
    const auto offline = parse_events(replay.out());
    EXPECT_EQ(moves_of(offline), moves_of(events));
    const auto count = [](const std::vector<v1::Event>& list, auto has) {
      return std::count_if(list.begin(), list.end(), has);
    };
    const auto pending = [](const v1::Event& e) { return e.has_illegal_move_pending(); };
    const auto completed = [](const v1::Event& e) { return e.has_illegal_move_completed(); };
    EXPECT_EQ(count(offline, pending), count(events, pending));
    EXPECT_EQ(count(offline, completed), count(events, completed));
    ASSERT_NE(game_end(offline), nullptr);
    EXPECT_EQ(game_end(offline)->game_ended().result(), end->game_ended().result());
    EXPECT_EQ(game_end(offline)->game_ended().termination(), end->game_ended().termination());
  }
  // The finished game was written as PGN.
  EXPECT_TRUE(std::filesystem::exists(dir + "/journal/e2e-game1.pgn"));
  daemon.kill(SIGTERM);
  EXPECT_EQ(daemon.wait(10s), 0);
  std::filesystem::remove_all(dir);
}

// `fsync`: the --journal-fsync policy of both lives.
void kill_nine_mid_game_loses_nothing(const std::string& fsync) {
  const std::string dir = temp_dir();
  Child sim({kBin + "/eboard-sim", "dgt", "--link", dir + "/board.pty", "--speed", "1", kScript});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  auto args = daemon_args(dir, "b1=dgt:" + dir + "/board.pty");
  const auto policy = std::find(args.begin(), args.end(), "--journal-fsync");
  ASSERT_NE(policy, args.end());
  *(policy + 1) = fsync;
  std::vector<v1::Event> first_life;
  {
    Child daemon(args);
    ASSERT_TRUE(ready(daemon)) << daemon.err();
    ASSERT_TRUE(daemon.wait_for_stdout("\"ply\":3", 30s)) << daemon.err();
    daemon.kill(SIGKILL);
    daemon.wait(10s);
    first_life = parse_events(daemon.out());
  }
  // A power cut's torn record at the end of the journal.
  std::ofstream(dir + "/journal/b1.journal", std::ios::app | std::ios::binary)
      << std::string("\x40\x01\x02", 3);
  Child again(args);
  ASSERT_TRUE(ready(again)) << again.err();
  EXPECT_NE(again.err().find("cut off"), std::string::npos) << again.err();
  ASSERT_TRUE(again.wait_for_stdout("gameEnded", 30s)) << again.err();
  const auto second_life = parse_events(again.out());
  ASSERT_FALSE(first_life.empty());
  ASSERT_FALSE(second_life.empty());
  // Sequence numbers continue, never reused. (The first life may have journalled events
  // it had not printed yet when it was killed, so the second may start a few above the
  // last printed one; the consumer from seq 1 below proves that none is missing.)
  EXPECT_GT(second_life.front().seq(), first_life.back().seq());
  for (const auto& e : second_life) {
    EXPECT_FALSE(e.has_game_started()) << "the game continues";
    EXPECT_FALSE(e.has_restore_requested()) << proto::to_json_line(e);
  }
  // A consumer from seq 1 gets the whole game: every move once, in order.
  Child consumer({kBin + "/eboard-events", "--connect", "unix:" + dir + "/events.sock",
                  "--from-seq", "1", "--format", "json", "--until-game-end", "--timeout", "30"});
  ASSERT_EQ(consumer.wait(40s), 0) << consumer.err();
  const auto whole = parse_events(consumer.out());
  expect_gap_free(whole);
  EXPECT_EQ(moves_of(whole), kMoves);
  std::vector<std::uint32_t> plies;
  for (const auto& e : whole) {
    if (e.has_move_completed()) plies.push_back(e.move_completed().ply());
  }
  EXPECT_EQ(plies, (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7}));
  again.kill(SIGTERM);
  std::filesystem::remove_all(dir);
}

TEST(DaemonE2e, KillNineMidGameLosesNothing) { kill_nine_mid_game_loses_nothing("never"); }

// Publish first, sync right after: the records a kill -9 interrupts are in the page
// cache, the kernel is the same, so numbering continues with no gap (seq_reservation.h).
TEST(DaemonE2e, KillNineMidGameLosesNothingUnderAfterPublish) {
  kill_nine_mid_game_loses_nothing("after-publish");
}

TEST(DaemonE2e, UnplugAndReplugGivesStatusAndNoFalseMoves) {
  const std::string dir = temp_dir();
  Child sim({kBin + "/eboard-sim", "dgt", "--link", dir + "/board.pty", "--speed", "1",
             "--hangup-at", "3.0", "--hangup-for", "0.3", kScript});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  Child daemon(daemon_args(dir, "b1=dgt:" + dir + "/board.pty"));
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  ASSERT_TRUE(daemon.wait_for_stdout("gameEnded", 40s)) << daemon.err() << sim.err();
  const auto events = parse_events(daemon.out());
  expect_gap_free(events);
  EXPECT_EQ(moves_of(events), kMoves);
  std::vector<v1::DeviceState> states;
  for (const auto& e : events) {
    if (e.has_device_status()) states.push_back(e.device_status().state());
    EXPECT_FALSE(e.has_restore_requested()) << proto::to_json_line(e);
  }
  const auto disconnected = std::find(states.begin(), states.end(), v1::DEVICE_STATE_DISCONNECTED);
  ASSERT_NE(disconnected, states.end()) << daemon.out();
  EXPECT_NE(std::find(disconnected, states.end(), v1::DEVICE_STATE_CONNECTED), states.end());
  std::filesystem::remove_all(dir);
}

TEST(DaemonE2e, SlowConsumerIsDisconnectedOthersMissNothing) {
  const std::string dir = temp_dir();
  auto args = daemon_args(dir, "e2e=sim:" + kScript);
  args.insert(args.end(), {"--consumer-queue-bytes", "4096"});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  Child good({kBin + "/eboard-events", "--connect", "unix:" + dir + "/events.sock", "--from-seq",
              "1", "--format", "json", "--until-game-end", "--timeout", "60"});
  // The slow one never reads, and keeps asking for the whole journal.
  Client slow(dir + "/events.sock");
  ASSERT_TRUE(slow.connected());
  ASSERT_TRUE(daemon.wait_for_stdout("moveCompleted", 20s));
  v1::Frame subscribe;
  subscribe.mutable_subscribe()->set_from_seq(1);
  bool cut = false;
  const auto end = std::chrono::steady_clock::now() + scaled(20s);
  while (!cut && std::chrono::steady_clock::now() < end) {
    pollfd p{slow.fd(), POLLOUT, 0};
    ::poll(&p, 1, 50);
    if (p.revents & (POLLHUP | POLLERR)) cut = true;
    if (p.revents & POLLOUT) cut = !slow.send(subscribe) && errno != EAGAIN;
    cut = cut || daemon.err().find("SLOW_CONSUMER") != std::string::npos;
    daemon.wait_for([](const std::string&, const std::string&) { return false; }, 0ms);
  }
  EXPECT_TRUE(cut);
  EXPECT_TRUE(daemon.wait_for_stderr("GOODBYE_REASON_SLOW_CONSUMER", 5s)) << daemon.err();
  ASSERT_EQ(good.wait(60s), 0) << good.err();
  const auto events = parse_events(good.out());
  expect_gap_free(events);
  EXPECT_EQ(moves_of(events), kMoves);
  std::filesystem::remove_all(dir);
}

TEST(DaemonE2e, ControlOverTcpNeedsTheToken) {
  const std::string dir = temp_dir();
  std::ofstream(dir + "/token") << "let-me-in\n";
  const std::uint16_t port = free_tcp_port();
  auto args = daemon_args(dir, "e2e=sim:" + kScript);
  args.insert(args.end(), {"--listen", "tcp:127.0.0.1:" + std::to_string(port),
                           "--control-token-file", dir + "/token"});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  ASSERT_TRUE(daemon.wait_for_stdout("moveCompleted", 20s));
  Client client(port);
  ASSERT_TRUE(client.connected());
  const auto hello = client.next([](const v1::Frame& f) { return f.has_hello(); }, 5s);
  ASSERT_TRUE(hello);
  EXPECT_TRUE(hello->hello().control_allowed());
  const auto ask = [&](v1::Command command) {
    static std::uint32_t id = 100;
    command.set_command_id(++id);
    v1::Frame frame;
    *frame.mutable_command() = command;
    EXPECT_TRUE(client.send(frame));
    const std::uint32_t want = id;
    auto ack = client.next(
        [want](const v1::Frame& f) { return f.has_ack() && f.ack().command_id() == want; }, 5s);
    return ack ? ack->ack() : v1::Ack();
  };
  v1::Command add;
  add.set_board_id("e2e");
  add.mutable_add_time()->set_side(v1::SIDE_BLACK);
  add.mutable_add_time()->set_delta_ms(60000);
  EXPECT_EQ(ask(add).code(), v1::ACK_ERROR_UNAUTHORIZED);
  add.set_token("wrong");
  EXPECT_EQ(ask(add).code(), v1::ACK_ERROR_UNAUTHORIZED);
  add.set_token("let-me-in");
  const v1::Ack ok = ask(add);
  EXPECT_TRUE(ok.ok()) << ok.error();
  v1::Command bad = add;
  bad.mutable_add_time()->set_side(v1::SIDE_UNSPECIFIED);
  const v1::Ack invalid = ask(bad);
  EXPECT_EQ(invalid.code(), v1::ACK_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(invalid.error().find("add_time.side"), std::string::npos);
  v1::Command elsewhere = add;
  elsewhere.set_board_id("nope");
  EXPECT_EQ(ask(elsewhere).code(), v1::ACK_ERROR_UNKNOWN_BOARD);
  v1::Command empty;
  empty.set_board_id("e2e");
  empty.set_token("let-me-in");
  EXPECT_EQ(ask(empty).code(), v1::ACK_ERROR_UNSUPPORTED);
  std::filesystem::remove_all(dir);
}

TEST(DaemonE2e, BadConfigurationExitsTwoWithOneLine) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--no-such-option"},
                                               {"--board", "b1=dgt:/dev/x", "--clock", "5+"},
                                               {"--board", "b1=usb:/dev/x"},
                                               {"--board", "b1=sim:/nonexistent.ebs"}}) {
    std::vector<std::string> argv = {kBin + "/eboardd"};
    argv.insert(argv.end(), args.begin(), args.end());
    Child daemon(argv);
    EXPECT_EQ(daemon.wait(10s), 2) << args[0];
    EXPECT_EQ(std::count(daemon.err().begin(), daemon.err().end(), '\n'), 1) << daemon.err();
    EXPECT_EQ(daemon.err().rfind("eboardd: ", 0), 0u) << daemon.err();
  }
}

TEST(DaemonE2e, UnitFileVerifiesAndScoresAtMostTwo) {
  if (!std::filesystem::exists("/usr/bin/systemd-analyze") &&
      !std::filesystem::exists("/bin/systemd-analyze")) {
    GTEST_SKIP() << "systemd-analyze is not installed (Debian package systemd)";
  }
  const std::string dir = temp_dir();
  {
    std::ifstream in(std::string(EBOARD_SOURCE_DIR) + "/systemd/eboardd.service");
    std::stringstream text;
    text << in.rdbuf();
    std::string unit = text.str();
    const std::string from = "/usr/bin/eboardd";
    unit.replace(unit.find(from), from.size(), kBin + "/eboardd");
    std::ofstream(dir + "/eboardd.service") << unit;
  }
  Child verify({"/usr/bin/systemd-analyze", "verify", dir + "/eboardd.service"});
  EXPECT_EQ(verify.wait(60s), 0) << verify.out() << verify.err();
  Child security({"/usr/bin/systemd-analyze", "security", "--offline=yes", "--no-pager",
                  dir + "/eboardd.service"});
  EXPECT_EQ(security.wait(60s), 0) << security.err();
  const std::string marker = "Overall exposure level for eboardd.service: ";
  const auto at = security.out().find(marker);
  ASSERT_NE(at, std::string::npos) << security.out() << security.err();
  const double score = std::stod(security.out().substr(at + marker.size()));
  EXPECT_LE(score, 2.0) << security.out();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon
