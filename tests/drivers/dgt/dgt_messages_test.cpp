#include "drivers/dgt/dgt_messages.h"

#include <gtest/gtest.h>

#include "drivers/dgt/dgt_framer.h"

namespace eboard::drivers::dgt {
namespace {

// docs/protocols.md §1.7: the start position dump, normal orientation.
const Bytes kStartDump = {
    0x86, 0x00, 0x43,                                                        //
    0x08, 0x09, 0x0A, 0x0C, 0x0B, 0x0A, 0x09, 0x08,                          // a8..h8
    0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07,                          //
    0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0,  //
    0,    0,    0,    0,    0,    0,    0,    0,    0, 0, 0, 0, 0, 0, 0, 0,  //
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,                          //
    0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02};                         // a1..h1

Payload payload_of(const Bytes& message) { return Payload(message).subspan(3); }

std::string letters(const Placement& placement) {
  std::string out;
  for (Piece piece : placement) out += piece_letter(piece);
  return out;
}

TEST(DgtMessages, DecodesTheStartPositionDump) {
  const auto placement = decode_board_dump(payload_of(kStartDump));
  ASSERT_TRUE(placement);
  EXPECT_EQ(letters(*placement),
            "RNBQKBNRPPPPPPPP................................pppppppprnbqkbnr");
  EXPECT_EQ(encode_board_dump(*placement), kStartDump);
}

TEST(DgtMessages, DecodesTheFieldUpdatesOfE4) {
  const auto e2 = decode_field_update(Payload(Bytes{0x34, 0x00}));
  ASSERT_TRUE(e2);
  EXPECT_EQ(e2->square, 12);  // e2
  EXPECT_EQ(e2->piece, Piece::kEmpty);
  const auto e4 = decode_field_update(Payload(Bytes{0x24, 0x01}));
  ASSERT_TRUE(e4);
  EXPECT_EQ(e4->square, 28);  // e4
  EXPECT_EQ(e4->piece, Piece::kWhitePawn);
  EXPECT_EQ(encode_field_update(0x24, 0x01), (Bytes{0x8E, 0x00, 0x05, 0x24, 0x01}));
  EXPECT_FALSE(decode_field_update(Payload(Bytes{64, 0x01})));
  EXPECT_FALSE(decode_field_update(Payload(Bytes{3, 0x10})));
}

TEST(DgtMessages, PieceCodesPutTheKingBeforeTheQueen) {
  EXPECT_EQ(*piece_from_code(0x05), Piece::kWhiteKing);
  EXPECT_EQ(*piece_from_code(0x06), Piece::kWhiteQueen);
  EXPECT_EQ(*piece_from_code(0x0B), Piece::kBlackKing);
  EXPECT_EQ(*piece_from_code(0x0C), Piece::kBlackQueen);
  EXPECT_EQ(*piece_from_code(0x0D), Piece::kResultDraw);
  EXPECT_EQ(*piece_from_code(0x0F), Piece::kResultBlackWins);
  for (std::uint8_t code = 0; code < 16; ++code) {
    EXPECT_EQ(code_from_piece(*piece_from_code(code)), code);
  }
}

TEST(DgtMessages, DecodesTheClockTimesExample) {
  // §1.8: 8D 00 0A 00 04 59 00 05 00 0B -> right 0:04:59, left 0:05:00, running,
  // lever high on the right, right player's turn.
  const Bytes message = {0x8D, 0x00, 0x0A, 0x00, 0x04, 0x59, 0x00, 0x05, 0x00, 0x0B};
  const BwTime decoded = decode_bwtime(payload_of(message));
  const auto* reading = std::get_if<ClockReading>(&decoded);
  ASSERT_TRUE(reading);
  EXPECT_EQ(reading->right, Millis(299000));
  EXPECT_EQ(reading->left, Millis(300000));
  EXPECT_TRUE(reading->running);
  EXPECT_EQ(reading->lever_high, ClockSide::kRight);
  EXPECT_EQ(reading->turn, ClockSide::kRight);
  EXPECT_FALSE(reading->battery_low);
  EXPECT_FALSE(reading->left_flag || reading->right_flag);
  EXPECT_EQ(encode_bwtime(*reading), message);
}

TEST(DgtMessages, DecodesFlagsBatteryAndNoClock) {
  const Bytes flags = {0x8D, 0x00, 0x0A, 0x10, 0x00, 0x00, 0x41, 0x30, 0x00, 0x14};
  const auto reading = std::get<ClockReading>(decode_bwtime(payload_of(flags)));
  EXPECT_TRUE(reading.right_flag);
  EXPECT_TRUE(reading.left_flag);
  EXPECT_EQ(reading.left, Millis((3600 + 30 * 60) * 1000));
  EXPECT_TRUE(reading.battery_low);
  EXPECT_EQ(reading.turn, ClockSide::kLeft);
  EXPECT_FALSE(reading.running);
  const Bytes none = {0x8D, 0x00, 0x0A, 0, 0, 0, 0, 0, 0, 0x20};
  EXPECT_TRUE(std::holds_alternative<ClockAbsent>(decode_bwtime(payload_of(none))));
  const Bytes zero = {0x8D, 0x00, 0x0A, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_TRUE(std::holds_alternative<ClockIgnored>(decode_bwtime(payload_of(zero))));
  const Bytes bad_minutes = {0x8D, 0x00, 0x0A, 0, 0x60, 0, 0, 0, 0, 1};
  EXPECT_TRUE(std::holds_alternative<ClockIgnored>(decode_bwtime(payload_of(bad_minutes))));
}

TEST(DgtMessages, DecodesTheVersionAckExample) {
  // §1.8: 8D 00 0A 0A 10 09 0A 20 00 00 = ack (16, 9, 32, 0): clock version 2.0.
  const Bytes message = {0x8D, 0x00, 0x0A, 0x0A, 0x10, 0x09, 0x0A, 0x20, 0x00, 0x00};
  const auto ack = std::get<ClockAck>(decode_bwtime(payload_of(message)));
  EXPECT_EQ(ack.raw, (std::array<std::uint8_t, 4>{0x10, 0x09, 0x20, 0x00}));
  EXPECT_EQ(ack.command, 0x09);
  EXPECT_FALSE(ack.error);
  EXPECT_EQ(encode_clock_ack(0x10, 0x09, 0x20, 0x00), message);
}

TEST(DgtMessages, AckHighBitsRoundTrip) {
  const Bytes message = encode_clock_ack(0x40, 0x88, 0x85, 0xB1);
  const auto ack = std::get<ClockAck>(decode_bwtime(payload_of(message)));
  EXPECT_EQ(ack.raw, (std::array<std::uint8_t, 4>{0x40, 0x88, 0x85, 0xB1}));
  EXPECT_TRUE(ack.error);
  for (std::size_t i = 3; i < message.size(); ++i) EXPECT_LT(message[i], 0x80);
}

// ack0 is 10 for a normal answer and 40 for an error (§1.8); PicoChess logged
// (32, 0, 0, 0) from a clock on a board's cable, a value DGT does not describe and an ack1
// that names no command. Only 10 is a normal answer: anything else is none (an error).
TEST(DgtMessages, OnlyAck0TenIsANormalAnswer) {
  const auto decode = [](std::uint8_t ack0, std::uint8_t ack1) {
    return std::get<ClockAck>(decode_bwtime(payload_of(encode_clock_ack(ack0, ack1, 0, 0))));
  };
  const ClockAck logged = decode(0x20, 0x00);
  EXPECT_EQ(logged.raw, (std::array<std::uint8_t, 4>{0x20, 0x00, 0x00, 0x00}));
  EXPECT_EQ(logged.command, 0x00);
  EXPECT_TRUE(logged.error);
  EXPECT_TRUE(decode(0x20, 0x0A).error);
  EXPECT_TRUE(decode(0x40, 0x0A).error);
  EXPECT_TRUE(decode(0x00, 0x0A).error);
  EXPECT_FALSE(decode(0x10, 0x0A).error);
  EXPECT_FALSE(decode(0x10, 0x88).error);
}

TEST(DgtMessages, EncodesTheClockCommandExamples) {
  // §1.9 worked examples.
  EXPECT_EQ(encode_clock_command(ClockVersionRequest{}), (Bytes{0x2B, 0x03, 0x03, 0x09, 0x00}));
  EXPECT_EQ(
      encode_clock_command(ClockText{"ROUND 1", 0}),
      (Bytes{0x2B, 0x0C, 0x03, 0x0C, 0x52, 0x4F, 0x55, 0x4E, 0x44, 0x20, 0x31, 0x20, 0x00, 0x00}));
  EXPECT_EQ(encode_clock_command(ClockSetAndRun{Millis(630000), Millis(630000), ClockSide::kLeft}),
            (Bytes{0x2B, 0x0A, 0x03, 0x0A, 0x00, 0x0A, 0x1E, 0x00, 0x0A, 0x1E, 0x01, 0x00}));
  EXPECT_EQ(encode_clock_command(ClockBeep{Millis(1024)}),
            (Bytes{0x2B, 0x04, 0x03, 0x0B, 0x10, 0x00}));
  EXPECT_EQ(encode_clock_command(ClockEndText{}), (Bytes{0x2B, 0x03, 0x03, 0x03, 0x00}));
  const Bytes paused = encode_clock_command(ClockSetAndRun{Millis(0), Millis(0), std::nullopt});
  EXPECT_EQ(paused[10], 0x04);
}

TEST(DgtMessages, ClockCommandsDecodeBack) {
  const ClockCommand commands[] = {
      ClockText{"HELLO 12", 3}, ClockEndText{}, ClockVersionRequest{}, ClockBeep{Millis(640)},
      ClockSetAndRun{Millis(3723000), Millis(59000), ClockSide::kRight}};
  for (const ClockCommand& command : commands) {
    const Bytes bytes = encode_clock_command(command);
    const auto back = decode_clock_command(bytes);
    ASSERT_TRUE(back);
    EXPECT_EQ(encode_clock_command(*back), bytes);
    EXPECT_EQ(clock_command_id(*back), bytes[3]);
  }
  EXPECT_FALSE(decode_clock_command(Bytes{0x2B, 0x03, 0x03, 0x09}));
}

TEST(DgtMessages, Bcd) {
  EXPECT_EQ(to_bcd(59), 0x59);
  EXPECT_EQ(from_bcd(0x59), 59);
  EXPECT_FALSE(valid_bcd(0x5A, 59));
  EXPECT_FALSE(valid_bcd(0x60, 59));
}

}  // namespace
}  // namespace eboard::drivers::dgt
