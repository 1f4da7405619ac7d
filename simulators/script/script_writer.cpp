#include "simulators/script/script_writer.h"

#include <cstdio>
#include <initializer_list>
#include <string_view>

namespace eboard::script {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;  // clang 14 has no aggregate deduction

// Words that the reader would split or take as a comment go in quotes.
std::string quote_if_needed(const std::string& text) {
  if (!text.empty() && text.find_first_of(" \t\r\"#\\") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* flag_side_name(FlagSide side) {
  switch (side) {
    case FlagSide::kWhite: return "white";
    case FlagSide::kBlack: return "black";
    case FlagSide::kBoth: return "both";
  }
  return "?";
}

// Appending only: GCC 12 warns falsely (-Wrestrict) on `"literal" + std::string`.
std::string join(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts) {
    if (part.empty()) continue;
    if (!out.empty()) out += ' ';
    out += part;
  }
  return out;
}

std::string format_body(const Body& body) {
  return std::visit(
      Overloaded{
          [](const BoardId& b) {
            return join({"board", b.id});
          },
          [](const RulesName& r) {
            return join({"rules", r.name});
          },
          [](const TimeControl& t) {
            return join({"clock", t.text});
          },
          [](const Start& s) {
            return s.fen == "startpos" ? join({"start startpos"}) : join({"start fen", s.fen});
          },
          [](const Tag& t) {
            return join({"tag", t.name, quote_if_needed(t.value)});
          },
          [](const Param& p) {
            return join({"param", p.name, p.value});
          },
          [](const Placement& p) {
            return join({"placement", placement_field(p)});
          },
          [](const Lift& l) {
            return join({"lift", square_name(l.square)});
          },
          [](const Put& p) {
            return join({"put", square_name(p.square), std::string_view(&p.piece, 1)});
          },
          [](const Lever& l) {
            return join({"lever", side_name(l.side)});
          },
          [](const ClockTime& c) {
            const bool moves = c.white_moves && c.black_moves;
            return join({"clocktime", format_seconds(c.white), format_seconds(c.black),
                         moves ? std::to_string(*c.white_moves) : "",
                         moves ? std::to_string(*c.black_moves) : ""});
          },
          [](const Flag& f) {
            return join({"flag", flag_side_name(f.side)});
          },
          [](const Claim& c) {
            return join({"claim", side_name(c.side), claim_kind_name(c.kind), c.uci});
          },
          [](const Resign& r) {
            return join({"resign", side_name(r.side)});
          },
          [](const DrawAgreed&) { return join({"draw-agreed"}); },
          [](const Pause&) { return join({"pause"}); },
          [](const Resume&) { return join({"resume"}); },
          [](const AddTime& a) {
            const bool negative = a.amount.count() < 0;
            std::string amount = negative ? "-" : "";
            amount += format_seconds(negative ? -a.amount : a.amount);
            return join({"arbiter add-time", side_name(a.side), amount});
          },
          [](const TwoHands& t) {
            return join({"arbiter two-hands", side_name(t.side)});
          },
          [](const Ruling& r) {
            return join({"arbiter ruling", r.kind == RulingKind::kAccept ? "accept" : "reject",
                         r.seq ? std::to_string(*r.seq) : ""});
          },
          [](const Infraction& i) {
            return join({"arbiter infraction", side_name(i.side)});
          },
          [](const Promote& p) {
            return join({"promote", std::string_view(&p.piece, 1)});
          },
      },
      body);
}

}  // namespace

std::string format_seconds(Millis time) {
  const long long ms = time.count();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld.%03lld", ms / 1000, ms % 1000);
  std::string text = buffer;
  while (text.back() == '0' && text[text.size() - 2] != '.') text.pop_back();
  return text;
}

std::string format_statement(const Statement& statement) {
  if (!statement.at) return format_body(statement.body);
  const long long ms = statement.at->count();
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%lld.%03lld", ms / 1000, ms % 1000);
  return join({buffer, format_body(statement.body)});
}

void write_statement(std::ostream& out, const Statement& statement) {
  out << format_statement(statement) << '\n';
}

}  // namespace eboard::script
