// PgnGame's tag lookup and the "[%clk]" clock command (the clock annotation of the PGN
// Specification Supplement, as Lichess and DGT LiveChess write it).
#include "engine/game/pgn.h"

#include <cstdio>

namespace eboard::engine {

const std::string* PgnGame::tag(std::string_view name) const {
  for (const PgnTag& t : tags)
    if (t.first == name) return &t.second;
  return nullptr;
}

std::optional<std::chrono::milliseconds> parse_clk(std::string_view comment) {
  const std::size_t at = comment.find("[%clk");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = comment.substr(at + 5);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  // h:mm:ss with an optional fraction; each field is read as digits up to its separator.
  long long fields[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    std::size_t digits = 0;
    while (digits < rest.size() && digits < 9 && rest[digits] >= '0' && rest[digits] <= '9')
      fields[i] = fields[i] * 10 + (rest[digits++] - '0');
    if (digits == 0 || (i > 0 && fields[i] > 59)) return std::nullopt;
    rest.remove_prefix(digits);
    if (i < 2) {
      if (rest.empty() || rest.front() != ':') return std::nullopt;
      rest.remove_prefix(1);
    }
  }
  long long ms = ((fields[0] * 60 + fields[1]) * 60 + fields[2]) * 1000;
  if (!rest.empty() && rest.front() == '.') {
    rest.remove_prefix(1);
    long long scale = 100;
    for (; !rest.empty() && rest.front() >= '0' && rest.front() <= '9'; rest.remove_prefix(1)) {
      ms += (rest.front() - '0') * scale;
      scale /= 10;
    }
  }
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.empty() || rest.front() != ']') return std::nullopt;
  return std::chrono::milliseconds(ms);
}

std::string format_clk(std::chrono::milliseconds remaining) {
  const long long seconds = remaining.count() > 0 ? remaining.count() / 1000 : 0;
  char text[48];
  std::snprintf(text, sizeof text, "[%%clk %lld:%02lld:%02lld]", seconds / 3600, seconds / 60 % 60,
                seconds % 60);
  return text;
}

}  // namespace eboard::engine
