// Which page a request target names. The targets come from anyone
// who can reach the port, so this is a parser facing the outside: it never throws, never
// allocates more than the target's size and accepts only the forms listed (fuzzed in
// tests/fuzz/fuzz_http_route.cpp).
//
//   /                      index of the boards
//   /live.pgn              every board's game, in configuration order
//   /boards/<id>.pgn       one board's game
//   /overlay?board=<id>    the overlay page (also /overlay/?board=...)
//   /ws?board=<id>[&format=json|binary]   the WebSocket stream
//   /arbiter, /arbiter/...  the arbiter console's pages and requests (console_http.h)
//   /arbiter/ws[?format=json|binary]      the console's WebSocket (console_feed.h)
//
// Query values are percent-decoded; board ids are 1 to 32 letters, digits, '-' or '_'
// (config.cpp's rule), so a decoded id never needs escaping when echoed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace eboard::daemon {

enum class RouteKind : std::uint8_t {
  kNotFound,
  kBadRequest,
  kIndex,
  kLivePgn,
  kBoardPgn,
  kOverlay,
  kWebSocket,
  kConsole,
  kConsoleWebSocket
};

struct Route {
  RouteKind kind = RouteKind::kNotFound;
  std::string board;    // kBoardPgn, kOverlay, kWebSocket
  bool binary = false;  // kWebSocket, kConsoleWebSocket: ?format=binary
};

Route parse_route(std::string_view target);

// Whether an If-None-Match header value matches the entity tag (RFC 9110 13.1.2, weak
// comparison: "W/" prefixes are ignored; "*" matches anything).
bool etag_matches(std::string_view if_none_match, std::string_view etag);

}  // namespace eboard::daemon
