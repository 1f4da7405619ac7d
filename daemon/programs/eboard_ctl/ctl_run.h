// Runs a parsed eboard-ctl request against the daemon and returns the exit status of
// docs/interfaces.md §6.1: 0 acknowledged, 1 refused (the daemon's message on stderr), 2 bad
// arguments or a bad file, 3 the daemon cannot be reached.
#pragma once

#include <ostream>

#include "daemon/programs/eboard_ctl/ctl_args.h"
#include "daemon/programs/eboard_ctl/ctl_connection.h"

namespace eboard::daemon::ctl {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;
inline constexpr int kExitBadArguments = 2;
inline constexpr int kExitUnreachable = 3;

int run_ctl(const CtlRequest& request, std::ostream& out, std::ostream& err);

// Shared by the subcommands: one request and its answer on an open connection.
class Session {
 public:
  Session(Connection& connection, std::string token) : c_(connection), token_(std::move(token)) {}
  // The boards' status (all when `boards` is empty); the error is the refusal or why the
  // daemon could not answer (`unreachable` then says which).
  Result<eboard::v1::StatusReply> status(const std::vector<std::string>& boards, bool& unreachable);
  Result<eboard::v1::Ack> command(eboard::v1::Command command);
  Connection& connection() { return c_; }

 private:
  Connection& c_;
  std::string token_;
  std::uint32_t next_id_ = 1;
};

// eboard-ctl round (ctl_round.cpp): `sheet` is the round file, read and checked.
int run_round(const CtlRequest& request, const round::RoundSheet& sheet, Session& session,
              std::ostream& out, std::ostream& err);

}  // namespace eboard::daemon::ctl
