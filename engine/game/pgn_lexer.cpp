#include "engine/game/pgn_lexer.h"

#include <cstdio>

namespace eboard::engine::pgn {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
// Continuation characters of a symbol (standard 7: "_+#=:-" and "/" of "1/2-1/2"), plus
// the annotation marks that writers glue to moves.
bool is_symbol_char(char c) {
  return is_alnum(c) || std::string_view("_+#=:-/!?").find(c) != std::string_view::npos;
}
bool is_promotion_letter(char c) {
  return std::string_view("QRBNqrbn").find(c) != std::string_view::npos;
}

std::string describe_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f) return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", byte);
  return std::string("byte ") + hex;
}

}  // namespace

Lexer::Lexer(std::string_view text, std::size_t offset, int line)
    : text_(text), pos_(offset), line_(line) {}

const Token& Lexer::peek() {
  if (!peeked_) peeked_ = scan();
  return *peeked_;
}

Token Lexer::take() {
  if (peeked_) {
    Token t = std::move(*peeked_);
    peeked_.reset();
    return t;
  }
  return scan();
}

std::size_t Lexer::resume_offset() const { return peeked_ ? peeked_->offset : pos_; }
int Lexer::resume_line() const { return peeked_ ? peeked_->line : line_; }

void Lexer::advance() {
  const char c = text_[pos_++];
  if (c == '\n' || (c == '\r' && (pos_ >= text_.size() || text_[pos_] != '\n'))) ++line_;
}

bool Lexer::at_line_start() const {
  return pos_ == 0 || text_[pos_ - 1] == '\n' || text_[pos_ - 1] == '\r';
}

void Lexer::skip_blanks_and_escapes() {
  while (pos_ < text_.size()) {
    if (is_blank(text_[pos_])) {
      advance();
    } else if (text_[pos_] == '%' && at_line_start()) {  // escape line (standard 6)
      while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') advance();
    } else {
      return;
    }
  }
}

Token Lexer::make(TokenKind kind, std::size_t start, int line) const {
  Token t;
  t.kind = kind;
  t.text = text_.substr(start, pos_ - start);
  t.line = line;
  t.offset = start;
  return t;
}

Token Lexer::error(std::size_t start, int line, std::string message) const {
  Token t = make(TokenKind::kError, start, line);
  t.value = std::move(message);
  return t;
}

Token Lexer::scan() {
  skip_blanks_and_escapes();
  const std::size_t start = pos_;
  const int line = line_;
  if (pos_ >= text_.size()) return make(TokenKind::kEnd, start, line);
  const char c = text_[pos_];
  switch (c) {
    case '"': return scan_string(start, line);
    case '{':
    case ';': return scan_comment(start, line);
    default: break;
  }
  const std::string_view singles = "[].*()";
  if (std::size_t i = singles.find(c); i != std::string_view::npos) {
    advance();
    constexpr TokenKind kKinds[] = {TokenKind::kTagOpen,       TokenKind::kTagClose,
                                    TokenKind::kPeriod,        TokenKind::kAsterisk,
                                    TokenKind::kVariationOpen, TokenKind::kVariationClose};
    return make(kKinds[i], start, line);
  }
  if (c == '$') {
    advance();
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') advance();
    if (pos_ - start == 1) return error(start, line, "bad NAG: '$' without a number");
    Token t = make(TokenKind::kNag, start, line);
    t.text.remove_prefix(1);
    return t;
  }
  if (text_.substr(pos_, 4) == "e.p.") {  // "exd6 e.p.": an annotation, not a move
    for (int i = 0; i < 4; ++i) advance();
    return make(TokenKind::kSymbol, start, line);
  }
  if (is_alnum(c) || c == '!' || c == '?') return scan_symbol(start, line);
  advance();
  return error(start, line, "unexpected " + describe_byte(c));
}

Token Lexer::scan_string(std::size_t start, int line) {
  advance();  // the opening quote
  std::string value;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '\n' || c == '\r') break;  // strings stay on one line (standard 7)
    advance();
    if (c == '"') {
      Token t = make(TokenKind::kString, start, line);
      t.value = std::move(value);
      return t;
    }
    if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\')) {
      value += text_[pos_];
      advance();
    } else {
      value += c;
    }
  }
  return error(start, line, "unterminated string (a tag value ends with '\"' on its line)");
}

Token Lexer::scan_comment(std::size_t start, int line) {
  const bool brace = text_[pos_] == '{';
  advance();
  const std::size_t body = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (brace ? c == '}' : (c == '\n' || c == '\r')) break;
    advance();
  }
  if (brace && pos_ >= text_.size()) return error(start, line, "unterminated comment '{'");
  Token t = make(TokenKind::kComment, start, line);
  t.text = text_.substr(body, pos_ - body);
  if (brace) advance();  // the closing brace
  return t;
}

Token Lexer::scan_symbol(std::size_t start, int line) {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (is_symbol_char(c)) {
      advance();
    } else if (c == '.' && text_[pos_ - 1] == 'e' && text_.substr(pos_ - 1, 4) == "e.p.") {
      advance();  // "exd6e.p.": the glued en passant mark stays with its move
      advance();
      advance();
    } else if (c == '(' && pos_ + 2 < text_.size() && is_promotion_letter(text_[pos_ + 1]) &&
               text_[pos_ + 2] == ')') {
      advance();  // "e8(Q)": the promotion in parentheses, not a variation
      advance();
      advance();
    } else {
      break;
    }
  }
  return make(TokenKind::kSymbol, start, line);
}

}  // namespace eboard::engine::pgn
