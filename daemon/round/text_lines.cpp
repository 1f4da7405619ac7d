#include "daemon/round/text_lines.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace eboard::daemon::round {
namespace {

// Length of the valid UTF-8 sequence starting at text[at]; 0 if there is none.
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[at + i]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  std::uint32_t code = 0;
  std::uint32_t min = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, code = lead & 0x1Fu, min = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, code = lead & 0x0Fu, min = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, code = lead & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3Fu);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// Windows-1252's 0x80-0x9F; 0 where it has no character (read as the C1 control there).
constexpr std::array<std::uint16_t, 32> kCp1252High = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

}  // namespace

std::vector<TextLine> split_lines(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<TextLine> lines;
  int number = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r' && text[i] != '\n') continue;
    lines.push_back({number++, text.substr(start, i - start)});
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    start = i + 1;
  }
  if (start < text.size()) lines.push_back({number, text.substr(start)});
  return lines;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_length(text, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

std::string utf8_field(std::string_view text) {
  if (valid_utf8(text)) return std::string(text);
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<std::uint8_t>(c);
    const std::uint32_t code =
        byte >= 0x80 && byte <= 0x9F && kCp1252High[byte - 0x80] ? kCp1252High[byte - 0x80] : byte;
    append_utf8(out, code);
  }
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

Columns::Columns(std::string_view line) : line_(line) {
  const bool utf8 = valid_utf8(line);
  for (std::size_t at = 0; at < line.size(); at += utf8 ? utf8_length(line, at) : 1) {
    starts_.push_back(at);
  }
  starts_.push_back(line.size());
}

std::string_view Columns::get(int from, int to) const {
  const int last = std::min(to, count());
  if (from < 1 || from > last) return {};
  const std::size_t begin = starts_[std::size_t(from - 1)];
  return line_.substr(begin, starts_[std::size_t(last)] - begin);
}

char Columns::at(int column) const {
  const std::string_view c = get(column, column);
  return c.empty() ? ' ' : c.size() == 1 ? c[0] : '?';
}

std::string_view columns(std::string_view line, int from, int to) {
  return Columns(line).get(from, to);
}

std::string where(const std::string& path, int line) {
  return path + ":" + std::to_string(line) + ": ";
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace eboard::daemon::round
