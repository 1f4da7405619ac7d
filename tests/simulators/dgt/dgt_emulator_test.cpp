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

// A DGT 3000 set for `control` (docs/rules.md D9), White on the left, counting down by itself.
DgtEmulator set_clock(const std::string& control, bool increment_at_start = true,
                      bool on_zero = false) {
  DgtEmulatorOptions options;
  options.time_control = engine::parse_time_control(control).value();
  options.increment_at_start = increment_at_start;
  options.periods_on_zero = on_zero;
  const engine::Period& first = options.time_control->periods.front();
  options.initial_time = first.base;
  if (increment_at_start && first.adjustment == engine::Adjustment::kFischer) {
    options.initial_time += first.adjustment_amount;
  }
  return DgtEmulator(options);
}

script::Millis seconds(double s) { return script::Millis(static_cast<long>(s * 1000)); }

TEST(DgtEmulatorClock, FischerIncrementIsCreditedOnThePress) {
  DgtEmulator clock = set_clock("180+2");
  EXPECT_EQ(clock.clock().left, seconds(182));  // 3+2 shows 3:02 at the start
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.apply(line("10.0 lever white"));
  EXPECT_EQ(clock.clock().left, seconds(174));
  EXPECT_EQ(clock.clock().right, seconds(182));
  clock.apply(line("13.5 lever black"));
  EXPECT_EQ(clock.clock().right, seconds(180.5));
  // A press by the side whose clock is stopped credits nothing.
  clock.apply(line("14.0 lever black"));
  EXPECT_EQ(clock.clock().right, seconds(180.5));
  EXPECT_EQ(clock.clock().left, seconds(173.5));
}

TEST(DgtEmulatorClock, PressOnlyCreditsAfterTheMove) {
  DgtEmulator clock = set_clock("180+2", /*increment_at_start=*/false);
  EXPECT_EQ(clock.clock().left, seconds(180));
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.apply(line("10.0 lever white"));
  EXPECT_EQ(clock.clock().left, seconds(172));
}

TEST(DgtEmulatorClock, BronsteinGivesBackAtMostTheDelay) {
  DgtEmulator clock = set_clock("300b3");
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.apply(line("2.0 lever white"));
  EXPECT_EQ(clock.clock().left, seconds(300));
  clock.apply(line("7.0 lever black"));
  EXPECT_EQ(clock.clock().right, seconds(298));
}

TEST(DgtEmulatorClock, SimpleDelayKeepsTheMainTimeFrozenFirst) {
  DgtEmulator clock = set_clock("300d3");
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.advance_clock(seconds(2.5));
  EXPECT_EQ(clock.clock().left, seconds(300));
  clock.apply(line("5.0 lever white"));
  EXPECT_EQ(clock.clock().left, seconds(298));
  clock.apply(line("6.0 lever black"));  // within the delay: nothing used
  EXPECT_EQ(clock.clock().right, seconds(300));
}

TEST(DgtEmulatorClock, NextPeriodAtTheMoveCountOfEachSide) {
  DgtEmulator clock = set_clock("2/60:30");
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.apply(line("1.0 lever white"));
  clock.apply(line("2.0 lever black"));
  clock.apply(line("3.0 lever white"));  // White's second move: 30 s more
  EXPECT_EQ(clock.clock().left, seconds(88));
  EXPECT_EQ(clock.clock().right, seconds(59));
}

TEST(DgtEmulatorClock, OnZeroBothSidesGetTheNextPeriodAndTheFlagShowsIfMovesAreMissing) {
  DgtEmulator clock = set_clock("1/10:30", true, /*on_zero=*/true);
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.advance_clock(seconds(12));  // White used up the period without a move
  EXPECT_EQ(clock.clock().left, seconds(28));
  EXPECT_EQ(clock.clock().right, seconds(40));
  EXPECT_TRUE(clock.clock().left_flag);
  EXPECT_FALSE(clock.clock().right_flag);
}

TEST(DgtEmulatorClock, FinalPeriodFlagFallsAtZeroAndNoIncrementAfterIt) {
  DgtEmulator clock = set_clock("5+2");
  clock.apply(line("0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
  clock.advance_clock(seconds(8));
  EXPECT_EQ(clock.clock().left, seconds(0));
  EXPECT_TRUE(clock.clock().left_flag);
  clock.apply(line("9.0 lever white"));
  EXPECT_EQ(clock.clock().left, seconds(0));
}

}  // namespace
}  // namespace eboard::sim
