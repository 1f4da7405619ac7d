// PGN (Portable Game Notation) in and out: the reader for real files and the writer of the
// export format (docs/interfaces.md §5; the PGN standard, sections 3 and 8).
//
// Reading. PgnReader walks a text holding any number of games and hands them out one at
// a time, so a bad game costs only itself:
//
//   PgnReader reader(text, "games.pgn");
//   while (auto game = reader.next()) {
//     if (!game->ok()) { report(game->error()); continue; }  // "games.pgn:12: ..."
//     use(game->value());
//   }
//
// Every move is checked against the position (SAN via parse_san: legal, unambiguous).
// Accepted: tag pairs with \" and \\ escapes, games without tags, "{...}" and ";"
// comments (kept per move), NAGs "$n" and "!"/"?" marks (dropped), recursive variations
// "( ... )" (skipped), move numbers "12." and "12...", the four results, SetUp/FEN tags,
// "%" escape lines, a UTF-8 byte order mark, LF, CRLF or CR line ends. A game whose
// movetext ends at the end of the text or at the next tag section without a result
// takes its result from the Result tag (else "*"); when both are there and disagree,
// the movetext's result wins (no error). Not handled: variants other than
// standard chess (Chess960 castling cannot be written as a king step), null moves.
//
// After an error the reader skips to the next line that starts a game: a "[Event" line,
// or after a blank line a tag line or, when the line before the blank ended with a
// result, any line.
//
// Writing. write_pgn gives the export format: the seven-tag roster in order (defaults
// "?" and "????.??.??"), TimeControl, the other tags in their order, SetUp/FEN when the
// game does not start from the standard position; SAN moves with move numbers ("12..."
// after a comment and at a Black start), "{[%clk h:mm:ss]}" after a move when its clock
// time is given (merged with that move's comment), movetext lines under 80 characters
// (a tag line or a single comment word longer than that stays whole), the result, and a
// blank line after the game, so games can be concatenated. A "}" inside a comment is
// written as ")" (a brace comment cannot contain one).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/board/position.h"
#include "util/result.h"

namespace eboard::engine {

using PgnTag = std::pair<std::string, std::string>;  // name, value (unescaped)

struct PgnGame {
  std::vector<PgnTag> tags;  // in file order, duplicates kept
  Position start;            // the FEN tag's position, else the standard start
  std::vector<Move> moves;   // the main line
  // comments[i] holds the comments that follow moves[i] (several joined by a space; ""
  // when none); always as long as `moves`.
  std::vector<std::string> comments;
  std::string leading_comment;  // comments between the tags and the first move
  std::string result = "*";     // "1-0", "0-1", "1/2-1/2" or "*"
  int line = 0;                 // 1-based line where the game starts in the file

  // The value of the first tag with that name, or nullptr.
  const std::string* tag(std::string_view name) const;
};

// The remaining time in a comment's "[%clk h:mm:ss]" or "[%clk h:mm:ss.f]" command.
std::optional<std::chrono::milliseconds> parse_clk(std::string_view comment);
// "[%clk h:mm:ss]" for a remaining time; whole seconds, rounded down (a negative time,
// a flag fall, is written as 0:00:00).
std::string format_clk(std::chrono::milliseconds remaining);

class PgnReader {
 public:
  // `text` must outlive the reader; `file_name` prefixes every error message.
  PgnReader(std::string_view text, std::string file_name);

  // The next game, an error "file:line: message" for a bad one, or nullopt at the end.
  std::optional<Result<PgnGame>> next();

 private:
  std::string_view text_;
  std::string file_name_;
  std::size_t offset_ = 0;  // where the next game's text begins
  int line_ = 1;            // the line at offset_
};

// All games of a text, stopping at the first error.
Result<std::vector<PgnGame>> read_pgn(std::string_view text, std::string file_name);

// Remaining clock time of the player who made each move, index by index as `moves`;
// a missing or nullopt entry writes no clock for that move.
using PgnClocks = std::span<const std::optional<std::chrono::milliseconds>>;

// The game in export format. Fails only when a move is not legal in its position.
Result<std::string> write_pgn(const PgnGame& game, PgnClocks clocks = {});

}  // namespace eboard::engine
