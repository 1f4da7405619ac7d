// What the relay and the daemons read from anyone who reaches the broker or the relay's
// port: a replay request's JSON (daemon/sinks/mqtt_publisher.h parse_replay_request) and
// the relay's request targets (daemon/programs/eboard_relay/relay_http.h). Invariants:
// never crash; a range runs from 1 up and never backwards; a routed board has a node and
// a board of 1-64 of [A-Za-z0-9._-].
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "daemon/programs/eboard_relay/relay_http.h"
#include "daemon/sinks/mqtt_publisher.h"

namespace {

bool valid(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto range = eboard::daemon::parse_replay_request(text)) {
    if (range->first == 0 || range->second < range->first) std::abort();
  }
  const auto route = eboard::daemon::parse_relay_route(text);
  using Kind = eboard::daemon::RelayRoute::Kind;
  if (route.kind == Kind::kBoard || route.kind == Kind::kOverlay ||
      route.kind == Kind::kWebSocket) {
    if (!valid(route.board.node) || !valid(route.board.board)) std::abort();
  }
  return 0;
}
