// Arbitrary bytes into the PGN reader: never a crash, a hang or undefined behaviour;
// every bad game is an error message "fuzz.pgn:<line>: ..."; every game it accepts
// writes out in export format and reads back as the same game.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/board/fen.h"
#include "engine/game/pgn.h"

using namespace eboard::engine;
using eboard::Result;

namespace {

bool is_roster_or_setup(std::string_view name) {
  for (std::string_view r :
       {"Event", "Site", "Date", "Round", "White", "Black", "Result", "SetUp", "FEN"})
    if (name == r) return true;
  return false;
}

// What the writer makes of a comment: a "}" would close it early, so it becomes ")".
std::string as_written(std::string comment) {
  for (char& c : comment)
    if (c == '}') c = ')';
  return comment;
}

// What the writer makes of a tag value: it stays on its line, and PGN strings allow no
// tab (standard 7), so a newline, return or tab becomes a space.
std::string tag_as_written(std::string value) {
  for (char& c : value)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return value;
}

void check_round_trip(const PgnGame& game) {
  if (game.comments.size() != game.moves.size()) std::abort();
  Result<std::string> text = write_pgn(game);
  if (!text.ok()) std::abort();  // the reader only accepts legal moves
  Result<std::vector<PgnGame>> back = read_pgn(text.value(), "again.pgn");
  if (!back.ok() || back.value().size() != 1) std::abort();
  const PgnGame& again = back.value().front();
  if (again.moves != game.moves || again.result != game.result ||
      again.leading_comment != as_written(game.leading_comment) ||
      to_fen(again.start) != to_fen(game.start))
    std::abort();
  for (std::size_t i = 0; i < game.comments.size(); ++i)
    if (again.comments[i] != as_written(game.comments[i])) std::abort();
  for (const PgnTag& tag : game.tags) {
    if (is_roster_or_setup(tag.first)) continue;
    const std::string* value = again.tag(tag.first);
    if (!value || *value != tag_as_written(*game.tag(tag.first))) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  PgnReader reader(text, "fuzz.pgn");
  std::size_t calls = 0;
  while (auto game = reader.next()) {
    if (++calls > size + 1) std::abort();  // each call must consume input
    if (!game->ok()) {
      const std::string& error = game->error();
      if (error.rfind("fuzz.pgn:", 0) != 0 || error.size() < 12) std::abort();
      continue;
    }
    check_round_trip(game->value());
  }
  return 0;
}
