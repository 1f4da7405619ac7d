// The bytes of a journal file (journal.h says what a journal is for).
//
// Format 2, written since records could be found again after damage:
//   file header  "\0eboard-journal 2\n" (18 bytes)
//   records      marker E8 4A 9B 52 | u32 length, little-endian | the eboard.v1.Event's
//                binary form (length bytes) | u32 CRC-32C of length and Event, little-endian
//   zero tail    zero bytes up to the end of the file (preallocated: journal.h)
// A reader that meets damage (a bad length, a checksum mismatch, bytes that do not parse)
// looks for the next marker and goes on there, so a flipped byte costs the record it is
// in and no other. The marker is not escaped inside Events: a marker met by chance inside
// a damaged record is only a candidate, kept when its length and CRC-32C also hold (a
// chance of about 2^-32 each).
//
// Format 1, the journals of earlier versions (read, then rewritten as format 2 at open):
//   records      varint length | Event | u32 CRC-32C of the Event, little-endian
//   zero tail
// How format 1 is told apart: format 2 starts with its header, whose first byte is 0;
// format 1 starts with a record's length, never 0 (every Event has seq >= 1, so its
// binary form is not empty). A file without the header is format 2 all the same when it
// holds one intact format 2 record (its header was damaged), else format 1. A file that
// is empty or all zeros holds no records in either format and is started as format 2. Format 1 has
// no marker; after damage the reader tries every following byte as a record start (length, CRC-32C
// and a parse must all hold).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eboard::daemon::journal_format {

inline constexpr std::string_view kFileHeader{"\0eboard-journal 2\n", 18};
inline constexpr std::string_view kRecordMarker{"\xE8\x4A\x9B\x52", 4};
// marker, length, CRC-32C
inline constexpr std::size_t kRecordOverhead = 12;
// The smallest Event the daemon writes (seq and board id: at least 5 bytes) in a record:
// how many records a run of damaged bytes can have held at most.
inline constexpr std::size_t kMinRecordBytes = kRecordOverhead + 5;
// No Event comes near this; a longer length is damage.
inline constexpr std::uint32_t kMaxEventBytes = 1u << 20;

enum class Format : std::uint8_t { kEmpty, kV1, kV2 };
Format detect(std::string_view file);

// One record as format 2 writes it.
std::string encode_record(std::string_view event_bytes);

// A record found in a file: where it starts and ends, and its Event's bytes.
struct Found {
  std::uint64_t offset = 0;
  std::uint64_t end = 0;
  std::string_view event;
};

// What a scan found besides the records: runs of non-zero bytes that are in no record
// (damage), and the logical end (after the last record kept; the next record goes there).
struct ScanResult {
  struct Range {
    std::uint64_t begin;
    std::uint64_t end;
  };
  std::vector<Range> damaged;
  std::uint64_t logical_end = 0;
  // From the logical end to the last non-zero byte (0: only zeros follow it).
  std::uint64_t tail_damage_bytes = 0;
  // The part of those that can hold records of this journal: up to the first run of
  // kZeroRun zeros. Records are written one after the other from the logical end, and the
  // zero tail is written in whole pages, so bytes after a page of zeros were never a
  // record written after the kept ones (another program's, or an old file's).
  std::uint64_t tail_record_bytes = 0;
};
inline constexpr std::size_t kZeroRun = 4096;

// Scans `file` (a whole journal, `format` as detected) from its first record. `keep` gets
// each candidate record in file order and says whether it is one (it parses and its seq
// follows the last kept one); a refused candidate counts as damage.
ScanResult scan(std::string_view file, Format format,
                const std::function<bool(const Found&)>& keep);

// The record at `offset` of `bytes` in format 2 (as read back for a replay), or nullopt.
std::optional<Found> record_at(std::string_view bytes, std::uint64_t offset);

}  // namespace eboard::daemon::journal_format
