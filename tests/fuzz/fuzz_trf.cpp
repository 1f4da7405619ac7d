// Fuzz the TRF16 reader (docs/interfaces.md §6.2, daemon/round/round_trf.h). The first byte
// picks the round (1-16), the rest is the file. Invariants: it never crashes; an error
// names the file; an accepted round numbers its boards 1..n, pairs nobody twice, names
// every player, and all its text is valid UTF-8 whatever the file's encoding.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "daemon/round/round_trf.h"
#include "daemon/round/text_lines.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eboard::daemon::round;
  if (size == 0) return 0;
  RoundOptions options;
  options.round = 1 + data[0] % 16;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  auto sheet = parse_trf(text, "fuzz.trf", options);
  if (!sheet) {
    if (sheet.error().rfind("fuzz.trf", 0) != 0) __builtin_trap();
    return 0;
  }
  std::set<std::string> players;
  for (std::size_t i = 0; i < sheet->pairings.size(); ++i) {
    const Pairing& p = sheet->pairings[i];
    if (p.board != int(i) + 1 || p.line < 1) __builtin_trap();
    for (const Player* player : {&p.white, &p.black}) {
      if (player->name.empty() || !valid_utf8(player->name) || !valid_utf8(player->team)) {
        __builtin_trap();
      }
    }
    // A pairing is two players' agreeing entries: each player's line is in one pairing.
    if (!players.insert(p.white.name + "#" + std::to_string(p.line)).second) __builtin_trap();
  }
  for (const std::string* text : {&sheet->event, &sheet->site, &sheet->date}) {
    if (!valid_utf8(*text)) __builtin_trap();
  }
  const Tags tags = round_tags(*sheet, sheet->pairings.front());
  if (tags.empty()) __builtin_trap();
  return 0;
}
