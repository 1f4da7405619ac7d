// Base-128 varints, the Protobuf encoding of an unsigned integer: seven value bits per
// byte, least significant group first, the top bit set on every byte but the last. The
// stream sockets' length prefix (docs/interfaces.md §4), the hub's Frame wrapper around a
// journalled Event and format 1 journal records (daemon/core/journal_format.h) all use it.
//
// The reader faces bytes that may be cut short (a frame split over reads, a journal cut by
// a power loss) or hostile. It never reads past `max_bytes` and tells a prefix that may
// still complete from one that never can, so a caller can wait for more or give up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace eboard {

// A 64-bit value takes at most 10 bytes (9 x 7 bits, then 1).
inline constexpr std::size_t kMaxVarintBytes = 10;

enum class VarintStatus {
  kComplete,    // `value` is the whole varint, `bytes` long
  kIncomplete,  // the input ends inside the varint: `value` is a lower bound of it
  kOverlong,    // `max_bytes` bytes all continue, or the value does not fit 64 bits
};

struct VarintRead {
  VarintStatus status;
  std::uint64_t value;
  std::size_t bytes;  // consumed by a complete varint; else how far the reader looked
};

constexpr std::size_t varint_size(std::uint64_t value) {
  std::size_t size = 1;
  for (; value >= 0x80; value >>= 7) ++size;
  return size;
}

inline void append_varint(std::string& out, std::uint64_t value) {
  for (; value >= 0x80; value >>= 7) out.push_back(static_cast<char>((value & 0x7F) | 0x80));
  out.push_back(static_cast<char>(value));
}

// The varint at the start of `data`, reading at most `max_bytes` (at most kMaxVarintBytes)
// of it. The bits read so far only ever grow by later bytes, so a partial value is a
// lower bound of the whole one.
constexpr VarintRead read_varint(std::string_view data, std::size_t max_bytes = kMaxVarintBytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < data.size() && i < max_bytes && i < kMaxVarintBytes; ++i) {
    const auto byte = static_cast<std::uint8_t>(data[i]);
    // The tenth byte holds the 64th bit only.
    if (i == kMaxVarintBytes - 1 && byte > 1) return {VarintStatus::kOverlong, value, i + 1};
    value |= static_cast<std::uint64_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) return {VarintStatus::kComplete, value, i + 1};
  }
  const std::size_t limit = max_bytes < kMaxVarintBytes ? max_bytes : kMaxVarintBytes;
  if (data.size() >= limit) return {VarintStatus::kOverlong, value, limit};
  return {VarintStatus::kIncomplete, value, data.size()};
}

}  // namespace eboard
