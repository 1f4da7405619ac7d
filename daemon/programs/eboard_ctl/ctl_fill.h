// eboard-ctl: one subcommand's arguments, already split into positionals and options
// (ctl_args.cpp), checked and turned into the Commands, status request or round it asks
// for. Each function returns the error (without the subcommand's name) or nothing.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/programs/eboard_ctl/ctl_args.h"
#include "eboard/v1/command.pb.h"

namespace eboard::daemon::ctl {

struct Parsed {
  std::vector<std::string> args;                         // positionals
  std::map<std::string, std::vector<std::string>> opts;  // --name VALUE (a flag: "")
};

// BOARD, checked, into the command.
std::optional<std::string> board_of(const std::string& text, eboard::v1::Command& c);
// "60", "-30", "1.5" seconds as milliseconds (at most 100 hours either way).
Result<std::int32_t> millis_of(const std::string& text, const char* what, bool negative_ok);

std::optional<std::string> build_status(const Parsed& p, CtlRequest& request, Action action);
std::optional<std::string> build_set_clock(const Parsed& p, CtlRequest& request);
std::optional<std::string> build_round(const Parsed& p, CtlRequest& request);

std::optional<std::string> fill_ruling(const Parsed& p, eboard::v1::Command& c,
                                       eboard::v1::RulingDecision decision);
std::optional<std::string> fill_new_game(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_result(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_claim(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_add_time(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_infraction(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_promote(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_restore(const Parsed& p, eboard::v1::Command& c);
std::optional<std::string> fill_side(const Parsed& p,
                                     const std::function<void(eboard::v1::Side)>& set);

}  // namespace eboard::daemon::ctl
