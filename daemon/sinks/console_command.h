// The console's one state-changing request besides login and logout: POST
// /arbiter/command with the JSON form of an eboard.v1.Command (docs/interfaces.md §4; the
// Protobuf JSON mapping, as eboard-ctl --format json prints it), e.g.
//   {"boardId":"b1","ruling":{"decision":"RULING_DECISION_ACCEPT","seq":12}}
// It takes the same path as a command on the stream sockets (BoardSession::command) and
// is answered with the Ack in the same JSON form. The session is the permission: a body
// carrying a token is refused, so the token never has to be in the page.
#pragma once

#include <string>
#include <string_view>

#include "eboard/v1/command.pb.h"
#include "util/result.h"

namespace eboard::daemon {

// The largest body the console sends (a new game with every PGN tag fits easily).
inline constexpr std::size_t kConsoleBodyLimit = 16 * 1024;

// The Command in a request body, or a one-line error naming what is wrong.
Result<eboard::v1::Command> console_command(std::string_view body);

// The token in a login body: the JSON object {"token":"..."}, nothing else.
Result<std::string> console_login_token(std::string_view body);

// Who sent a console command, for the audit record and the log: the session's label and
// the client's address ("console:1f3a9c0e@192.0.2.7"), never the token or the whole id.
std::string console_client(std::string_view session_id, std::string_view peer_address);

}  // namespace eboard::daemon
