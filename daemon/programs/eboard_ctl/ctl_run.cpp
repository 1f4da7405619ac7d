#include "daemon/programs/eboard_ctl/ctl_run.h"

#include <fstream>
#include <sstream>

#include "daemon/programs/eboard_ctl/ctl_print.h"

namespace eboard::daemon::ctl {
namespace {

namespace v1 = eboard::v1;

Result<std::string> read_token(const std::string& path) {
  if (path.empty()) return std::string();
  std::ifstream in(path);
  if (!in) return Error{"--token-file: cannot read '" + path + "'"};
  std::stringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front())))
    token.erase(0, 1);
  if (token.empty()) return Error{"--token-file: '" + path + "' is empty"};
  return token;
}

// set-clock --running SIDE: the clock runs again for the side to move only (6.6).
int check_running(const CtlRequest& request, Session& session, std::ostream& err) {
  bool unreachable = false;
  auto reply = session.status({request.commands.front().board_id()}, unreachable);
  if (!reply) {
    err << "eboard-ctl: " << reply.error() << "\n";
    return unreachable ? kExitUnreachable : kExitRefused;
  }
  const std::string& fen = reply->boards(0).snapshot().fen();
  const auto space = fen.find(' ');
  const v1::Side to_move = space != std::string::npos && fen.compare(space + 1, 1, "b") == 0
                               ? v1::SIDE_BLACK
                               : v1::SIDE_WHITE;
  if (*request.running != to_move) {
    err << "eboard-ctl: set-clock: --running " << side_word(*request.running) << ": "
        << side_word(to_move) << " is to move on " << request.commands.front().board_id()
        << ", and the side to move's clock is the one that runs\n";
    return kExitRefused;
  }
  return kExitOk;
}

int run_commands(const CtlRequest& request, Session& session, std::ostream& out,
                 std::ostream& err) {
  if (request.running) {
    if (const int status = check_running(request, session, err); status != kExitOk) return status;
  }
  for (const v1::Command& command : request.commands) {
    auto ack = session.command(command);
    if (!ack) {
      err << "eboard-ctl: " << ack.error() << "\n";
      return kExitUnreachable;
    }
    print_ack(command, ack.value(), request.global.format, out, err);
    if (!ack->ok()) return kExitRefused;
  }
  return kExitOk;
}

int run_status(const CtlRequest& request, Session& session, std::ostream& out, std::ostream& err) {
  bool unreachable = false;
  auto reply = session.status(request.boards, unreachable);
  if (!reply) {
    err << "eboard-ctl: " << reply.error() << "\n";
    return unreachable ? kExitUnreachable : kExitRefused;
  }
  if (request.action == Action::kStatus) {
    print_status(reply.value(), request.global.format, out);
  } else {
    print_proposals(reply.value(), request.global.format, out);
  }
  return kExitOk;
}

}  // namespace

Result<v1::StatusReply> Session::status(const std::vector<std::string>& boards, bool& unreachable) {
  unreachable = false;
  v1::Frame frame;
  const std::uint32_t id = next_id_++;
  frame.mutable_status_request()->set_command_id(id);
  for (const auto& b : boards) frame.mutable_status_request()->add_board_ids(b);
  if (auto error = c_.send(frame)) {
    unreachable = true;
    return *error;
  }
  auto answer = c_.next([id](const v1::Frame& f) {
    return (f.has_status_reply() && f.status_reply().command_id() == id) ||
           (f.has_ack() && f.ack().command_id() == id);
  });
  if (!answer) {
    unreachable = true;
    return Error{answer.error()};
  }
  if (answer->has_ack()) return Error{"refused: " + answer->ack().error()};
  return answer->status_reply();
}

Result<v1::Ack> Session::command(v1::Command command) {
  const std::uint32_t id = next_id_++;
  command.set_command_id(id);
  command.set_token(token_);
  v1::Frame frame;
  *frame.mutable_command() = std::move(command);
  if (auto error = c_.send(frame)) return *error;
  auto answer =
      c_.next([id](const v1::Frame& f) { return f.has_ack() && f.ack().command_id() == id; });
  if (!answer) return Error{answer.error()};
  return answer->ack();
}

int run_ctl(const CtlRequest& request, std::ostream& out, std::ostream& err) {
  if (request.action == Action::kHelp) {
    out << request.help;
    return kExitOk;
  }
  if (auto bad = check_target(request.global.connect)) {
    err << "eboard-ctl: " << *bad << "\n";
    return kExitBadArguments;
  }
  auto token = read_token(request.global.token_file);
  if (!token) {
    err << "eboard-ctl: " << token.error() << "\n";
    return kExitBadArguments;
  }
  // A round file is read whole before anything else: a mistake changes nothing.
  std::optional<round::RoundSheet> sheet;
  if (request.action == Action::kRound) {
    auto read = round::read_round_file(request.round.file, request.round.options);
    if (!read) {
      err << "eboard-ctl: " << read.error() << "\n";
      return kExitBadArguments;
    }
    sheet = std::move(read).value();
  }
  auto connection =
      Connection::open(request.global.connect, request.global.ca, request.global.timeout);
  if (!connection) {
    err << "eboard-ctl: cannot reach the daemon: " << connection.error() << "\n";
    return kExitUnreachable;
  }
  Session session(*connection.value(), token.value());
  switch (request.action) {
    case Action::kStatus:
    case Action::kProposals: return run_status(request, session, out, err);
    case Action::kCommands: return run_commands(request, session, out, err);
    case Action::kRound: return run_round(request, *sheet, session, out, err);
    case Action::kHelp: break;
  }
  return kExitOk;
}

}  // namespace eboard::daemon::ctl
