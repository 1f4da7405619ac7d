#include "simulators/dgt/dgt_emulator.h"

#include <gtest/gtest.h>

#include "drivers/dgt/dgt_driver.h"
#include "simulators/script/script_reader.h"

namespace eboard::sim {
namespace {

using drivers::DecoderOutput;
using drivers::TimePoint;

script::Statement line(const std::string& text) {
  return std::get<script::Statement>(script::parse_line(text));
}

// The emulator and the driver wired back to back, in memory: bytes each way each step.
struct Pair {
  DgtEmulator emulator{DgtEmulatorOptions{}};
  drivers::dgt::DgtDriver driver;
  std::vector<drivers::SensorEvent> events;
  void pump(DecoderOutput out) {
    for (int round = 0; round < 10 && !out.to_send.empty(); ++round) {
      const Bytes reply = emulator.on_host_bytes(out.to_send);
      events.insert(events.end(), out.events.begin(), out.events.end());
      out = DecoderOutput{};
      driver.on_bytes(reply, TimePoint{}, out);
    }
    events.insert(events.end(), out.events.begin(), out.events.end());
  }
  void play(const std::string& text) {
    DecoderOutput out;
    driver.on_bytes(emulator.apply(line(text)), TimePoint{}, out);
    pump(std::move(out));
  }
};

TEST(DgtEmulator, AnswersTheHandshakeAndPlaysMoves) {
  Pair pair;
  DecoderOutput out;
  pair.driver.on_connected(TimePoint{}, out);
  pair.pump(std::move(out));
  EXPECT_TRUE(pair.driver.confirmed());
  ASSERT_TRUE(pair.driver.placement());
  EXPECT_EQ((*pair.driver.placement())[12], drivers::Piece::kWhitePawn);
  pair.play("1.0 lift e2");
  pair.play("1.5 put e4 P");
  EXPECT_EQ((*pair.driver.placement())[12], drivers::Piece::kEmpty);
  EXPECT_EQ((*pair.driver.placement())[28], drivers::Piece::kWhitePawn);
  pair.events.clear();
  pair.play("2.0 lever white");
  bool pressed = false;
  for (const auto& e : pair.events) {
    if (const auto* lever = std::get_if<drivers::LeverPressed>(&e)) {
      pressed = lever->side == drivers::ClockSide::kLeft;
    }
  }
  EXPECT_TRUE(pressed);
}

TEST(DgtEmulator, IdleBoardSendsNothingUnasked) {
  DgtEmulator emulator{DgtEmulatorOptions{}};
  EXPECT_TRUE(emulator.apply(line("1.0 lift e2")).empty());
  EXPECT_FALSE(emulator.on_host_bytes(Bytes{0x42}).empty());  // a dump is always answered
  EXPECT_TRUE(emulator.host_active() == false);
}

TEST(DgtEmulator, ClockCommandsAreAcknowledgedInUpdateModes) {
  DgtEmulator emulator{DgtEmulatorOptions{}};
  const Bytes version = {0x2B, 0x03, 0x03, 0x09, 0x00};
  EXPECT_TRUE(emulator.on_host_bytes(version).empty());  // idle: no ack (§1.9)
  emulator.on_host_bytes(Bytes{0x4B});
  const Bytes reply = emulator.on_host_bytes(version);
  ASSERT_GE(reply.size(), 10u);
  EXPECT_EQ(Bytes(reply.begin(), reply.begin() + 10),
            (Bytes{0x8D, 0x00, 0x0A, 0x0A, 0x10, 0x09, 0x0A, 0x20, 0x00, 0x00}));
  const Bytes setnrun = {0x2B, 0x0A, 0x03, 0x0A, 0x00, 0x0A, 0x1E, 0x00, 0x05, 0x00, 0x02, 0x00};
  emulator.on_host_bytes(setnrun);
  EXPECT_EQ(emulator.clock().left, script::Millis(630000));
  EXPECT_EQ(emulator.clock().right, script::Millis(300000));
  EXPECT_EQ(emulator.clock().turn, drivers::ClockSide::kRight);
}

}  // namespace
}  // namespace eboard::sim
