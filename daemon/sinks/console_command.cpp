#include "daemon/sinks/console_command.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include "daemon/sinks/console_auth.h"

namespace eboard::daemon {
namespace {

namespace pbutil = google::protobuf::util;

}  // namespace

Result<eboard::v1::Command> console_command(std::string_view body) {
  eboard::v1::Command command;
  pbutil::JsonParseOptions options;
  options.ignore_unknown_fields = false;  // a misspelt field is an error, never ignored
  const auto status = pbutil::JsonStringToMessage(body, &command, options);
  if (!status.ok()) return Error{"not a JSON Command: " + std::string(status.message())};
  if (!command.token().empty()) {
    return Error{"command.token: the console's session is its permission; send no token"};
  }
  if (command.board_id().empty()) return Error{"command.boardId is missing"};
  if (command.action_case() == eboard::v1::Command::ACTION_NOT_SET) {
    return Error{"the command names no action"};
  }
  return command;
}

Result<std::string> console_login_token(std::string_view body) {
  google::protobuf::Struct object;
  const auto status = pbutil::JsonStringToMessage(body, &object);
  if (!status.ok()) return Error{"not a JSON object"};
  const auto& fields = object.fields();
  const auto token = fields.find("token");
  if (fields.size() != 1 || token == fields.end() || !token->second.has_string_value()) {
    return Error{"a login is {\"token\": \"...\"}"};
  }
  return token->second.string_value();
}

std::string console_client(std::string_view session_id, std::string_view peer_address) {
  return "console:" + session_label(session_id) + "@" + std::string(peer_address);
}

}  // namespace eboard::daemon
