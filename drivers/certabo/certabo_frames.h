// Cuts a Certabo board's stream into readings (docs/protocols.md §7). The board sends, over and
// over, a line `:` + decimal numbers separated by spaces + CR LF: 320 numbers (64 squares
// x a 5-byte RFID tag id, square 0 = a8 ... 63 = h1) on a board with piece recognition,
// 8 numbers (one occupancy bitmask per rank, rank 8 first, bit 7 = a-file) on the
// occupancy-only Tabutronic Sentio. A lone LF inside a line is USB chunking, not a
// separator: PicoChess's captured lines (its tests/test_certabo_parser.py) have one every
// 64 characters, also inside a number ("8\n4" is 84), and its parser deletes them; `L` /
// `D` markers (plain or RGB LEDs) may stand anywhere, also inside a line. The stream has no
// checksum: a line with anything else, a number above 255 or another count is dropped
// whole and counted; a damaged tag that still parses is out-voted by the majority of
// three readings one level up (certabo_driver.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace eboard::drivers::certabo {

using Tag = std::uint64_t;  // the 5 bytes, first byte highest; 0 = no tag
struct TagReading {
  std::array<Tag, 64> tags{};  // by the board's index, 0 = a8
};
struct OccupancyReading {
  std::array<std::uint8_t, 8> ranks{};  // rank 8 first; bit 7 = a-file
};
enum class LedKind : std::uint8_t { kUnknown, kPlain, kRgb };

using Reading = std::variant<TagReading, OccupancyReading>;

class LineReader {
 public:
  void feed(std::span<const std::uint8_t> bytes, std::vector<Reading>& out);
  void reset() {
    line_.clear();
    in_line_ = false;
  }
  bool has_partial() const { return in_line_; }
  void drop_partial();
  std::uint64_t discarded_bytes() const { return discarded_; }
  std::uint64_t bad_lines() const { return bad_lines_; }
  LedKind leds() const { return leds_; }

 private:
  void finish_line(std::vector<Reading>& out);
  std::optional<Reading> parse(const std::string& line);

  std::string line_;
  bool in_line_ = false;
  bool saw_cr_ = false;
  std::uint64_t discarded_ = 0;
  std::uint64_t bad_lines_ = 0;
  LedKind leds_ = LedKind::kUnknown;
};

// A whole line as the board sends it, with an LF after every `chunk` characters as USB
// delivers it (0: none) - the emulator's encoder; tests.
std::string format_tags(const TagReading& reading, std::size_t chunk = 0);
std::string format_occupancy(const OccupancyReading& reading, std::size_t chunk = 0);

}  // namespace eboard::drivers::certabo
