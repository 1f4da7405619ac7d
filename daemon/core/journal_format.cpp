#include "daemon/core/journal_format.h"

#include <algorithm>

#include "daemon/core/crc32c.h"
#include "util/varint.h"

namespace eboard::daemon::journal_format {
namespace {

std::uint32_t read_le32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<std::uint8_t>(bytes[at + i]);
  return value;
}

void put_le32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

// Format 1's length is a varint of at most 5 bytes; a record whose bytes end inside it or
// whose length runs over 5 bytes is no record.
constexpr std::size_t kV1LengthBytes = 5;

std::optional<Found> v1_record_at(std::string_view bytes, std::size_t pos) {
  const VarintRead read = read_varint(bytes.substr(pos), kV1LengthBytes);
  if (read.status != VarintStatus::kComplete) return std::nullopt;
  const std::uint64_t length = read.value;
  const std::size_t cursor = pos + read.bytes;
  if (length == 0 || length > kMaxEventBytes) return std::nullopt;
  if (length > bytes.size() - cursor || bytes.size() - cursor - length < 4) return std::nullopt;
  const std::string_view event = bytes.substr(cursor, length);
  if (crc32c(event) != read_le32(bytes, cursor + length)) return std::nullopt;
  return Found{pos, cursor + length + 4, event};
}

// Where the next candidate after a failed one at `pos` may start.
std::size_t next_candidate(std::string_view bytes, Format format, std::size_t pos) {
  if (format == Format::kV2) {
    const auto at = bytes.find(kRecordMarker, pos + 1);
    return at == std::string_view::npos ? bytes.size() : at;
  }
  // Format 1: any byte but a zero (no record starts with a zero length).
  const auto at = bytes.find_first_not_of('\0', pos + 1);
  return at == std::string_view::npos ? bytes.size() : at;
}

}  // namespace

Format detect(std::string_view file) {
  if (file.starts_with(kFileHeader)) return Format::kV2;
  if (file.find_first_not_of('\0') == std::string_view::npos) return Format::kEmpty;
  // No header: format 1, or format 2 whose first bytes were damaged. One intact format 2
  // record anywhere (marker, length and CRC-32C) says which.
  for (auto at = file.find(kRecordMarker); at != std::string_view::npos;
       at = file.find(kRecordMarker, at + 1)) {
    if (record_at(file, at)) return Format::kV2;
  }
  return Format::kV1;
}

std::string encode_record(std::string_view event_bytes) {
  std::string record;
  record.reserve(event_bytes.size() + kRecordOverhead);
  record.append(kRecordMarker);
  put_le32(record, static_cast<std::uint32_t>(event_bytes.size()));
  record.append(event_bytes);
  put_le32(record, crc32c(std::string_view(record).substr(kRecordMarker.size())));
  return record;
}

std::optional<Found> record_at(std::string_view bytes, std::uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < kRecordOverhead) return std::nullopt;
  const auto pos = static_cast<std::size_t>(offset);
  if (bytes.substr(pos, kRecordMarker.size()) != kRecordMarker) return std::nullopt;
  const std::uint32_t length = read_le32(bytes, pos + 4);
  if (length == 0 || length > kMaxEventBytes) return std::nullopt;
  if (length > bytes.size() - pos - kRecordOverhead) return std::nullopt;
  const std::string_view covered = bytes.substr(pos + 4, 4 + length);
  if (crc32c(covered) != read_le32(bytes, pos + 8 + length)) return std::nullopt;
  return Found{offset, offset + kRecordOverhead + length, bytes.substr(pos + 8, length)};
}

ScanResult scan(std::string_view file, Format format,
                const std::function<bool(const Found&)>& keep) {
  ScanResult result;
  std::size_t pos = format == Format::kV2 && file.starts_with(kFileHeader) ? kFileHeader.size() : 0;
  if (format == Format::kEmpty) return result;
  result.logical_end = pos;
  constexpr std::size_t kNone = std::string_view::npos;
  std::size_t damage_begin = kNone;
  while (pos < file.size()) {
    const auto found = format == Format::kV2 ? record_at(file, pos) : v1_record_at(file, pos);
    if (found && keep(*found)) {
      if (damage_begin != kNone) result.damaged.push_back({damage_begin, pos});
      damage_begin = kNone;
      pos = static_cast<std::size_t>(found->end);
      result.logical_end = pos;
      continue;
    }
    if (damage_begin == kNone && file[pos] != '\0') damage_begin = pos;
    pos = next_candidate(file, format, pos);
  }
  const std::size_t last = file.find_last_not_of('\0');
  if (last == std::string_view::npos || last < result.logical_end) return result;
  result.tail_damage_bytes = last + 1 - result.logical_end;
  auto reach = static_cast<std::size_t>(result.logical_end);
  for (auto at = file.find_first_not_of('\0', reach); at != std::string_view::npos;
       at = file.find_first_not_of('\0', reach)) {
    if (at - reach >= kZeroRun) break;
    const auto zero = file.find('\0', at);
    reach = zero == std::string_view::npos ? file.size() : zero;
  }
  result.tail_record_bytes = reach - result.logical_end;
  return result;
}

}  // namespace eboard::daemon::journal_format
