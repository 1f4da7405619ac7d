// The PGN tokenizer (PGN standard section 7), used by the reader only.
//
// It knows tokens, not games: "[", "]", strings (with \" and \\ unescaped), symbols
// (moves, move numbers, results, tag names), ".", "*", NAGs, comments, "(" and ")".
// Symbols also take the "!"/"?" marks glued to a move and the "(Q)" of "e8(Q)", so a
// move arrives as one token. Lines are counted for error messages; "\n", "\r\n" and a
// lone "\r" each end a line. A "%" in the first column makes the line an escape line,
// which is skipped. Bad input (an unterminated string or comment, a stray byte) becomes
// a kError token whose `value` says what is wrong; the lexer never reads past the text.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace eboard::engine::pgn {

enum class TokenKind {
  kEnd,
  kError,
  kTagOpen,
  kTagClose,
  kString,
  kSymbol,
  kPeriod,
  kAsterisk,
  kNag,
  kComment,
  kVariationOpen,
  kVariationClose,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;   // the token's characters (a comment's body without its marks)
  std::string value;       // a string's unescaped value, or an error's message
  int line = 0;            // 1-based line where the token starts
  std::size_t offset = 0;  // where the token starts in the text
};

class Lexer {
 public:
  // Starts at `offset`, which is on line `line`.
  Lexer(std::string_view text, std::size_t offset, int line);

  const Token& peek();
  Token take();
  // Where the next untaken token begins (or the end): the place to continue reading.
  std::size_t resume_offset() const;
  int resume_line() const;

 private:
  Token scan();
  void advance();  // one character, counting lines
  void skip_blanks_and_escapes();
  bool at_line_start() const;
  Token make(TokenKind kind, std::size_t start, int line) const;
  Token error(std::size_t start, int line, std::string message) const;
  Token scan_string(std::size_t start, int line);
  Token scan_comment(std::size_t start, int line);
  Token scan_symbol(std::size_t start, int line);

  std::string_view text_;
  std::size_t pos_;
  int line_;
  std::optional<Token> peeked_;
};

}  // namespace eboard::engine::pgn
