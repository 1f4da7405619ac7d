// write_pgn: the PGN export format (standard section 8; docs/interfaces.md §5).
//
// Moves are replayed from the start position so each is written as SAN against its own
// position; a move that is not legal there cannot be written as SAN and fails the export
// instead of producing a file no reader accepts.
#include <string>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"

namespace eboard::engine {
namespace {

constexpr std::string_view kSevenTagRoster[] = {"Event", "Site",  "Date",  "Round",
                                                "White", "Black", "Result"};
constexpr std::size_t kMaxLineLength = 79;  // "lines under 80 characters" (standard 8.2.2)

bool is_result(std::string_view s) {
  return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*";
}

bool is_roster_or_setup(std::string_view name) {
  for (std::string_view r : kSevenTagRoster)
    if (name == r) return true;
  return name == "TimeControl" || name == "SetUp" || name == "FEN";
}

// Tag names are symbols: other characters would make the file unreadable.
std::string export_tag_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    out += ok ? c : '_';
  }
  return out.empty() ? "_" : out;
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += export_tag_name(name);
  out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;  // a value stays on its line
  }
  out += "\"]\n";
}

// Joins tokens with spaces, starting a new line before one that would pass the limit.
class LineWrapper {
 public:
  explicit LineWrapper(std::string& out) : out_(out) {}
  void add(std::string_view token) {
    if (length_ > 0 && length_ + 1 + token.size() > kMaxLineLength) {
      out_ += '\n';
      length_ = 0;
    }
    if (length_ > 0) {
      out_ += ' ';
      ++length_;
    }
    out_ += token;
    length_ += token.size();
  }
  void finish() {
    if (length_ > 0) out_ += '\n';
    length_ = 0;
  }

 private:
  std::string& out_;
  std::size_t length_ = 0;
};

// "{text}": kept whole when it fits a line, else broken at its spaces. A "}" would end
// the comment early, so it becomes ")"; line breaks become spaces.
void add_comment(LineWrapper& wrapper, std::string_view text) {
  std::string body = "{";
  for (char c : text) body += c == '}' ? ')' : (c == '\n' || c == '\r') ? ' ' : c;
  body += '}';
  if (body.size() <= kMaxLineLength) {
    wrapper.add(body);
    return;
  }
  std::string_view rest = body;
  while (!rest.empty()) {
    const std::size_t space = rest.find(' ');
    const std::string_view word = rest.substr(0, space);
    if (!word.empty()) wrapper.add(word);
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
}

}  // namespace

Result<std::string> write_pgn(const PgnGame& game, PgnClocks clocks) {
  std::string out;
  const std::string result = is_result(game.result) ? game.result : "*";
  for (std::string_view name : kSevenTagRoster) {
    const std::string* value = game.tag(name);
    std::string_view shown = value && !value->empty() ? std::string_view(*value) : "?";
    if (name == "Date" && (!value || value->empty())) shown = "????.??.??";
    if (name == "Result") shown = result;
    write_tag(out, name, shown);
  }
  if (const std::string* tc = game.tag("TimeControl")) write_tag(out, "TimeControl", *tc);
  for (const PgnTag& tag : game.tags)
    if (!is_roster_or_setup(tag.first)) write_tag(out, tag.first, tag.second);
  if (const std::string fen = to_fen(game.start); fen != kStartFen) {
    write_tag(out, "SetUp", "1");
    write_tag(out, "FEN", fen);
  }
  out += '\n';

  LineWrapper wrapper(out);
  if (!game.leading_comment.empty()) add_comment(wrapper, game.leading_comment);
  Position pos = game.start;
  MoveList legal;
  bool number_black_move = true;  // at the start and after a comment (standard 8.2.2.2)
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const Move m = game.moves[i];
    const std::string number = std::to_string(pos.fullmove_number());
    generate_legal(pos, legal);
    if (!legal.contains(m))
      return Error{"move " + number + (pos.side_to_move() == kWhite ? "." : "...") + " " +
                   to_uci(m) + " is not legal in its position"};
    if (pos.side_to_move() == kWhite)
      wrapper.add(number + ".");
    else if (number_black_move)
      wrapper.add(number + "...");
    wrapper.add(to_san(pos, m, legal));
    std::string comment;
    if (i < clocks.size() && clocks[i]) comment = format_clk(*clocks[i]);
    if (i < game.comments.size() && !game.comments[i].empty())
      comment += (comment.empty() ? "" : " ") + game.comments[i];
    if (!comment.empty()) add_comment(wrapper, comment);
    number_black_move = !comment.empty();
    pos.make(m);
  }
  wrapper.add(result);
  wrapper.finish();
  out += '\n';
  return out;
}

}  // namespace eboard::engine
