#include "simulators/chesslink/chesslink_emulator.h"

namespace eboard::sim {
namespace {

namespace cl = drivers::chesslink;
constexpr script::Millis kScan(41);  // the default scan time, 20 x 2.048 ms

// Command lengths including the letter and the checksum (§5 table; `L` = slot + 81 LEDs).
std::size_t command_length(char letter) {
  switch (letter) {
    case 'V':
    case 'S':
    case 'X':
    case 'T': return 3;
    case 'R': return 5;
    case 'W': return 7;
    case 'L': return 1 + 2 + 2 * cl::kLeds + 2;
    default: return 0;
  }
}

cl::Orientation order(const ChessLinkOptions& options) {
  return options.cable_other_side ? cl::Orientation::kDocumented : cl::Orientation::kReversed;
}

}  // namespace

ChessLinkEmulator::ChessLinkEmulator(ChessLinkOptions options) : options_(options) {
  placement_.fill(drivers::Piece::kEmpty);
  power_cycle();
}

void ChessLinkEmulator::power_cycle() {
  e2rom_.fill(0);
  e2rom_[cl::kE2romScanTime] = 20;
  e2rom_[cl::kE2romReports] = cl::kReportsEveryScan;
  pending_.clear();
  host_active_ = host_has_board_ = false;
  lit_ = 0;
}

void ChessLinkEmulator::set_placement(const script::Placement& placement) {
  for (int sq = 0; sq < 64; ++sq) {
    placement_[sq] =
        drivers::piece_from_letter(placement.squares[sq]).value_or(drivers::Piece::kEmpty);
  }
}

Message ChessLinkEmulator::reply(char letter, const std::string& data) const {
  Message bytes = cl::encode(letter, data);
  for (auto& b : bytes) b = cl::with_odd_parity(b);
  return bytes;
}

Message ChessLinkEmulator::status() const {
  std::string data(cl::kSquares, '.');
  for (std::size_t i = 0; i < cl::kSquares; ++i) {
    data[i] = drivers::piece_letter(placement_[cl::square_of(i, order(options_))]);
  }
  return reply('s', data);
}

bool ChessLinkEmulator::reports_on_change() const {
  const std::uint8_t mode = e2rom_[cl::kE2romReports] & 0x07;
  return mode == cl::kReportsEveryScan || mode >= 3;
}

Messages ChessLinkEmulator::on_host_bytes(std::span<const std::uint8_t> bytes) {
  Messages out;
  for (const std::uint8_t b : bytes) pending_ += static_cast<char>(b & 0x7F);
  while (!pending_.empty()) {
    const std::size_t length = command_length(pending_[0]);
    if (length == 0) {
      pending_.erase(0, 1);
      continue;
    }
    if (pending_.size() < length) break;
    const std::string text = pending_.substr(0, length);
    const auto check = cl::block_parity(std::string_view(text).substr(0, length - 2));
    if (check[0] != text[length - 2] || check[1] != text[length - 1]) {
      pending_.erase(0, 1);  // the board ignores a command with a bad checksum
      continue;
    }
    pending_.erase(0, length);
    handle_command(text.substr(0, length - 2), out);
  }
  return out;
}

void ChessLinkEmulator::handle_command(const std::string& text, Messages& out) {
  host_active_ = true;
  const std::string data = text.substr(1);
  switch (text[0]) {
    case 'V':
      out.push_back(reply('v', cl::hex2(static_cast<std::uint8_t>(options_.version_major)) +
                                   cl::hex2(static_cast<std::uint8_t>(options_.version_minor))));
      break;
    case 'S':
      out.push_back(status());
      host_has_board_ = true;
      break;
    case 'W':
      if (const auto address = cl::parse_hex2(data[0], data[1])) {
        if (const auto value = cl::parse_hex2(data[2], data[3])) e2rom_[*address] = *value;
      }
      out.push_back(reply('w', data));
      break;
    case 'R':
      if (const auto address = cl::parse_hex2(data[0], data[1])) {
        out.push_back(reply('r', data + cl::hex2(e2rom_[*address])));
      }
      break;
    case 'L':
      read_lights(data);
      out.push_back(reply('l', ""));
      break;
    case 'X':
      lit_ = 0;
      out.push_back(reply('x', ""));
      break;
    case 'T': power_cycle(); break;
  }
}

// A square counts as lit when all four of its corners are.
void ChessLinkEmulator::read_lights(const std::string& data) {
  std::array<bool, cl::kLeds> on{};
  for (std::size_t led = 0; led < cl::kLeds; ++led) {
    const auto value = cl::parse_hex2(data[2 + 2 * led], data[3 + 2 * led]);
    on[led] = value && *value != 0;
  }
  lit_ = 0;
  for (int sq = 0; sq < 64; ++sq) {
    bool all = true;
    for (const int f : {sq % 8, sq % 8 + 1}) {
      for (const int r : {7 - sq / 8, 8 - sq / 8})
        all = all && on[cl::led_of(f, r, order(options_))];
    }
    if (all) lit_ |= std::uint64_t{1} << sq;
  }
}

Messages ChessLinkEmulator::apply(const script::Statement& statement) {
  const drivers::Placement before = placement_;
  if (const auto* full = std::get_if<script::Placement>(&statement.body)) {
    set_placement(*full);
  } else if (const auto* lift = std::get_if<script::Lift>(&statement.body)) {
    placement_[lift->square] = drivers::Piece::kEmpty;
  } else if (const auto* put = std::get_if<script::Put>(&statement.body)) {
    placement_[put->square] =
        drivers::piece_from_letter(put->piece).value_or(drivers::Piece::kEmpty);
  }
  if (!host_active_ || placement_ == before || !reports_on_change()) return {};
  host_has_board_ = true;
  return {status()};
}

Messages ChessLinkEmulator::advance(script::Millis at) {
  if (!host_active_ || (e2rom_[cl::kE2romReports] & 0x07) != cl::kReportsEveryScan) return {};
  if (at - last_scan_ < kScan) return {};
  last_scan_ = at;
  host_has_board_ = true;
  return {status()};
}

}  // namespace eboard::sim
