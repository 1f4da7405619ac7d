// eboard-ctl's command line (docs/interfaces.md §6.1): global options, then a subcommand and
// its arguments, turned into what is sent to the daemon - Commands, a StatusRequest, a
// round - before any connection is made. Every argument is checked here (sides, numbers,
// results, rule sets, time controls, FENs, moves, round files), so a bad argument exits 2
// and nothing reaches the daemon.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/round/round_sheet.h"
#include "eboard/v1/command.pb.h"
#include "util/result.h"

namespace eboard::daemon::ctl {

enum class Format : std::uint8_t { kText, kJson };

struct GlobalOptions {
  std::string connect = "unix:/run/eboardd/events.sock";
  std::string token_file;  // --token-file: the control token for tcp: and tls:
  std::string ca;          // --ca: the CA certificate that signed a tls: daemon's
  Format format = Format::kText;
  std::chrono::milliseconds timeout{10000};  // --timeout: connecting and each answer
  bool version = false;                      // --version: print it and exit
};

enum class Action : std::uint8_t {
  kHelp,       // print `help` (the usage, or --version's line) and exit 0
  kStatus,     // a StatusRequest, printed as boards
  kProposals,  // a StatusRequest, printed as open proposals
  kCommands,   // `commands`, one after the other
  kRound,      // read the round file, put it on the daemon's boards
};

struct RoundRequest {
  std::string file;
  round::RoundOptions options;
  std::string rules;   // --rules R for every game of the round; "" = the boards' own
  std::string clock;   // --clock TC
  bool force = false;  // --force: replace games in progress
};

struct CtlRequest {
  GlobalOptions global;
  std::string subcommand;
  Action action = Action::kHelp;
  std::string help;                           // kHelp
  std::vector<std::string> boards;            // kStatus, kProposals: "" = every board
  std::vector<eboard::v1::Command> commands;  // kCommands
  // set-clock --running white|black: the clock runs again only for the side to move,
  // which is checked against the board's position before anything is sent.
  std::optional<eboard::v1::Side> running;
  RoundRequest round;
};

// `args` without the program name. The error is one line without "eboard-ctl: ".
Result<CtlRequest> parse_ctl_args(const std::vector<std::string>& args);

// The usage of every subcommand, one a line (eboard-ctl --help).
std::string general_help();

}  // namespace eboard::daemon::ctl
