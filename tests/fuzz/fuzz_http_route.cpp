// The web server's request-target parser and If-None-Match matcher face anyone who can
// reach the port (daemon/sinks/http_route.h). Invariants: never crash; a routed board id
// is always 1-32 of [A-Za-z0-9_-]; a target that does not start with '/' is a bad request.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "daemon/sinks/http_route.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto route = eboard::daemon::parse_route(text);
  if (!route.board.empty()) {
    if (route.board.size() > 32) std::abort();
    for (char c : route.board) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
      if (!ok) std::abort();
    }
  }
  if ((text.empty() || text.front() != '/') && route.kind != eboard::daemon::RouteKind::kBadRequest)
    std::abort();
  const auto half = text.substr(0, size / 2);
  (void)eboard::daemon::etag_matches(half, text.substr(size / 2));
  return 0;
}
