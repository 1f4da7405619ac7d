// Fuzz the round CSV reader and the board plan (docs/interfaces.md §6.2). Invariants: it never
// crashes; an error names the file; an accepted round has its boards in order, each once,
// every player named, and every text valid UTF-8 (it goes into Protobuf strings and PGN
// tags), and its plan puts no two games on one board.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "daemon/round/round_csv.h"
#include "daemon/round/text_lines.h"

namespace {

using namespace eboard::daemon::round;

void check_player(const Player& p) {
  if (p.name.empty()) __builtin_trap();
  for (const std::string* text : {&p.name, &p.fide_id, &p.elo, &p.title, &p.team}) {
    if (!valid_utf8(*text)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  RoundOptions options;
  options.round = 4;
  auto sheet = parse_round_csv(text, "fuzz.csv", options);
  if (!sheet) {
    if (sheet.error().rfind("fuzz.csv", 0) != 0) __builtin_trap();
    return 0;
  }
  int previous = 0;
  for (const Pairing& p : sheet->pairings) {
    if (p.board <= previous) __builtin_trap();
    previous = p.board;
    check_player(p.white);
    check_player(p.black);
  }
  auto plan = plan_round(*sheet, {"b1", "b2", "b3"});
  if (!plan) return 0;
  std::set<std::string> boards;
  for (const BoardGame& g : plan->games) {
    if (!boards.insert(g.board_id).second) __builtin_trap();
  }
  // The same text as a board map of the round it describes.
  RoundSheet copy = *sheet;
  if (auto error = apply_board_map(text, "map.csv", copy)) {
    if (error->message.rfind("map.csv", 0) != 0) __builtin_trap();
  }
  return 0;
}
