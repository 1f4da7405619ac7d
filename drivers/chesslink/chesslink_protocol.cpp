#include "drivers/chesslink/chesslink_protocol.h"

#include <bit>

namespace eboard::drivers::chesslink {

std::size_t reply_length(char letter) {
  switch (letter) {
    case 's': return kStatusLength;
    case 'v': return kVersionLength;
    case 'l':
    case 'x': return kShortLength;
    case 'w':
    case 'r': return kE2romLength;
    default: return 0;
  }
}

std::string hex2(std::uint8_t value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return {kDigits[value >> 4], kDigits[value & 0x0F]};
}

std::array<char, 2> block_parity(std::string_view text) {
  std::uint8_t x = 0;
  for (const char c : text) x ^= static_cast<std::uint8_t>(c) & 0x7F;
  const std::string digits = hex2(x);
  return {digits[0], digits[1]};
}

namespace {
std::optional<int> hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;  // the board sends upper case only (§5)
}
}  // namespace

std::optional<std::uint8_t> parse_hex2(char high, char low) {
  const auto h = hex_digit(high);
  const auto l = hex_digit(low);
  if (!h || !l) return std::nullopt;
  return static_cast<std::uint8_t>(*h << 4 | *l);
}

Bytes encode(char letter, std::string_view data) {
  std::string text(1, letter);
  text += data;
  const auto check = block_parity(text);
  text += check[0];
  text += check[1];
  return Bytes(text.begin(), text.end());
}

std::uint8_t with_odd_parity(std::uint8_t ascii) {
  const std::uint8_t seven = ascii & 0x7F;
  return std::popcount(seven) % 2 == 0 ? static_cast<std::uint8_t>(seven | 0x80) : seven;
}

}  // namespace eboard::drivers::chesslink
