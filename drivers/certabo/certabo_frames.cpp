#include "drivers/certabo/certabo_frames.h"

namespace eboard::drivers::certabo {
namespace {

constexpr std::size_t kTagNumbers = 320;
constexpr std::size_t kOccupancyNumbers = 8;
// A line is ~1,100 characters; one much longer has lost its end.
constexpr std::size_t kMaxLine = 2400;

}  // namespace

void LineReader::drop_partial() {
  discarded_ += line_.size() + (in_line_ ? 1 : 0);
  line_.clear();
  in_line_ = false;
}

void LineReader::feed(std::span<const std::uint8_t> bytes, std::vector<Reading>& out) {
  for (const std::uint8_t b : bytes) {
    const char c = static_cast<char>(b);
    if (c == 'L' || c == 'D') {  // LED markers, in or between lines (PicoChess parser.py)
      leds_ = c == 'L' ? LedKind::kPlain : LedKind::kRgb;
      continue;
    }
    if (c == ':') {
      if (in_line_) {
        ++bad_lines_;
        discarded_ += line_.size() + 1;  // a line cut short by the next one
      }
      line_.clear();
      in_line_ = true;
      saw_cr_ = false;
      continue;
    }
    if (!in_line_) {
      if (c != '\r' && c != '\n') ++discarded_;
      continue;
    }
    if (c == '\n' && saw_cr_) {
      finish_line(out);
      continue;
    }
    if (c == '\n') continue;  // USB chunking (see the header)
    if (saw_cr_) line_ += '\r';
    saw_cr_ = c == '\r';
    if (!saw_cr_) line_ += c;
    if (line_.size() > kMaxLine) {
      ++bad_lines_;
      drop_partial();
    }
  }
}

void LineReader::finish_line(std::vector<Reading>& out) {
  in_line_ = false;
  saw_cr_ = false;
  if (auto reading = parse(line_)) {
    out.push_back(std::move(*reading));
  } else {
    ++bad_lines_;
    discarded_ += line_.size() + 3;  // with ':' and CR LF
  }
  line_.clear();
}

std::optional<Reading> LineReader::parse(const std::string& line) {
  std::vector<std::uint8_t> numbers;
  int value = -1;
  for (const char c : line) {
    if (c >= '0' && c <= '9') {
      value = (value < 0 ? 0 : value * 10) + (c - '0');
      if (value > 255) return std::nullopt;
    } else if (c == ' ') {
      if (value >= 0) numbers.push_back(static_cast<std::uint8_t>(value));
      value = -1;
    } else {
      return std::nullopt;
    }
    if (numbers.size() > kTagNumbers) return std::nullopt;
  }
  if (value >= 0) numbers.push_back(static_cast<std::uint8_t>(value));
  if (numbers.size() == kOccupancyNumbers) {
    OccupancyReading reading;
    for (std::size_t i = 0; i < 8; ++i) reading.ranks[i] = numbers[i];
    return reading;
  }
  if (numbers.size() != kTagNumbers) return std::nullopt;
  TagReading reading;
  for (std::size_t sq = 0; sq < 64; ++sq) {
    Tag tag = 0;
    for (std::size_t i = 0; i < 5; ++i) tag = tag << 8 | numbers[sq * 5 + i];
    reading.tags[sq] = tag;
  }
  return reading;
}

namespace {
std::string chunked(const std::string& line, std::size_t chunk) {
  if (chunk == 0) return line;
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (i > 0 && i % chunk == 0 && i + 2 < line.size()) out += '\n';
    out += line[i];
  }
  return out;
}
}  // namespace

std::string format_tags(const TagReading& reading, std::size_t chunk) {
  std::string line = ":";
  for (std::size_t sq = 0; sq < 64; ++sq) {
    for (int i = 4; i >= 0; --i) {
      line += std::to_string((reading.tags[sq] >> (8 * i)) & 0xFF);
      line += ' ';
    }
  }
  line += "\r\n";
  return chunked(line, chunk);
}

std::string format_occupancy(const OccupancyReading& reading, std::size_t chunk) {
  std::string line = ":";
  for (const std::uint8_t rank : reading.ranks) line += std::to_string(rank) + " ";
  line += "\r\n";
  return chunked(line, chunk);
}

}  // namespace eboard::drivers::certabo
