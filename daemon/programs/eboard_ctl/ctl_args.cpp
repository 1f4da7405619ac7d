#include "daemon/programs/eboard_ctl/ctl_args.h"

#include <functional>
#include <map>

#include "daemon/programs/eboard_ctl/ctl_fill.h"
#include "daemon/round/round_csv.h"
#include "eboard/version.h"

namespace eboard::daemon::ctl {
namespace {

namespace v1 = eboard::v1;

using Builder = std::function<std::optional<std::string>(const Parsed&, CtlRequest&)>;

struct Subcommand {
  std::string usage;  // "add-time BOARD SIDE SECONDS"
  std::string help;   // what it does, then its options
  std::size_t min_args = 0;
  std::size_t max_args = 0;             // SIZE_MAX: the rest
  std::map<std::string, bool> options;  // name -> takes a value
  Builder build;
};

// A command for BOARD (the first argument), filled by `fill`.
Builder on_board(std::function<std::optional<std::string>(const Parsed&, v1::Command&)> fill) {
  return [fill](const Parsed& p, CtlRequest& request) -> std::optional<std::string> {
    v1::Command c;
    if (auto bad = board_of(p.args[0], c)) return bad;
    if (auto bad = fill(p, c)) return bad;
    request.action = Action::kCommands;
    request.commands.push_back(c);
    return std::nullopt;
  };
}

const std::map<std::string, Subcommand>& subcommands() {
  using K = v1::RulingDecision;
  static const std::map<std::string, Subcommand> table = {
      {"status",
       {"status [BOARD]",
        "Every board (or one): device state, players, move number, clocks and the running\n"
        "side, result, open proposals.",
        0,
        1,
        {},
        [](const Parsed& p, CtlRequest& r) { return build_status(p, r, Action::kStatus); }}},
      {"proposals",
       {"proposals [BOARD]",
        "The open proposals, one a line: BOARD SEQ KIND SIDE DESCRIPTION (KIND result,\n"
        "penalty or claim). Rule on one with accept or reject BOARD SEQ.",
        0,
        1,
        {},
        [](const Parsed& p, CtlRequest& r) { return build_status(p, r, Action::kProposals); }}},
      {"accept",
       {"accept BOARD SEQ",
        "The arbiter accepts the proposal or claim SEQ (see proposals).",
        2,
        2,
        {},
        on_board([](const Parsed& p, v1::Command& c) {
          return fill_ruling(p, c, K::RULING_DECISION_ACCEPT);
        })}},
      {"reject",
       {"reject BOARD SEQ",
        "The arbiter rejects the proposal or claim SEQ (see proposals).",
        2,
        2,
        {},
        on_board([](const Parsed& p, v1::Command& c) {
          return fill_ruling(p, c, K::RULING_DECISION_REJECT);
        })}},
      {"new-game",
       {"new-game BOARD [--white NAME] [--black NAME] [--tag NAME=VALUE]... [--rules R]\n"
        "         [--clock TC] [--param NAME=VALUE]... [--fen FEN] [--white-side left|right|auto]",
        "A new game on the board (a game in progress is replaced: set its result first).\n"
        "With --white, --black or --tag the game's PGN tags are these; without, the board's\n"
        "configured ones. --rules, --clock, --param default to the board's configuration;\n"
        "--fen starts from a position; --white-side says on which side of the clock White sits.",
        1,
        1,
        {{"white", true},
         {"black", true},
         {"tag", true},
         {"rules", true},
         {"clock", true},
         {"param", true},
         {"fen", true},
         {"white-side", true}},
        on_board(fill_new_game)}},
      {"round",
       {"round FILE [--round N] [--event NAME] [--site NAME] [--date YYYY.MM.DD]\n"
        "      [--board-map FILE] [--rules R] [--clock TC] [--force]",
        "A whole round: a new game on each board FILE names, with the players and the tags\n"
        "Event, Site, Date, Round (R.B), Board, White, Black, titles, ratings, FIDE ids and\n"
        "teams. FILE is a round CSV (board,white,black,... with --round N) or a FIDE TRF16\n"
        "file with --round N (the pairings of round N; boards numbered as the Swiss rules\n"
        "order a pairing list). Round board B is played on the B-th board of the daemon, or\n"
        "on the CSV's eboard, or as --board-map FILE (a CSV board,eboard) says. The whole\n"
        "file is checked first: a mistake is a file:line error and nothing is sent. A board\n"
        "whose game has moves and no result is not replaced unless --force.",
        1,
        1,
        {{"round", true},
         {"event", true},
         {"site", true},
         {"date", true},
         {"board-map", true},
         {"rules", true},
         {"clock", true},
         {"force", false}},
        build_round}},
      {"result",
       {"result BOARD RESULT [--reason TEXT]",
        "Sets the result: 1-0, 0-1, 1/2-1/2, * (annulled), or a forfeit: +/- and -/+ are\n"
        "sent as 1-0 and 0-1, =/= as *, each with the forfeit in the description.",
        2,
        2,
        {{"reason", true}},
        on_board(fill_result)}},
      {"add-time",
       {"add-time BOARD SIDE SECONDS",
        "Adds time to SIDE's clock (negative: takes time off).",
        3,
        3,
        {},
        on_board(fill_add_time)}},
      {"pause",
       {"pause BOARD",
        "The arbiter stops the clock (6.11).",
        1,
        1,
        {},
        on_board([](const Parsed&, v1::Command& c) -> std::optional<std::string> {
          c.mutable_pause();
          return std::nullopt;
        })}},
      {"resume",
       {"resume BOARD",
        "The arbiter starts the clock again.",
        1,
        1,
        {},
        on_board([](const Parsed&, v1::Command& c) -> std::optional<std::string> {
          c.mutable_resume();
          return std::nullopt;
        })}},
      {"set-clock",
       {"set-clock BOARD WHITE_SECONDS BLACK_SECONDS [--running white|black|none]",
        "Sets both clocks. --running none stops the clock afterwards; white or black starts\n"
        "it again, which must be the side to move (its clock is the one that runs, 6.6).",
        3,
        3,
        {{"running", true}},
        build_set_clock}},
      {"claim",
       {"claim BOARD SIDE KIND [MOVE]",
        "A player's claim: KIND illegal-move, threefold, fifty, flag, qpf, setup,\n"
        "orientation or clock-setting; MOVE (UCI, e.g. g1f3) the move a threefold or fifty\n"
        "claim announces.",
        3,
        4,
        {},
        on_board(fill_claim)}},
      {"resign",
       {"resign BOARD SIDE",
        "SIDE resigns.",
        2,
        2,
        {},
        on_board([](const Parsed& p, v1::Command& c) {
          return fill_side(p, [&c](v1::Side s) { c.mutable_resign()->set_side(s); });
        })}},
      {"draw",
       {"draw BOARD",
        "The players agreed a draw.",
        1,
        1,
        {},
        on_board([](const Parsed&, v1::Command& c) -> std::optional<std::string> {
          c.mutable_draw_agreed();
          return std::nullopt;
        })}},
      {"two-hands",
       {"two-hands BOARD SIDE",
        "The arbiter saw SIDE make a move with two hands (7.5.4).",
        2,
        2,
        {},
        on_board([](const Parsed& p, v1::Command& c) {
          return fill_side(p, [&c](v1::Side s) { c.mutable_two_hands()->set_side(s); });
        })}},
      {"infraction",
       {"infraction BOARD SIDE [DESCRIPTION...]",
        "A breach by SIDE outside Article 7 (12.9; the rule set's infraction ladder).",
        2,
        SIZE_MAX,
        {},
        on_board(fill_infraction)}},
      {"promote",
       {"promote BOARD q|r|b|n",
        "The piece a pawn becomes on a board that senses occupancy only.",
        2,
        2,
        {},
        on_board(fill_promote)}},
      {"restore",
       {"restore BOARD FEN",
        "The arbiter sets the position back to FEN (7.4, 7.5.1).",
        2,
        SIZE_MAX,
        {},
        on_board(fill_restore)}},
      {"recalibrate",
       {"recalibrate BOARD",
        "The board learns its pieces again from the next start position set up on it (a\n"
        "Certabo board's RFID tags); refused on a board that needs no calibration.",
        1,
        1,
        {},
        on_board([](const Parsed&, v1::Command& c) -> std::optional<std::string> {
          c.mutable_recalibrate();
          return std::nullopt;
        })}},
  };
  return table;
}

std::string subcommand_help(const std::string& name, const Subcommand& s) {
  (void)name;
  return "usage: eboard-ctl [GLOBAL OPTIONS] " + s.usage + "\n" + s.help + "\n";
}

// The subcommand's own arguments; "--" ends the options (a name starting with "--").
Result<Parsed> parse_subcommand(const Subcommand& s, const std::string& name,
                                const std::vector<std::string>& args, std::size_t at, bool& help) {
  Parsed parsed;
  bool options_done = false;
  for (; at < args.size(); ++at) {
    const std::string& a = args[at];
    if (!options_done && (a == "-h" || a == "--help")) {
      help = true;
      return parsed;
    }
    if (!options_done && a == "--") {
      options_done = true;
      continue;
    }
    if (options_done || !a.starts_with("--")) {
      parsed.args.push_back(a);
      continue;
    }
    const auto equals = a.find('=');
    const std::string option =
        a.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const auto spec = s.options.find(option);
    if (spec == s.options.end()) return Error{name + ": unknown option --" + option};
    if (!spec->second) {
      if (equals != std::string::npos) return Error{name + ": --" + option + " takes no value"};
      parsed.opts[option].emplace_back();
      continue;
    }
    if (equals != std::string::npos) {
      parsed.opts[option].push_back(a.substr(equals + 1));
    } else if (at + 1 < args.size()) {
      parsed.opts[option].push_back(args[++at]);
    } else {
      return Error{name + ": --" + option + " needs a value"};
    }
  }
  if (parsed.args.size() < s.min_args || parsed.args.size() > s.max_args) {
    return Error{name + ": expected " + s.usage.substr(0, s.usage.find('\n')) + " (eboard-ctl " +
                 name + " --help)"};
  }
  return parsed;
}

// The global options before the subcommand; returns the index of the subcommand.
Result<std::size_t> parse_global(const std::vector<std::string>& args, GlobalOptions& g,
                                 bool& help) {
  std::size_t at = 0;
  for (; at < args.size() && args[at].starts_with("-"); ++at) {
    const std::string& a = args[at];
    if (a == "-h" || a == "--help") {
      help = true;
      return at;
    }
    if (a == "--version") {
      g.version = true;
      return at;
    }
    const auto equals = a.find('=');
    const std::string option = a.substr(0, equals);
    std::string value;
    if (equals != std::string::npos) {
      value = a.substr(equals + 1);
    } else if (at + 1 < args.size()) {
      value = args[++at];
    } else {
      return Error{option + " needs a value"};
    }
    if (option == "--connect") {
      g.connect = value;
    } else if (option == "--token-file") {
      g.token_file = value;
    } else if (option == "--ca") {
      g.ca = value;
    } else if (option == "--format") {
      if (value != "text" && value != "json")
        return Error{"--format: '" + value + "' is not text or json"};
      g.format = value == "json" ? Format::kJson : Format::kText;
    } else if (option == "--timeout") {
      auto ms = millis_of(value, "--timeout", false);
      if (!ms || ms.value() <= 0)
        return Error{"--timeout: '" + value + "' is not a positive number of seconds"};
      g.timeout = std::chrono::milliseconds(ms.value());
    } else {
      return Error{"unknown option " + option + " (eboard-ctl --help)"};
    }
  }
  return at;
}

}  // namespace

std::string general_help() {
  std::string out =
      "usage: eboard-ctl [--connect unix:PATH|tcp:HOST:PORT|tls:HOST:PORT] [--token-file FILE]\n"
      "                  [--ca FILE] [--format text|json] [--timeout SECONDS] SUBCOMMAND [ARGS]\n"
      "       eboard-ctl --help | --version\n"
      "Sends one operator's or arbiter's command to a running eboardd and prints its answer\n"
      "(docs/interfaces.md §6.1). BOARD is a board name of the daemon, SIDE white or black.\n\n"
      "  --connect     the daemon's socket; default unix:/run/eboardd/events.sock. Control\n"
      "                needs the Unix socket's permissions, or over tcp: and tls: the token\n"
      "  --token-file  file holding the daemon's control token (its --control-token-file)\n"
      "  --ca          for tls:: the CA certificate the daemon's certificate is checked\n"
      "                against, with the host name; default the system's CAs\n"
      "  --format      text (default) or json: the ack, and for status and proposals the\n"
      "                data, as JSON lines (the Protobuf JSON mapping)\n"
      "  --timeout     seconds to wait for the connection and for each answer; default 10\n\n"
      "Subcommands (eboard-ctl SUBCOMMAND --help for each):\n";
  for (const auto& [name, s] : subcommands()) {
    std::string usage = s.usage;
    std::size_t line = 0;
    while ((line = usage.find('\n', line)) != std::string::npos) usage.replace(line++, 1, "\n  ");
    out += "  " + usage + "\n";
  }
  out +=
      "\nExit status: 0 the daemon acknowledged, 1 it refused (its message on stderr), 2 bad\n"
      "arguments or a bad FILE (file:line: message), 3 the daemon cannot be reached.\n";
  return out;
}

Result<CtlRequest> parse_ctl_args(const std::vector<std::string>& args) {
  CtlRequest request;
  bool help = false;
  auto at = parse_global(args, request.global, help);
  if (!at) return Error{at.error()};
  if (help) {
    request.help = general_help();
    return request;
  }
  if (request.global.version) {
    request.help = std::string("eboard-ctl ") + kVersion + "\n";
    return request;
  }
  if (at.value() >= args.size()) return Error{"no subcommand (eboard-ctl --help)"};
  request.subcommand = args[at.value()];
  const auto found = subcommands().find(request.subcommand);
  if (found == subcommands().end()) {
    return Error{"unknown subcommand '" + request.subcommand + "' (eboard-ctl --help)"};
  }
  auto parsed = parse_subcommand(found->second, found->first, args, at.value() + 1, help);
  if (!parsed) return Error{parsed.error()};
  if (help) {
    request.help = subcommand_help(found->first, found->second);
    return request;
  }
  if (auto bad = found->second.build(parsed.value(), request)) {
    return Error{request.subcommand + ": " + *bad};
  }
  return request;
}

}  // namespace eboard::daemon::ctl
