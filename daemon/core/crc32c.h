// CRC-32C (Castagnoli), the checksum of each journal record. Chosen over
// zlib's CRC-32 because it detects more error patterns at this record size and needs no
// library; the table is built at compile time and never changes.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace eboard::daemon {

namespace detail {
constexpr std::array<std::uint32_t, 256> make_crc32c_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? 0x82F63B78u : 0u);
    table[i] = crc;
  }
  return table;
}
inline constexpr std::array<std::uint32_t, 256> kCrc32cTable = make_crc32c_table();
}  // namespace detail

constexpr std::uint32_t crc32c(std::string_view bytes) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (const char c : bytes) {
    crc = detail::kCrc32cTable[(crc ^ static_cast<std::uint8_t>(c)) & 0xFF] ^ (crc >> 8);
  }
  return crc ^ 0xFFFFFFFFu;
}

}  // namespace eboard::daemon
