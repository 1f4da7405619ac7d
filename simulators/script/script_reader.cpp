#include "simulators/script/script_reader.h"

#include <charconv>
#include <fstream>
#include <iostream>
#include <optional>

namespace eboard::script {
namespace {

struct Tokens {
  std::vector<std::string> words;
  std::string error;
};

// Splits on blanks; a double-quoted word may hold blanks and `#`, with \" and \\ escapes.
// `#` outside quotes starts a comment.
Tokens tokenize(std::string_view text) {
  Tokens tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '"') {
      std::string word;
      ++i;
      bool closed = false;
      while (i < text.size()) {
        char d = text[i++];
        if (d == '"') {
          closed = true;
          break;
        }
        if (d == '\\' && i < text.size()) d = text[i++];
        word += d;
      }
      if (!closed) {
        tokens.error = "unterminated quoted string";
        return tokens;
      }
      tokens.words.push_back(std::move(word));
    } else {
      const std::size_t start = i;
      while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' &&
             text[i] != '#') {
        ++i;
      }
      tokens.words.emplace_back(text.substr(start, i - start));
    }
  }
  return tokens;
}

// "12", "12.5", "-3.25" (negative only when allowed) -> milliseconds, rounded half up.
std::optional<Millis> parse_seconds(std::string_view text, bool allow_negative) {
  bool negative = false;
  if (allow_negative && !text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 9) return std::nullopt;
  if (dot != std::string_view::npos && fraction.empty()) return std::nullopt;
  for (char c : whole) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  for (char c : fraction) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::int64_t ms = 0;
  std::from_chars(whole.data(), whole.data() + whole.size(), ms);
  ms *= 1000;
  std::int64_t scale = 100;
  for (std::size_t k = 0; k < fraction.size() && k < 3; ++k, scale /= 10) {
    ms += (fraction[k] - '0') * scale;
  }
  if (fraction.size() > 3 && fraction[3] >= '5') ++ms;
  return Millis(negative ? -ms : ms);
}

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  std::uint64_t value = 0;
  if (text.empty() || text.size() > 18) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<Side> parse_side(std::string_view text) {
  if (text == "white") return Side::kWhite;
  if (text == "black") return Side::kBlack;
  return std::nullopt;
}

std::optional<ClaimKind> parse_claim_kind(std::string_view text) {
  for (int k = 0; k <= static_cast<int>(ClaimKind::kClockSetting); ++k) {
    const auto kind = static_cast<ClaimKind>(k);
    if (text == claim_kind_name(kind)) return kind;
  }
  return std::nullopt;
}

bool is_uci(std::string_view text) {
  if (text.size() != 4 && text.size() != 5) return false;
  if (!parse_square(text.substr(0, 2)) || !parse_square(text.substr(2, 2))) return false;
  return text.size() == 4 || std::string_view("qrbn").find(text[4]) != std::string_view::npos;
}

using Words = std::vector<std::string>;
using BodyResult = std::variant<Body, LineError>;

LineError fail(std::string message) { return LineError{std::move(message)}; }

BodyResult need_side(const Words& w, std::size_t count, auto make) {
  if (w.size() != count) return fail("'" + w[0] + "' takes white or black");
  const auto side = parse_side(w[1]);
  if (!side) return fail("expected white or black, got '" + w[1] + "'");
  return make(*side);
}

// Names and values other than a tag's value are single plain words (no blanks, quotes,
// `#`, backslashes or control characters), so that writing them back needs no quoting.
bool plain(const std::string& word) {
  if (word.empty()) return false;
  for (char c : word) {
    if (static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '#' || c == '\\' || c == 0x7F) {
      return false;
    }
  }
  return true;
}

BodyResult parse_header(const Words& w) {
  const std::string& key = w[0];
  for (std::size_t k = 1; k < w.size(); ++k) {
    if (!plain(w[k]) && !(key == "tag" && k == 2)) return fail("bad word in '" + key + "' line");
  }
  if (key == "board" || key == "rules" || key == "clock") {
    if (w.size() != 2) return fail("'" + key + "' takes one value");
    if (key == "board") return Body{BoardId{w[1]}};
    if (key == "rules") return Body{RulesName{w[1]}};
    return Body{TimeControl{w[1]}};
  }
  if (key == "start") {
    if (w.size() == 2 && w[1] == "startpos") return Body{Start{"startpos"}};
    if (w.size() >= 4 && w.size() <= 8 && w[1] == "fen") {
      std::string fen = w[2];
      for (std::size_t k = 3; k < w.size(); ++k) fen += " " + w[k];
      return Body{Start{fen}};
    }
    return fail("expected 'start startpos' or 'start fen <FEN>'");
  }
  if (key == "tag" || key == "param") {
    if (w.size() != 3) return fail("'" + key + "' takes a name and a value");
    if (key == "tag") return Body{Tag{w[1], w[2]}};
    return Body{Param{w[1], w[2]}};
  }
  return fail("unknown statement '" + key + "'");
}

BodyResult parse_clocktime(const Words& w) {
  if (w.size() != 3 && w.size() != 5) return fail("'clocktime' takes W B [MW MB]");
  const auto white = parse_seconds(w[1], false);
  const auto black = parse_seconds(w[2], false);
  if (!white || !black) return fail("bad clock time in '" + w[1] + " " + w[2] + "'");
  ClockTime clock{*white, *black, std::nullopt, std::nullopt};
  if (w.size() == 5) {
    const auto mw = parse_unsigned(w[3]);
    const auto mb = parse_unsigned(w[4]);
    if (!mw || !mb || *mw > 100000 || *mb > 100000) return fail("bad move counters");
    clock.white_moves = static_cast<int>(*mw);
    clock.black_moves = static_cast<int>(*mb);
  }
  return Body{clock};
}

BodyResult parse_claim(const Words& w) {
  if (w.size() < 3 || w.size() > 4) return fail("'claim' takes SIDE KIND [MOVE]");
  const auto side = parse_side(w[1]);
  if (!side) return fail("expected white or black, got '" + w[1] + "'");
  const auto kind = parse_claim_kind(w[2]);
  if (!kind) return fail("unknown claim '" + w[2] + "'");
  Claim claim{*side, *kind, ""};
  if (w.size() == 4) {
    if (*kind != ClaimKind::kThreefold && *kind != ClaimKind::kFifty) {
      return fail("only threefold and fifty claims name a move");
    }
    if (!is_uci(w[3])) return fail("bad move '" + w[3] + "' (expected UCI like g1f3)");
    claim.uci = w[3];
  }
  return Body{claim};
}

BodyResult parse_arbiter(const Words& w) {
  if (w.size() < 2) return fail("'arbiter' needs an action");
  const std::string& action = w[1];
  if (action == "add-time") {
    if (w.size() != 4) return fail("'arbiter add-time' takes SIDE SECONDS");
    const auto side = parse_side(w[2]);
    const auto amount = parse_seconds(w[3], true);
    if (!side || !amount) return fail("'arbiter add-time' takes SIDE SECONDS");
    return Body{AddTime{*side, *amount}};
  }
  if (action == "two-hands" || action == "infraction") {
    const auto side = w.size() == 3 ? parse_side(w[2]) : std::nullopt;
    if (!side) return fail("'arbiter " + action + "' takes white or black");
    if (action == "two-hands") return Body{TwoHands{*side}};
    return Body{Infraction{*side}};
  }
  if (action == "ruling") {
    if (w.size() < 3 || w.size() > 4 || (w[2] != "accept" && w[2] != "reject")) {
      return fail("'arbiter ruling' takes accept|reject [SEQ]");
    }
    Ruling ruling{w[2] == "accept" ? RulingKind::kAccept : RulingKind::kReject, std::nullopt};
    if (w.size() == 4) {
      ruling.seq = parse_unsigned(w[3]);
      // Seqs are 32-bit on the wire (Ruling.seq): a larger one would wrap to another.
      if (!ruling.seq || *ruling.seq > 0xFFFFFFFFu) {
        return fail("bad sequence number '" + w[3] + "' (at most 4294967295)");
      }
    }
    return Body{ruling};
  }
  return fail("unknown arbiter action '" + action + "'");
}

// w[0] is the keyword (the time already removed).
BodyResult parse_timed(const Words& w) {
  const std::string& key = w[0];
  if (key == "placement") {
    if (w.size() != 2) return fail("'placement' takes one FEN placement field");
    const auto placement = parse_placement(w[1]);
    if (!placement) return fail("bad placement '" + w[1] + "'");
    return Body{*placement};
  }
  if (key == "lift" || key == "put") {
    if (w.size() != (key == "lift" ? 2u : 3u)) {
      return fail(key == "lift" ? "'lift' takes a square" : "'put' takes a square and a piece");
    }
    const auto square = parse_square(w[1]);
    if (!square) return fail("bad square '" + w[1] + "'");
    if (key == "lift") return Body{Lift{*square}};
    if (w[2].size() != 1 ||
        std::string_view("PNBRQKpnbrqk?123").find(w[2][0]) == std::string_view::npos) {
      return fail("bad piece '" + w[2] + "'");
    }
    return Body{Put{*square, w[2][0]}};
  }
  if (key == "lever") return need_side(w, 2, [](Side s) { return Body{Lever{s}}; });
  if (key == "resign") return need_side(w, 2, [](Side s) { return Body{Resign{s}}; });
  if (key == "clocktime") return parse_clocktime(w);
  if (key == "flag") {
    if (w.size() == 2 && w[1] == "both") return Body{Flag{FlagSide::kBoth}};
    return need_side(w, 2, [](Side s) {
      return Body{Flag{s == Side::kWhite ? FlagSide::kWhite : FlagSide::kBlack}};
    });
  }
  if (key == "claim") return parse_claim(w);
  if (key == "promote") {
    if (w.size() != 2 || w[1].size() != 1 ||
        std::string_view("qrbn").find(w[1][0]) == std::string_view::npos) {
      return fail("'promote' takes q, r, b or n");
    }
    return Body{Promote{w[1][0]}};
  }
  if (key == "arbiter") return parse_arbiter(w);
  if (key == "draw-agreed" || key == "pause" || key == "resume") {
    if (w.size() != 1) return fail("'" + key + "' takes no arguments");
    if (key == "draw-agreed") return Body{DrawAgreed{}};
    if (key == "pause") return Body{Pause{}};
    return Body{Resume{}};
  }
  return fail("unknown statement '" + key + "'");
}

}  // namespace

LineResult parse_line(std::string_view text) {
  Tokens tokens = tokenize(text);
  if (!tokens.error.empty()) return LineError{tokens.error};
  Words& w = tokens.words;
  if (w.empty()) return NoStatement{};
  Statement statement;
  const char first = w[0][0];
  if (first >= '0' && first <= '9') {
    statement.at = parse_seconds(w[0], false);
    if (!statement.at) return LineError{"bad time '" + w[0] + "'"};
    w.erase(w.begin());
    if (w.empty()) return LineError{"a time with no statement"};
    BodyResult body = parse_timed(w);
    if (auto* error = std::get_if<LineError>(&body)) {
      // A header keyword after a time is a common slip; say so.
      if (std::holds_alternative<Body>(parse_header(w))) {
        return LineError{"'" + w[0] + "' is a header line and takes no time"};
      }
      return *error;
    }
    statement.body = std::get<Body>(std::move(body));
    return statement;
  }
  BodyResult body = parse_header(w);
  if (auto* error = std::get_if<LineError>(&body)) {
    if (std::holds_alternative<Body>(parse_timed(w))) {
      return LineError{"'" + w[0] + "' needs a time first"};
    }
    return *error;
  }
  statement.body = std::get<Body>(std::move(body));
  return statement;
}

Reader::Reader(std::istream& in, std::string file_name)
    : in_(in), file_name_(std::move(file_name)) {}

bool Reader::next(Statement& out) {
  if (!error_.empty()) return false;
  std::string text;
  while (std::getline(in_, text)) {
    ++line_number_;
    LineResult result = parse_line(text);
    std::string message;
    if (auto* error = std::get_if<LineError>(&result)) {
      message = error->message;
    } else if (auto* statement = std::get_if<Statement>(&result)) {
      if (statement->at) {
        if (*statement->at < last_time_) {
          message = "time goes backwards (" + text.substr(0, text.find(' ')) + ")";
        } else {
          seen_timed_ = true;
          last_time_ = *statement->at;
        }
      } else if (seen_timed_) {
        message = "header line after timed lines";
      }
      if (message.empty()) {
        statement->line = line_number_;
        out = std::move(*statement);
        return true;
      }
    } else {
      continue;
    }
    error_ = file_name_ + ":" + std::to_string(line_number_) + ": " + message;
    return false;
  }
  return false;
}

ScriptFile read_script(std::istream& in, std::string file_name) {
  ScriptFile file;
  Reader reader(in, std::move(file_name));
  Statement statement;
  while (reader.next(statement)) file.statements.push_back(std::move(statement));
  file.error = reader.error();
  return file;
}

ScriptFile read_script_file(const std::string& path) {
  if (path == "-") return read_script(std::cin, "-");
  std::ifstream in(path);
  if (!in) {
    ScriptFile file;
    file.error = path + ": cannot open";
    return file;
  }
  return read_script(in, path);
}

Millis last_statement_time(const ScriptFile& file) {
  Millis last{0};
  for (const Statement& s : file.statements) {
    if (s.at && *s.at > last) last = *s.at;
  }
  return last;
}

}  // namespace eboard::script
