// DGT message payloads and commands, both directions (docs/protocols.md §1.5-§1.9).
//
// Decoding is what the driver needs; encoding board -> PC messages is what the emulator
// and the tests need. Keeping both in one file means one reading of the byte tables.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "drivers/sensor_event.h"

namespace eboard::drivers::dgt {

using Bytes = std::vector<std::uint8_t>;
using Payload = std::span<const std::uint8_t>;

// Piece codes (§1.6). Codes above 0x0F are not pieces.
std::optional<Piece> piece_from_code(std::uint8_t code);
std::uint8_t code_from_piece(Piece piece);  // kOccupied has no code: 0x01 is used

// Board dump payload (64 codes in field order) -> placement in engine squares.
std::optional<Placement> decode_board_dump(Payload payload);
std::optional<SquareChanged> decode_field_update(Payload payload);

// The 0x8D payload (message bytes 3..9, §1.8): a reading, an ack, "no clock", or nothing
// usable (all zero, or times out of range: PicoChess's filters).
struct ClockIgnored {};
using BwTime = std::variant<ClockReading, ClockAck, ClockAbsent, ClockIgnored>;
BwTime decode_bwtime(Payload payload);

// --- board -> PC messages (emulator, tests) --------------------------------------------------
Bytes frame_message(std::uint8_t id, Payload payload);
Bytes encode_board_dump(const Placement& placement);  // normal orientation
Bytes encode_field_update(int field, std::uint8_t code);
Bytes encode_bwtime(const ClockReading& reading, bool no_clock = false);
Bytes encode_clock_ack(std::uint8_t ack0, std::uint8_t ack1, std::uint8_t ack2, std::uint8_t ack3);

// --- clock commands, PC -> board (§1.9) -------------------------------------------------------
Bytes encode_clock_command(const ClockCommand& command);
// The command id inside a 0x2B message (byte 3), for matching acks.
std::uint8_t clock_command_id(const ClockCommand& command);
// Parses one whole 0x2B message (as encode_clock_command makes it) back into a command.
std::optional<ClockCommand> decode_clock_command(Payload message);

// Binary-coded decimal, as the 0x8D times use it.
constexpr std::uint8_t to_bcd(int value) {
  return static_cast<std::uint8_t>(((value / 10) << 4) | (value % 10));
}
constexpr int from_bcd(std::uint8_t bcd) { return (bcd >> 4) * 10 + (bcd & 0x0F); }
constexpr bool valid_bcd(std::uint8_t bcd, int max) {
  return (bcd & 0x0F) <= 9 && (bcd >> 4) <= 9 && from_bcd(bcd) <= max;
}

}  // namespace eboard::drivers::dgt
