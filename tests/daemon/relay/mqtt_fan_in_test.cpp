// The gap-free fan-in (daemon/programs/eboard_events/mqtt_fan_in.h) without a broker:
// messages and the time go in, replay requests and ordered events come out.
#include "daemon/programs/eboard_events/mqtt_fan_in.h"

#include <gtest/gtest.h>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace std::chrono_literals;
using TimePoint = MqttFanIn::TimePoint;

const std::string kEvents = "eboard/v1/s/pi1/b1/events";
const std::string kState = "eboard/v1/s/pi1/b1/state";

std::string event(std::uint32_t seq, bool game_started = false) {
  v1::Event e;
  e.set_board_id("b1");
  e.set_seq(seq);
  if (game_started)
    e.mutable_game_started()->set_fen("startpos");
  else
    e.mutable_clock()->set_white_ms(static_cast<int>(seq));
  return e.SerializeAsString();
}

std::string state(std::uint32_t last_seq) {
  v1::Snapshot s;
  s.set_board_id("b1");
  s.set_last_seq(last_seq);
  return s.SerializeAsString();
}

struct Harness {
  explicit Harness(FanInStart start, std::uint32_t from = 1)
      : fan(FanInOptions{"s", start, from, 50ms, 1000ms},
            {.event = [this](const BoardKey&, const v1::Event& e) { seqs.push_back(e.seq()); },
             .state = nullptr,
             .status = nullptr,
             .publish = [this](const std::string& t,
                               const std::string& p) { requests.push_back(t + " " + p); }}) {}
  MqttFanIn fan;
  std::vector<std::uint32_t> seqs;
  std::vector<std::string> requests;
  TimePoint t0{};
};

TEST(MqttFanIn, InOrderOnceAndAGapIsAskedForAfterTheGrace) {
  Harness h(FanInStart::kLive);
  h.fan.message(kEvents, event(5), h.t0);
  h.fan.message(kEvents, event(6), h.t0);
  h.fan.message(kEvents, event(6), h.t0);  // a QoS 1 repeat
  h.fan.message(kEvents, event(9), h.t0);  // 7 and 8 are missing
  EXPECT_EQ(h.seqs, (std::vector<std::uint32_t>{5, 6}));
  h.fan.tick(h.t0 + 10ms);
  EXPECT_TRUE(h.requests.empty()) << "within the grace";
  h.fan.tick(h.t0 + 60ms);
  ASSERT_EQ(h.requests.size(), 1u);
  EXPECT_EQ(h.requests[0], "eboard/v1/s/pi1/b1/replay {\"fromSeq\":7,\"toSeq\":8}");
  // Nothing came: asked again after the retry delay, not before.
  h.fan.tick(h.t0 + 500ms);
  EXPECT_EQ(h.requests.size(), 1u);
  h.fan.tick(h.t0 + 1100ms);
  EXPECT_EQ(h.requests.size(), 2u);
  h.fan.message(kEvents, event(8), h.t0 + 1200ms);
  h.fan.message(kEvents, event(7), h.t0 + 1200ms);
  EXPECT_EQ(h.seqs, (std::vector<std::uint32_t>{5, 6, 7, 8, 9}));
  EXPECT_FALSE(h.fan.next_due());
  EXPECT_EQ(h.fan.progress().begin()->second.duplicates, 1u);
}

TEST(MqttFanIn, TheRetainedStateRevealsAMissingTail) {
  Harness h(FanInStart::kLive);
  h.fan.message(kEvents, event(1), h.t0);
  h.fan.message(kEvents, event(2), h.t0);
  // The broker restarted; the daemon's resent 3..4 reached nobody; its new state says 4.
  h.fan.message(kState, state(4), h.t0 + 1s);
  h.fan.tick(h.t0 + 2s);
  ASSERT_EQ(h.requests.size(), 1u);
  EXPECT_EQ(h.requests[0], "eboard/v1/s/pi1/b1/replay {\"fromSeq\":3,\"toSeq\":4}");
}

// eboard-relay: the state is the board's past; what came before it waits for it.
TEST(MqttFanIn, SnapshotStartsAfterTheStateAndEarlierEventsWait) {
  Harness h(FanInStart::kSnapshot);
  h.fan.message(kEvents, event(12), h.t0);  // before the state: held
  h.fan.message(kEvents, event(13), h.t0);
  EXPECT_TRUE(h.seqs.empty());
  h.fan.message(kState, state(12), h.t0 + 10ms);
  EXPECT_EQ(h.seqs, (std::vector<std::uint32_t>{13}));
  EXPECT_TRUE(h.requests.empty());
  // A board whose first message is its gameStarted starts there.
  h.fan.message("eboard/v1/s/pi2/b1/events", event(40, true), h.t0);
  EXPECT_EQ(h.seqs.size(), 2u);
}

TEST(MqttFanIn, FromSeqAsksForEverythingFromThereAtOnce) {
  Harness h(FanInStart::kFromSeq, 1);
  h.fan.message(kState, state(30), h.t0);
  ASSERT_EQ(h.requests.size(), 1u);
  EXPECT_EQ(h.requests[0], "eboard/v1/s/pi1/b1/replay {\"fromSeq\":1}");
  for (std::uint32_t s = 1; s <= 30; ++s) h.fan.message(kEvents, event(s), h.t0 + 10ms);
  EXPECT_EQ(h.seqs.size(), 30u);
  EXPECT_FALSE(h.fan.next_due());
}

TEST(MqttFanIn, OtherSitesAndMalformedMessagesAreIgnored) {
  Harness h(FanInStart::kLive);
  h.fan.message("eboard/v1/other/pi1/b1/events", event(1), h.t0);
  h.fan.message(kEvents, "not a protobuf \xff\xff", h.t0);
  h.fan.message("eboard/v1/s/pi1/b1/replay", "{\"fromSeq\":1}", h.t0);
  h.fan.message("eboard/v1/s", "x", h.t0);
  EXPECT_TRUE(h.seqs.empty());
  EXPECT_TRUE(h.requests.empty());
}

}  // namespace
}  // namespace eboard::daemon
