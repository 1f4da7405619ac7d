#include "drivers/dgt/clock_queue.h"

#include <gtest/gtest.h>

namespace eboard::drivers::dgt {
namespace {

using std::chrono::milliseconds;
const TimePoint kT0{};

ClockAck ack_for(std::uint8_t command, std::uint8_t ack0 = 0x10) {
  return ClockAck{command, ack0 == 0x40, {ack0, command, 0, 0}};
}

TEST(ClockQueue, OneCommandInFlight) {
  ClockQueue queue;
  Bytes sent;
  std::vector<SensorEvent> events;
  queue.push(ClockVersionRequest{}, kT0, sent);
  queue.push(ClockEndText{}, kT0, sent);
  EXPECT_EQ(sent, (Bytes{0x2B, 0x03, 0x03, 0x09, 0x00}));  // only the first
  sent.clear();
  queue.on_ack(ack_for(0x81), kT0 + milliseconds(10), sent, events);  // unsolicited
  EXPECT_TRUE(sent.empty());
  queue.on_ack(ack_for(0x09), kT0 + milliseconds(100), sent, events);
  EXPECT_EQ(sent, (Bytes{0x2B, 0x03, 0x03, 0x03, 0x00}));
  sent.clear();
  queue.on_ack(ack_for(0x03), kT0 + milliseconds(200), sent, events);
  EXPECT_TRUE(sent.empty());
  EXPECT_TRUE(queue.idle());
  EXPECT_FALSE(queue.deadline());
  EXPECT_TRUE(events.empty());
}

TEST(ClockQueue, ResendsOnceAfterTheTimeoutThenGivesUp) {
  ClockQueue queue;
  Bytes sent;
  std::vector<SensorEvent> events;
  queue.push(ClockBeep{milliseconds(640)}, kT0, sent);
  queue.push(ClockVersionRequest{}, kT0, sent);
  const Bytes beep = sent;
  sent.clear();
  EXPECT_EQ(*queue.deadline(), kT0 + milliseconds(2000));
  queue.on_timer(kT0 + milliseconds(1999), sent, events);
  EXPECT_TRUE(sent.empty());
  queue.on_timer(kT0 + milliseconds(2000), sent, events);
  EXPECT_EQ(sent, beep);
  EXPECT_EQ(queue.resends(), 1u);
  sent.clear();
  queue.on_timer(kT0 + milliseconds(4000), sent, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(std::get<ClockCommandFailed>(events[0]).command, 0x0B);
  EXPECT_EQ(sent, (Bytes{0x2B, 0x03, 0x03, 0x09, 0x00}));  // the next one goes out
  EXPECT_EQ(queue.failures(), 1u);
}

TEST(ClockQueue, AnErrorAckResendsOnce) {
  ClockQueue queue;
  Bytes sent;
  std::vector<SensorEvent> events;
  queue.push(ClockSetAndRun{milliseconds(60000), milliseconds(60000), ClockSide::kLeft}, kT0, sent);
  const Bytes command = sent;
  sent.clear();
  queue.on_ack(ack_for(0x0A, 0x40), kT0 + milliseconds(50), sent, events);
  EXPECT_EQ(sent, command);
  sent.clear();
  queue.on_ack(ack_for(0x0A), kT0 + milliseconds(100), sent, events);
  EXPECT_TRUE(queue.idle());
  EXPECT_TRUE(events.empty());
}

}  // namespace
}  // namespace eboard::drivers::dgt
