#include "drivers/dgt/dgt_messages.h"

#include <algorithm>

#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers::dgt {
namespace {

// Index = DGT piece code (§1.6): note king before queen.
constexpr Piece kCodeToPiece[16] = {
    Piece::kEmpty,       Piece::kWhitePawn,   Piece::kWhiteRook,       Piece::kWhiteKnight,
    Piece::kWhiteBishop, Piece::kWhiteKing,   Piece::kWhiteQueen,      Piece::kBlackPawn,
    Piece::kBlackRook,   Piece::kBlackKnight, Piece::kBlackBishop,     Piece::kBlackKing,
    Piece::kBlackQueen,  Piece::kResultDraw,  Piece::kResultWhiteWins, Piece::kResultBlackWins};

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;  // clang 14 has no aggregate deduction

// h:mm:ss from a hours byte (low nibble) and BCD minutes/seconds; nullopt when invalid.
std::optional<Millis> decode_time(std::uint8_t hours, std::uint8_t minutes, std::uint8_t seconds) {
  if ((hours & 0x0F) > 9 || !valid_bcd(minutes, 59) || !valid_bcd(seconds, 59)) {
    return std::nullopt;
  }
  return Millis(((hours & 0x0F) * 3600 + from_bcd(minutes) * 60 + from_bcd(seconds)) * 1000);
}

void encode_time(Millis time, std::uint8_t* out) {
  long long total = std::clamp<long long>(time.count() / 1000, 0, 9 * 3600 + 59 * 60 + 59);
  out[0] = static_cast<std::uint8_t>(total / 3600);
  out[1] = to_bcd(static_cast<int>(total / 60 % 60));
  out[2] = to_bcd(static_cast<int>(total % 60));
}

// SETNRUN h/m/s (§1.9; binary or BCD per §11.1, see dgt_protocol.h).
void encode_setnrun_time(Millis time, Bytes& out) {
  const long long total = std::clamp<long long>(time.count() / 1000, 0, 9 * 3600 + 59 * 60 + 59);
  const int parts[3] = {static_cast<int>(total / 3600), static_cast<int>(total / 60 % 60),
                        static_cast<int>(total % 60)};
  for (int part : parts) {
    out.push_back(kSetNRunUsesBcd ? to_bcd(part) : static_cast<std::uint8_t>(part));
  }
}

Millis decode_setnrun_time(const std::uint8_t* in) {
  const auto value = [](std::uint8_t b) { return kSetNRunUsesBcd ? from_bcd(b) : int{b}; };
  return Millis((value(in[0]) * 3600 + value(in[1]) * 60 + value(in[2])) * 1000LL);
}

// A clock command with at most one argument byte (END, VERSION: none; BEEP: one).
Bytes clock_frame(std::uint8_t command, std::optional<std::uint8_t> argument) {
  Bytes out;
  out.reserve(6);
  out.push_back(kClockMessage);
  out.push_back(argument ? 4 : 3);
  out.push_back(kClockStart);
  out.push_back(command);
  if (argument) out.push_back(*argument);
  out.push_back(kClockEnd);
  return out;
}

}  // namespace

std::optional<Piece> piece_from_code(std::uint8_t code) {
  if (code > 0x0F) return std::nullopt;
  return kCodeToPiece[code];
}

std::uint8_t code_from_piece(Piece piece) {
  for (std::uint8_t code = 0; code < 16; ++code) {
    if (kCodeToPiece[code] == piece) return code;
  }
  return 0x01;
}

std::optional<Placement> decode_board_dump(Payload payload) {
  if (payload.size() != 64) return std::nullopt;
  Placement placement;
  for (int field = 0; field < 64; ++field) {
    const auto piece = piece_from_code(payload[field]);
    if (!piece) return std::nullopt;
    placement[field_to_square(field)] = *piece;
  }
  return placement;
}

std::optional<SquareChanged> decode_field_update(Payload payload) {
  if (payload.size() != 2 || payload[0] > 63) return std::nullopt;
  const auto piece = piece_from_code(payload[1]);
  if (!piece) return std::nullopt;
  return SquareChanged{field_to_square(payload[0]), *piece};
}

BwTime decode_bwtime(Payload p) {
  if (p.size() != 7) return ClockIgnored{};
  if ((p[0] & 0x0F) == 0x0A || (p[3] & 0x0F) == 0x0A) {
    ClockAck ack;
    ack.raw[0] = static_cast<std::uint8_t>((p[1] & 0x7F) | ((p[3] << 3) & 0x80));
    ack.raw[1] = static_cast<std::uint8_t>((p[2] & 0x7F) | ((p[3] << 2) & 0x80));
    ack.raw[2] = static_cast<std::uint8_t>((p[4] & 0x7F) | ((p[0] << 3) & 0x80));
    ack.raw[3] = static_cast<std::uint8_t>((p[5] & 0x7F) | ((p[0] << 2) & 0x80));
    ack.command = ack.raw[1];
    // ack0 10 is the one normal answer; 40 is DGT's error, and any other value (20 has
    // been seen from a real clock) is no answer to rely on either (§1.8).
    ack.error = ack.raw[0] != kAckOk;
    return ack;
  }
  if (std::all_of(p.begin(), p.end(), [](std::uint8_t b) { return b == 0; })) {
    return ClockIgnored{};  // Bluetooth boards send these around clock commands (§1.8)
  }
  const std::uint8_t status = p[6];
  if (status & 0x20) return ClockAbsent{};
  const auto right = decode_time(p[0], p[1], p[2]);
  const auto left = decode_time(p[3], p[4], p[5]);
  if (!right || !left) return ClockIgnored{};
  ClockReading reading;
  reading.right = *right;
  reading.left = *left;
  reading.right_flag = (p[0] & 0x50) != 0;
  reading.left_flag = (p[3] & 0x50) != 0;
  reading.running = status & 0x01;
  reading.lever_high = (status & 0x02) ? ClockSide::kRight : ClockSide::kLeft;
  reading.battery_low = status & 0x04;
  if (status & 0x08) reading.turn = ClockSide::kRight;
  if (status & 0x10) reading.turn = ClockSide::kLeft;
  return reading;
}

Bytes frame_message(std::uint8_t id, Payload payload) {
  const std::size_t total = payload.size() + 3;
  Bytes out;
  out.reserve(total);
  out.push_back(id);
  out.push_back(static_cast<std::uint8_t>((total >> 7) & 0x7F));
  out.push_back(static_cast<std::uint8_t>(total & 0x7F));
  for (std::uint8_t b : payload) out.push_back(b);
  return out;
}

Bytes encode_board_dump(const Placement& placement) {
  Bytes payload(64);
  for (int field = 0; field < 64; ++field) {
    payload[field] = code_from_piece(placement[field_to_square(field)]);
  }
  return frame_message(kMsgBoardDump, payload);
}

Bytes encode_field_update(int field, std::uint8_t code) {
  const std::uint8_t payload[2] = {static_cast<std::uint8_t>(field), code};
  return frame_message(kMsgFieldUpdate, payload);
}

Bytes encode_bwtime(const ClockReading& r, bool no_clock) {
  std::uint8_t p[7] = {};
  encode_time(r.right, p);
  encode_time(r.left, p + 3);
  if (r.right_flag) p[0] |= 0x10;
  if (r.left_flag) p[3] |= 0x10;
  std::uint8_t status = 0;
  if (r.running) status |= 0x01;
  if (r.lever_high == ClockSide::kRight) status |= 0x02;
  if (r.battery_low) status |= 0x04;
  if (r.turn == ClockSide::kRight) status |= 0x08;
  if (r.turn == ClockSide::kLeft) status |= 0x10;
  if (no_clock) status |= 0x20;
  p[6] = status;
  return frame_message(kMsgBwTime, p);
}

Bytes encode_clock_ack(std::uint8_t ack0, std::uint8_t ack1, std::uint8_t ack2, std::uint8_t ack3) {
  const std::uint8_t p[7] = {
      static_cast<std::uint8_t>(0x0A | ((ack2 & 0x80) >> 3) | ((ack3 & 0x80) >> 2)),
      static_cast<std::uint8_t>(ack0 & 0x7F),
      static_cast<std::uint8_t>(ack1 & 0x7F),
      static_cast<std::uint8_t>(0x0A | ((ack0 & 0x80) >> 3) | ((ack1 & 0x80) >> 2)),
      static_cast<std::uint8_t>(ack2 & 0x7F),
      static_cast<std::uint8_t>(ack3 & 0x7F),
      0};
  return frame_message(kMsgBwTime, p);
}

Bytes encode_clock_command(const ClockCommand& command) {
  return std::visit(
      Overloaded{
          [](const ClockText& t) {
            Bytes out{kClockMessage, 0x0C, kClockStart, kClockAscii};
            for (std::size_t i = 0; i < 8; ++i) {
              const char c = i < t.text.size() ? t.text[i] : ' ';
              out.push_back(c >= 0x20 && c < 0x7F ? static_cast<std::uint8_t>(c) : '?');
            }
            out.push_back(static_cast<std::uint8_t>(std::clamp(t.beep, 0, 15)));
            out.push_back(kClockEnd);
            return out;
          },
          [](const ClockSetAndRun& s) {
            Bytes out{kClockMessage, 0x0A, kClockStart, kClockSetNRun};
            encode_setnrun_time(s.left, out);
            encode_setnrun_time(s.right, out);
            std::uint8_t run = kRunPaused;
            if (s.run == ClockSide::kLeft) run = kRunLeft;
            if (s.run == ClockSide::kRight) run = kRunRight;
            out.push_back(run);
            out.push_back(kClockEnd);
            return out;
          },
          [](const ClockEndText&) { return clock_frame(kClockEndDisplay, std::nullopt); },
          [](const ClockBeep& b) {
            const long long units = std::clamp<long long>(b.duration.count() / 64, 1, 0x7F);
            return clock_frame(kClockBeep, static_cast<std::uint8_t>(units));
          },
          [](const ClockVersionRequest&) { return clock_frame(kClockVersion, std::nullopt); },
      },
      command);
}

std::uint8_t clock_command_id(const ClockCommand& command) {
  return encode_clock_command(command)[3];
}

std::optional<ClockCommand> decode_clock_command(Payload m) {
  if (m.size() < 5 || m[0] != kClockMessage || m[1] + 2u != m.size() || m[2] != kClockStart ||
      m.back() != kClockEnd) {
    return std::nullopt;
  }
  switch (m[3]) {
    case kClockAscii:
      if (m.size() != 14) return std::nullopt;
      return ClockText{std::string(m.begin() + 4, m.begin() + 12), m[12]};
    case kClockSetNRun: {
      if (m.size() != 12) return std::nullopt;
      ClockSetAndRun s{decode_setnrun_time(&m[4]), decode_setnrun_time(&m[7]), std::nullopt};
      if ((m[10] & kRunPaused) == 0 && (m[10] & kRunLeft)) s.run = ClockSide::kLeft;
      if ((m[10] & kRunPaused) == 0 && (m[10] & kRunRight)) s.run = ClockSide::kRight;
      return s;
    }
    case kClockEndDisplay:
      return m.size() == 5 ? std::optional<ClockCommand>(ClockEndText{}) : std::nullopt;
    case kClockBeep:
      if (m.size() != 6) return std::nullopt;
      return ClockBeep{Millis(m[4] * 64)};
    case kClockVersion:
      return m.size() == 5 ? std::optional<ClockCommand>(ClockVersionRequest{}) : std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace eboard::drivers::dgt
