// MQTT fan-in end to end: a real mosquitto broker on a loopback port,
// two eboardd processes with emulated boards publishing to it, and a subscriber that
// must see every board's complete, gap-free sequence - also across a broker restart in
// the middle of the games - plus the retained state/PGN, and the status topic's
// "online", Last-Will "offline" (daemon killed) and explicit "offline" (clean stop).
#include <gtest/gtest.h>

#include <sstream>

#include "eboard/v1/frame.pb.h"
#include "eboard/v1/json.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace eboard::daemon::broadcast_test {
namespace {

// The daemon's own record of what it published: its --print json lines, per board.
std::map<std::string, std::vector<v1::Event>> printed(const std::string& out) {
  std::map<std::string, std::vector<v1::Event>> boards;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '{') continue;
    auto event = proto::event_from_json(line);
    if (event.ok()) boards[event->board_id()].push_back(event.value());
  }
  return boards;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// `host`: how the daemon names the broker; a host name is resolved without blocking the
// daemon's loop (mqtt_publisher.h).
std::vector<std::string> daemon_args(const std::string& dir, const std::string& node,
                                     const std::vector<std::string>& boards, std::uint16_t broker,
                                     double speed, const std::string& host = "127.0.0.1") {
  std::vector<std::string> args = {kBin + "/eboardd",
                                   "--mqtt",
                                   host + ":" + std::to_string(broker),
                                   "--mqtt-site",
                                   "e2e",
                                   "--mqtt-node",
                                   node,
                                   "--mqtt-keepalive",
                                   "5",
                                   "--journal",
                                   dir + "/journal",
                                   "--journal-fsync",
                                   "never",
                                   "--runtime-dir",
                                   dir,
                                   "--listen",
                                   "unix:" + dir + "/events.sock",
                                   "--print",
                                   "json",
                                   "--sim-speed",
                                   std::to_string(speed)};
  for (const auto& b : boards) args.insert(args.end(), {"--board", b});
  return args;
}

TEST(MqttE2e, TwoDaemonsGapFreeAcrossBrokerRestartWillAndOffline) {
  const std::string dir = temp_dir("mqtt");
  ::mkdir((dir + "/pi1").c_str(), 0700);
  ::mkdir((dir + "/pi2").c_str(), 0700);
  ::mkdir((dir + "/broker").c_str(), 0700);
  Broker broker(dir + "/broker", free_tcp_port());
  ASSERT_TRUE(broker.start());
  Subscriber sub(broker.port(), "eboard/v1/e2e/#", "e2e-subscriber");

  const std::string a1 = make_script(dir, "a1", 3);
  const std::string a2 = make_script(dir, "a2", 4);
  const std::string b1 = make_script(dir, "b1", 5);
  // About ten seconds a game, so the broker can go away in the middle.
  const double longest = std::max({script_seconds(a1), script_seconds(a2), script_seconds(b1)});
  const double speed = std::max(1.0, longest / 10.0);
  Child pi1(
      daemon_args(dir + "/pi1", "pi1", {"a1=sim:" + a1, "a2=sim:" + a2}, broker.port(), speed));
  Child pi2(daemon_args(dir + "/pi2", "pi2", {"b1=sim:" + b1}, broker.port(), speed, "localhost"));
  ASSERT_TRUE(
      pi1.wait_for_stderr("mqtt 127.0.0.1:" + std::to_string(broker.port()) + ": connected", 20s))
      << pi1.err();
  ASSERT_TRUE(
      pi2.wait_for_stderr("mqtt localhost:" + std::to_string(broker.port()) + ": connected", 20s))
      << pi2.err();
  ASSERT_TRUE(poll_until(
      [&] {
        return sub.payloads("eboard/v1/e2e/pi2/status") == std::vector<std::string>{"online"};
      },
      10s));

  // Some moves through the broker, then the broker goes away while the games go on.
  ASSERT_TRUE(poll_until(
      [&] { return sub.events("a1").size() >= 10 && sub.events("b1").size() >= 10; }, 60s));
  const std::size_t before = count(pi1.out(), "moveCompleted");
  broker.stop();
  ASSERT_TRUE(pi1.wait_for_stderr("retrying", 20s)) << pi1.err();
  ASSERT_TRUE(
      pi1.wait_for([&](const std::string& out,
                       const std::string&) { return count(out, "moveCompleted") >= before + 6; },
                   60s))
      << "the games stopped while the broker was away";
  ASSERT_TRUE(broker.start());

  // Every script plays to its end (the corpus games end by resignation, which the board
  // cannot see, so the clocks may still tick afterwards); whatever the daemons printed by
  // then, the subscriber must have too.
  ASSERT_TRUE(pi1.wait_for(
      [](const std::string&, const std::string& err) { return count(err, "script finished") >= 2; },
      120s));
  ASSERT_TRUE(pi2.wait_for_stderr("script finished", 120s));
  std::map<std::string, std::vector<v1::Event>> truth = printed(pi1.out());
  for (auto& [id, events] : printed(pi2.out())) truth[id] = events;
  ASSERT_EQ(truth.size(), 3u);
  for (const auto& [id, events] : truth) {
    const std::uint32_t last = events.back().seq();
    ASSERT_TRUE(poll_until(
        [&, id = id] {
          for (const auto& e : sub.events(id))
            if (e.seq() == last) return true;
          return false;
        },
        30s))
        << "board " << id << " never reached seq " << last;
    std::map<std::uint32_t, v1::Event> seen;
    std::size_t duplicates = 0;
    for (const auto& e : sub.events(id)) {
      if (!seen.emplace(e.seq(), e).second) {
        ++duplicates;  // QoS 1 after a reconnect: dropped by (board, seq)
        EXPECT_EQ(seen[e.seq()].SerializeAsString(), e.SerializeAsString())
            << id << " seq " << e.seq();
      }
    }
    ASSERT_GE(seen.size(), events.size()) << "board " << id << ": events lost";
    std::uint32_t expected = 1;
    for (const auto& [seq, e] : seen) {
      ASSERT_EQ(seq, expected++) << "board " << id << ": a gap";
      if (seq > last) continue;
      EXPECT_EQ(e.SerializeAsString(), events[seq - 1].SerializeAsString())
          << "board " << id << " seq " << seq;
    }
    EXPECT_LE(duplicates, 256u) << "board " << id << ": more repeats than the in-flight window";
    std::cout << "board " << id << ": " << seen.size() << " events, " << duplicates
              << " repeated after the restart\n";
  }

  // Retained: each board's state (a Snapshot at its last seq) and its live PGN.
  ASSERT_TRUE(poll_until(
      [&] {
        for (const auto& [id, events] : truth) {
          const std::string node = id == "b1" ? "pi2" : "pi1";
          const auto states = sub.payloads("eboard/v1/e2e/" + node + "/" + id + "/state");
          v1::Snapshot s;
          if (states.empty() || !s.ParseFromString(states.back()) ||
              s.last_seq() < events.back().seq())
            return false;
          const auto pgn = sub.payloads("eboard/v1/e2e/" + node + "/" + id + "/pgn");
          if (pgn.empty() || pgn.back().find("{[%clk") == std::string::npos) return false;
        }
        return true;
      },
      20s));

  // An empty retained message would delete the retained one: none is ever published.
  for (const auto& m : sub.messages()) {
    if (m.topic.ends_with("/pgn") || m.topic.ends_with("/state") || m.topic.ends_with("/status")) {
      EXPECT_FALSE(m.payload.empty()) << m.topic;
    }
  }

  // A daemon that vanishes: the broker sends its Last-Will.
  pi2.kill(SIGKILL);
  ASSERT_TRUE(poll_until(
      [&] {
        const auto s = sub.payloads("eboard/v1/e2e/pi2/status");
        return !s.empty() && s.back() == "offline";
      },
      20s));
  // A clean stop says "offline" itself.
  pi1.kill(SIGTERM);
  EXPECT_EQ(pi1.wait(20s), std::optional<int>(0));
  ASSERT_TRUE(poll_until(
      [&] {
        const auto s = sub.payloads("eboard/v1/e2e/pi1/status");
        return !s.empty() && s.back() == "offline";
      },
      20s));
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
