// PgnReader: games out of PGN text, one at a time (the contract is in pgn.h).
//
// A game is parsed in one pass over the tokens: the tag section, then the movetext, where
// each move is matched against the legal moves of the position reached so far. Errors
// carry the line and offset of the token at fault, so the reader can name the line and
// resume from the line after it.
#include <string>
#include <utility>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"
#include "engine/game/pgn_lexer.h"

namespace eboard::engine {
namespace {

using pgn::Lexer;
using pgn::Token;
using pgn::TokenKind;

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

struct Failure {
  int line = 0;
  std::size_t offset = 0;
  std::string message;
};

bool is_result(std::string_view s) {
  return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*";
}

bool all_of(std::string_view s, std::string_view allowed) {
  return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

bool is_tag_name(std::string_view s) {
  return all_of(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
}

// A comment's text with every run of blanks (line breaks included) made one space.
void append_comment(std::string& to, std::string_view body) {
  bool space = !to.empty();
  for (char c : body) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !to.empty();
    } else {
      if (space) to += ' ';
      space = false;
      to += c;
    }
  }
}

// "12." or "12..." for the ply-th move (0-based) of a game starting at `start`.
std::string move_label(const Position& start, std::size_t ply) {
  const std::size_t black_first = start.side_to_move() == kBlack ? 1 : 0;
  const std::size_t number = start.fullmove_number() + (ply + black_first) / 2;
  return std::to_string(number) + ((ply + black_first) % 2 ? "..." : ".");
}

class GameParser {
 public:
  explicit GameParser(Lexer& lexer) : lexer_(lexer) {}

  // Whether the movetext ended with a result (rather than the end of the text).
  bool terminated() const { return terminated_; }

  // Fills `game` from the tokens; false with `failure` set when the game is bad.
  bool parse(PgnGame& game, Failure& failure) {
    return parse_tags(game, failure) && set_up(game, failure) && parse_movetext(game, failure);
  }

 private:
  bool fail(Failure& failure, const Token& at, std::string message) {
    failure = {at.line, at.offset, std::move(message)};
    return false;
  }

  bool parse_tags(PgnGame& game, Failure& failure) {
    std::string comments;  // those after the last tag open the movetext
    while (lexer_.peek().kind == TokenKind::kTagOpen || lexer_.peek().kind == TokenKind::kComment) {
      Token t = lexer_.take();
      if (t.kind == TokenKind::kComment) {
        append_comment(comments, t.text);
        continue;
      }
      comments.clear();
      Token name = lexer_.take();
      if (name.kind == TokenKind::kError) return fail(failure, name, name.value);
      if (name.kind != TokenKind::kSymbol || !is_tag_name(name.text))
        return fail(failure, t, "bad tag: expected a tag name after '['");
      Token value = lexer_.take();
      if (value.kind == TokenKind::kError)
        return fail(failure, value, "bad tag [" + std::string(name.text) + "]: " + value.value);
      if (value.kind != TokenKind::kString)
        return fail(failure, t,
                    "bad tag [" + std::string(name.text) + "]: expected a quoted value");
      Token close = lexer_.take();
      if (close.kind != TokenKind::kTagClose)
        return fail(failure, t, "bad tag [" + std::string(name.text) + "]: expected ']'");
      if (name.text == "FEN") fen_token_ = t;
      if (name.text == "Variant") variant_token_ = t;
      game.tags.emplace_back(std::string(name.text), std::move(value.value));
    }
    game.leading_comment = std::move(comments);
    return true;
  }

  bool set_up(PgnGame& game, Failure& failure) {
    if (const std::string* variant = game.tag("Variant")) {
      if (!variant->empty() && *variant != "Standard" && *variant != "standard" &&
          *variant != "chess")
        return fail(failure, variant_token_, "unsupported variant '" + *variant + "'");
    }
    if (const std::string* fen = game.tag("FEN")) {
      Result<Position> start = parse_fen(*fen);
      if (!start.ok()) return fail(failure, fen_token_, "bad FEN tag: " + start.error());
      game.start = std::move(start).value();
    }
    return true;
  }

  bool parse_movetext(PgnGame& game, Failure& failure) {
    Position pos = game.start;
    for (;;) {
      const Token& next = lexer_.peek();
      if (next.kind == TokenKind::kEnd || next.kind == TokenKind::kTagOpen) {
        // No result before the end or the next game: the Result tag says it.
        const std::string* tag = game.tag("Result");
        game.result = tag && is_result(*tag) ? *tag : "*";
        return true;
      }
      Token t = lexer_.take();
      switch (t.kind) {
        case TokenKind::kError: return fail(failure, t, t.value);
        case TokenKind::kAsterisk:
          game.result = "*";
          terminated_ = true;
          return true;
        case TokenKind::kPeriod:
        case TokenKind::kNag: break;
        case TokenKind::kComment:
          append_comment(game.moves.empty() ? game.leading_comment : game.comments.back(), t.text);
          break;
        case TokenKind::kVariationOpen:
          if (!skip_variation(t, failure)) return false;
          break;
        case TokenKind::kVariationClose:
          return fail(failure, t, "')' without a variation to close");
        case TokenKind::kString: return fail(failure, t, "a string in the movetext (missing '['?)");
        case TokenKind::kTagClose: return fail(failure, t, "']' in the movetext");
        case TokenKind::kSymbol:
          if (is_result(t.text)) {
            game.result = std::string(t.text);
            terminated_ = true;
            return true;
          }
          if (!play_symbol(game, pos, t, failure)) return false;
          break;
        case TokenKind::kEnd:
        case TokenKind::kTagOpen: break;  // handled by the peek above
      }
    }
  }

  // A move, a move number or a lone annotation mark.
  bool play_symbol(PgnGame& game, Position& pos, const Token& t, Failure& failure) {
    if (all_of(t.text, "0123456789") || all_of(t.text, "!?") || t.text == "e.p.") return true;
    Result<Move> move = parse_san(pos, t.text);
    if (!move.ok())
      return fail(failure, t,
                  "move " + move_label(game.start, game.moves.size()) + " " + move.error());
    pos.make(move.value());
    game.moves.push_back(move.value());
    game.comments.emplace_back();
    return true;
  }

  // Skips a recursive variation; `open` is its "(".
  bool skip_variation(const Token& open, Failure& failure) {
    int depth = 1;
    while (depth > 0) {
      const Token& t = lexer_.peek();
      if (t.kind == TokenKind::kEnd || t.kind == TokenKind::kTagOpen)
        return fail(failure, open, "unterminated variation: '(' without ')'");
      if (t.kind == TokenKind::kError) return fail(failure, t, t.value);
      if (t.kind == TokenKind::kVariationOpen) ++depth;
      if (t.kind == TokenKind::kVariationClose) --depth;
      lexer_.take();
    }
    return true;
  }

  Lexer& lexer_;
  Token fen_token_;
  Token variant_token_;
  bool terminated_ = false;
};

bool is_line_end(char c) { return c == '\n' || c == '\r'; }

// The start of the line after the one holding `offset` (or the end of the text).
std::size_t next_line_start(std::string_view text, std::size_t offset) {
  while (offset < text.size() && !is_line_end(text[offset])) ++offset;
  if (offset < text.size() && text[offset++] == '\r' && offset < text.size() &&
      text[offset] == '\n')
    ++offset;
  return offset;
}

std::string_view trimmed_line(std::string_view text, std::size_t start) {
  std::size_t end = start;
  while (end < text.size() && !is_line_end(text[end])) ++end;
  std::string_view line = text.substr(start, end - start);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return line;
}

bool ends_with_result(std::string_view line) {
  const std::size_t space = line.find_last_of(" \t");
  return is_result(space == std::string_view::npos ? line : line.substr(space + 1));
}

}  // namespace

PgnReader::PgnReader(std::string_view text, std::string file_name)
    : text_(text), file_name_(std::move(file_name)) {
  if (text_.substr(0, kByteOrderMark.size()) == kByteOrderMark) offset_ = kByteOrderMark.size();
}

std::optional<Result<PgnGame>> PgnReader::next() {
  Lexer lexer(text_, offset_, line_);
  if (lexer.peek().kind == TokenKind::kEnd) {
    offset_ = text_.size();
    return std::nullopt;
  }
  PgnGame game;
  game.line = lexer.peek().line;
  Failure failure;
  GameParser parser(lexer);
  if (parser.parse(game, failure)) {
    offset_ = lexer.resume_offset();
    line_ = lexer.resume_line();
    // Comments after the last game are no game of their own.
    if (game.tags.empty() && game.moves.empty() && !parser.terminated()) return std::nullopt;
    return Result<PgnGame>(std::move(game));
  }
  // Resume at the next line that starts a game (see pgn.h).
  const std::size_t error_line_start = [&] {
    std::size_t s = failure.offset;
    while (s > 0 && !is_line_end(text_[s - 1])) --s;
    return s;
  }();
  bool result_ended = ends_with_result(trimmed_line(text_, error_line_start));
  bool previous_blank = false;
  std::size_t at = next_line_start(text_, failure.offset);
  int line = failure.line + 1;
  for (; at < text_.size(); at = next_line_start(text_, at), ++line) {
    const std::string_view content = trimmed_line(text_, at);
    if (content.empty()) {
      previous_blank = true;
      continue;
    }
    if (content.substr(0, 7) == "[Event " ||
        (previous_blank && (content.front() == '[' || result_ended)))
      break;
    previous_blank = false;
    result_ended = ends_with_result(content);
  }
  offset_ = at;
  line_ = line;
  return Result<PgnGame>(
      Error{file_name_ + ":" + std::to_string(failure.line) + ": " + failure.message});
}

Result<std::vector<PgnGame>> read_pgn(std::string_view text, std::string file_name) {
  PgnReader reader(text, std::move(file_name));
  std::vector<PgnGame> games;
  while (auto game = reader.next()) {
    if (!game->ok()) return Error{game->error()};
    games.push_back(std::move(*game).value());
  }
  return games;
}

}  // namespace eboard::engine
