// The text of a round file as numbered lines (docs/interfaces.md §6.2): tournament programs
// write CRLF, LF or - as the TRF specification asks - a bare CR at the end of each line,
// and not always UTF-8 (Swiss-Manager and Vega write Windows code pages). Lines are split
// at any of the three; a leading UTF-8 byte order mark is dropped. Only ASCII decides the
// structure of either format, so the readers work on bytes and convert a field's text
// with `utf8_field` at the end.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace eboard::daemon::round {

struct TextLine {
  int number = 0;  // 1-based, as an editor counts
  std::string_view text;
};

std::vector<TextLine> split_lines(std::string_view text);

bool valid_utf8(std::string_view text);

// The text as UTF-8: as it is when valid, else read as Windows-1252 (ISO 8859-1 with the
// printable 0x80-0x9F of Windows), the code page of the tournament programs that do not
// write UTF-8.
std::string utf8_field(std::string_view text);

// Without the spaces and tabs at either end.
std::string_view trim(std::string_view text);

// A line's characters (code points of valid UTF-8, bytes otherwise) by column, 1-based,
// as fixed-column formats count them. A TRF written in UTF-8 pads names by characters,
// so columns count characters.
class Columns {
 public:
  explicit Columns(std::string_view line);
  // Columns `from` to `to`, inclusive; "" past the end.
  std::string_view get(int from, int to) const;
  // One column's character: ' ' past the end, '?' for a non-ASCII one.
  char at(int column) const;
  int count() const { return int(starts_.size()) - 1; }

 private:
  std::string_view line_;
  std::vector<std::size_t> starts_;  // byte offset of each column, then the line's end
};

std::string_view columns(std::string_view line, int from, int to);

// "PATH:LINE: ", the start of every message about a line of a round file.
std::string where(const std::string& path, int line);

// True for one or more ASCII digits and nothing else.
bool all_digits(std::string_view text);

}  // namespace eboard::daemon::round
