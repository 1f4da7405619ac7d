// The arbiter console's request checks face anyone who can reach the port
// (daemon/sinks/console_auth.h, console_command.h): the Cookie, Origin and Host headers
// and the login and command bodies. Invariants: never crash; a cookie value found lies
// inside the header; an Origin is only ever the same as a Host it spells out in full; a
// command read from a body never carries a token and always names a board and an action.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "daemon/sinks/console_auth.h"
#include "daemon/sinks/console_command.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace d = eboard::daemon;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto half = text.substr(0, size / 2);
  const auto rest = text.substr(size / 2);
  if (const auto value = d::cookie_value(text, d::kSessionCookie)) {
    if (value->data() < text.data() || value->data() + value->size() > text.data() + size)
      std::abort();
  }
  for (const bool tls : {false, true}) {
    if (d::same_origin(half, rest, tls) && half.size() != rest.size() + (tls ? 8 : 7)) std::abort();
  }
  (void)d::is_loopback_host(text);
  if (const auto command = d::console_command(text)) {
    if (!command->token().empty() || command->board_id().empty() ||
        command->action_case() == eboard::v1::Command::ACTION_NOT_SET)
      std::abort();
  }
  (void)d::console_login_token(text);
  return 0;
}
