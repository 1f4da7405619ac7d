#include "daemon/programs/eboard_ctl/ctl_fill.h"

#include <algorithm>
#include <cmath>

#include "daemon/round/round_csv.h"
#include "engine/board/fen.h"
#include "engine/clock/time_control.h"
#include "engine/game/claim_kind.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"

namespace eboard::daemon::ctl {
namespace {

namespace v1 = eboard::v1;

Result<v1::Side> side_of(const std::string& text, const char* what) {
  if (text == "white") return v1::SIDE_WHITE;
  if (text == "black") return v1::SIDE_BLACK;
  return Error{std::string(what) + ": '" + text + "' is not white or black"};
}

Result<std::uint32_t> seq_of(const std::string& text) {
  const bool digits =
      !text.empty() && text.size() <= 10 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  const unsigned long long value = digits ? std::stoull(text) : 0;
  if (value == 0 || value > 0xFFFFFFFFull) {
    return Error{"SEQ: '" + text + "' is not an event seq (a number from 1)"};
  }
  return std::uint32_t(value);
}

bool tag_name_ok(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::optional<std::string> check_rules_clock(const std::string& rules, const std::string& clock) {
  if (!rules.empty()) {
    if (auto r = engine::rule_set_by_name(rules); !r) return "--rules: " + r.error();
  }
  if (!clock.empty()) {
    if (auto tc = engine::parse_time_control(clock); !tc) return "--clock: " + tc.error();
  }
  return std::nullopt;
}

const std::vector<std::string>& all(const Parsed& p, const std::string& name) {
  static const std::vector<std::string> none;
  const auto it = p.opts.find(name);
  return it == p.opts.end() ? none : it->second;
}

std::string one(const Parsed& p, const std::string& name) {
  const auto& values = all(p, name);
  return values.empty() ? std::string() : values.back();
}

bool has(const Parsed& p, const std::string& name) { return p.opts.count(name) > 0; }

}  // namespace

Result<std::int32_t> millis_of(const std::string& text, const char* what, bool negative_ok) {
  std::size_t used = 0;
  double seconds = 0;
  const bool plain = !text.empty() && text.find_first_not_of("+-.0123456789") == std::string::npos;
  try {
    if (plain) seconds = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (!plain || used != text.size() || !std::isfinite(seconds) || std::fabs(seconds) > 360000 ||
      (!negative_ok && seconds < 0)) {
    return Error{std::string(what) + ": '" + text + "' is not a number of seconds" +
                 (negative_ok ? "" : " from 0") + " (at most 100 hours)"};
  }
  return std::int32_t(std::lround(seconds * 1000));
}

std::optional<std::string> board_of(const std::string& text, v1::Command& c) {
  if (auto bad = round::check_board_name(text)) return "BOARD: " + *bad;
  c.set_board_id(text);
  return std::nullopt;
}

std::optional<std::string> build_status(const Parsed& p, CtlRequest& request, Action action) {
  request.action = action;
  if (!p.args.empty()) {
    if (auto bad = round::check_board_name(p.args[0])) return "BOARD: " + *bad;
    request.boards.push_back(p.args[0]);
  }
  return std::nullopt;
}

std::optional<std::string> fill_ruling(const Parsed& p, v1::Command& c, v1::RulingDecision d) {
  auto seq = seq_of(p.args[1]);
  if (!seq) return seq.error();
  c.mutable_ruling()->set_decision(d);
  c.mutable_ruling()->set_seq(seq.value());
  return std::nullopt;
}

std::optional<std::string> fill_new_game(const Parsed& p, v1::Command& c) {
  v1::NewGame* g = c.mutable_new_game();
  g->set_rules(one(p, "rules"));
  g->set_time_control(one(p, "clock"));
  if (auto bad = check_rules_clock(g->rules(), g->time_control())) return bad;
  engine::RuleSet rules =
      engine::rule_set_by_name(g->rules().empty() ? engine::kDefaultRuleSetName : g->rules())
          .value();
  for (const std::string& text : all(p, "param")) {
    auto assignment = engine::parse_param_assignment(text);
    if (!assignment) return "--param '" + text + "': " + assignment.error();
    if (auto error = engine::apply_param(rules, assignment->name, assignment->value)) {
      return "--param '" + text + "': " + error->message;
    }
    v1::Param* param = g->add_params();
    param->set_name(assignment->name);
    param->set_value(assignment->value);
  }
  for (const char* player : {"white", "black"}) {
    if (!has(p, player)) continue;
    v1::Tag* tag = g->add_tags();
    tag->set_name(player == std::string("white") ? "White" : "Black");
    tag->set_value(one(p, player));
  }
  for (const std::string& text : all(p, "tag")) {
    const auto equals = text.find('=');
    const std::string name = text.substr(0, equals);
    if (equals == std::string::npos || !tag_name_ok(name)) {
      return "--tag '" + text + "': expected NAME=VALUE, NAME of letters, digits and '_'";
    }
    for (const auto& t : g->tags()) {
      if (t.name() == name) return "--tag '" + text + "': tag " + name + " given twice";
    }
    v1::Tag* tag = g->add_tags();
    tag->set_name(name);
    tag->set_value(text.substr(equals + 1));
  }
  if (has(p, "fen")) {
    if (auto pos = engine::parse_fen(one(p, "fen")); !pos) return "--fen: " + pos.error();
    g->set_start_fen(one(p, "fen"));
  }
  if (has(p, "white-side")) {
    const std::string side = one(p, "white-side");
    if (side == "left")
      g->set_white_side(v1::CLOCK_SIDE_LEFT);
    else if (side == "right")
      g->set_white_side(v1::CLOCK_SIDE_RIGHT);
    else if (side == "auto")
      g->set_white_side(v1::CLOCK_SIDE_AUTO);
    else
      return "--white-side: '" + side + "' is not left, right or auto";
  }
  return std::nullopt;
}

// Forfeits (docs/interfaces.md §6.1) have no PGN result: they are sent as the score they
// give, the forfeit named in the description.
std::optional<std::string> fill_result(const Parsed& p, v1::Command& c) {
  static const std::map<std::string, std::pair<std::string, std::string>> kResults = {
      {"1-0", {"1-0", ""}},
      {"0-1", {"0-1", ""}},
      {"1/2-1/2", {"1/2-1/2", ""}},
      {"*", {"*", ""}},
      {"+/-", {"1-0", "forfeit +/-: Black did not play"}},
      {"-/+", {"0-1", "forfeit -/+: White did not play"}},
      {"=/=", {"*", "double forfeit =/=: neither player played"}}};
  const auto found = kResults.find(p.args[1]);
  if (found == kResults.end()) {
    return "RESULT: '" + p.args[1] + "' is not 1-0, 0-1, 1/2-1/2, *, +/-, -/+ or =/=";
  }
  v1::SetResult* r = c.mutable_set_result();
  r->set_result(found->second.first);
  std::string description = found->second.second;
  const std::string reason = one(p, "reason");
  if (!reason.empty()) description += (description.empty() ? "" : "; ") + reason;
  r->set_description(description);
  return std::nullopt;
}

std::optional<std::string> fill_claim(const Parsed& p, v1::Command& c) {
  auto side = side_of(p.args[1], "SIDE");
  if (!side) return side.error();
  const std::optional<engine::ClaimKind> word = engine::player_claim_of(p.args[2]);
  if (!word) {
    return "KIND: '" + p.args[2] +
           "' is not illegal-move, threefold, fifty, flag, qpf, setup, orientation or "
           "clock-setting";
  }
  v1::Claim* claim = c.mutable_claim();
  claim->set_side(side.value());
  // The wire lists the engine's kinds in the engine's order, from 1 (claim_kind.h).
  const auto kind = v1::ClaimKind(int(*word) + 1);
  claim->set_kind(kind);
  if (p.args.size() > 3) {
    const std::string& move = p.args[3];
    const auto square = [&](std::size_t at) {
      return move[at] >= 'a' && move[at] <= 'h' && move[at + 1] >= '1' && move[at + 1] <= '8';
    };
    const bool uci = (move.size() == 4 || (move.size() == 5 && std::string("qrbn").find(move[4]) !=
                                                                   std::string::npos)) &&
                     square(0) && square(2);
    if (!uci) return "MOVE: '" + move + "' is not a move in UCI form (e2e4, e7e8q)";
    if (kind != v1::CLAIM_KIND_THREEFOLD && kind != v1::CLAIM_KIND_FIFTY) {
      return "MOVE: only a threefold or fifty claim names the intended move";
    }
    claim->set_intended_uci(move);
  }
  return std::nullopt;
}

std::optional<std::string> fill_side(const Parsed& p, const std::function<void(v1::Side)>& set) {
  auto side = side_of(p.args[1], "SIDE");
  if (!side) return side.error();
  set(side.value());
  return std::nullopt;
}

std::optional<std::string> build_set_clock(const Parsed& p, CtlRequest& request) {
  v1::Command c;
  if (auto bad = board_of(p.args[0], c)) return bad;
  auto white = millis_of(p.args[1], "WHITE_SECONDS", false);
  if (!white) return white.error();
  auto black = millis_of(p.args[2], "BLACK_SECONDS", false);
  if (!black) return black.error();
  c.mutable_set_clock()->set_white_ms(white.value());
  c.mutable_set_clock()->set_black_ms(black.value());
  request.action = Action::kCommands;
  request.commands.push_back(c);
  if (!has(p, "running")) return std::nullopt;
  const std::string running = one(p, "running");
  v1::Command then;
  then.set_board_id(c.board_id());
  if (running == "none") {
    then.mutable_pause();
  } else {
    auto side = side_of(running, "--running");
    if (!side) return "--running: '" + running + "' is not white, black or none";
    request.running = side.value();
    then.mutable_resume();
  }
  request.commands.push_back(then);
  return std::nullopt;
}

std::optional<std::string> build_round(const Parsed& p, CtlRequest& request) {
  RoundRequest& r = request.round;
  r.file = p.args[0];
  if (has(p, "round")) {
    const std::string n = one(p, "round");
    const bool digits = !n.empty() && n.size() <= 3 && std::all_of(n.begin(), n.end(), [](char ch) {
      return ch >= '0' && ch <= '9';
    });
    if (!digits || std::stoi(n) == 0)
      return "--round: '" + n + "' is not a round number from 1 to 999";
    r.options.round = std::stoi(n);
  }
  if (has(p, "event")) r.options.event = one(p, "event");
  if (has(p, "site")) r.options.site = one(p, "site");
  if (has(p, "date")) {
    if (auto bad = round::check_pgn_date(one(p, "date"))) return "--date: " + *bad;
    r.options.date = one(p, "date");
  }
  r.options.board_map = one(p, "board-map");
  r.rules = one(p, "rules");
  r.clock = one(p, "clock");
  if (auto bad = check_rules_clock(r.rules, r.clock)) return bad;
  r.force = has(p, "force");
  request.action = Action::kRound;
  return std::nullopt;
}

std::optional<std::string> fill_add_time(const Parsed& p, v1::Command& c) {
  auto side = side_of(p.args[1], "SIDE");
  if (!side) return side.error();
  auto ms = millis_of(p.args[2], "SECONDS", true);
  if (!ms) return ms.error();
  c.mutable_add_time()->set_side(side.value());
  c.mutable_add_time()->set_delta_ms(ms.value());
  return std::nullopt;
}

std::optional<std::string> fill_infraction(const Parsed& p, v1::Command& c) {
  std::string text;
  for (std::size_t i = 2; i < p.args.size(); ++i) text += (i > 2 ? " " : "") + p.args[i];
  c.mutable_infraction()->set_description(text);
  return fill_side(p, [&c](v1::Side s) { c.mutable_infraction()->set_side(s); });
}

std::optional<std::string> fill_promote(const Parsed& p, v1::Command& c) {
  static const std::map<std::string, v1::PromotionPiece> kPieces = {
      {"q", v1::PROMOTION_PIECE_QUEEN},
      {"r", v1::PROMOTION_PIECE_ROOK},
      {"b", v1::PROMOTION_PIECE_BISHOP},
      {"n", v1::PROMOTION_PIECE_KNIGHT}};
  const auto piece = kPieces.find(p.args[1]);
  if (piece == kPieces.end()) return "PIECE: '" + p.args[1] + "' is not q, r, b or n";
  c.mutable_promotion_choice()->set_piece(piece->second);
  return std::nullopt;
}

std::optional<std::string> fill_restore(const Parsed& p, v1::Command& c) {
  std::string fen;
  for (std::size_t i = 1; i < p.args.size(); ++i) fen += (i > 1 ? " " : "") + p.args[i];
  if (auto pos = engine::parse_fen(fen); !pos) return "FEN: " + pos.error();
  c.mutable_restore_position()->set_fen(fen);
  return std::nullopt;
}

}  // namespace eboard::daemon::ctl
