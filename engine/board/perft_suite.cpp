#include "engine/board/perft_suite.h"

#include <charconv>

namespace eboard::engine {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

template <class T>
bool parse_number(std::string_view s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Result<std::vector<SuiteEntry>> parse_suite(std::string_view text, const std::string& file_name) {
  std::vector<SuiteEntry> entries;
  int line_number = 0;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line_number;
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    auto where = file_name + ":" + std::to_string(line_number) + ": ";
    SuiteEntry entry;
    entry.line = line_number;
    size_t semi = line.find(';');
    entry.fen = std::string(trim(line.substr(0, semi)));
    while (semi != std::string_view::npos) {
      line.remove_prefix(semi + 1);
      semi = line.find(';');
      std::string_view item = trim(line.substr(0, semi));
      size_t space = item.find(' ');
      int depth = 0;
      std::uint64_t nodes = 0;
      if (item.size() < 2 || item[0] != 'D' || space == std::string_view::npos ||
          !parse_number(item.substr(1, space - 1), depth) || depth < 1 ||
          !parse_number(trim(item.substr(space + 1)), nodes))
        return Error{where + "expected \";D<depth> <nodes>\", got \"" + std::string(item) + "\""};
      entry.expected.emplace_back(depth, nodes);
    }
    if (entry.expected.empty()) return Error{where + "no \";D<depth> <nodes>\" entries"};
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace eboard::engine
