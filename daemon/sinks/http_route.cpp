#include "daemon/sinks/http_route.h"

#include <optional>

namespace eboard::daemon {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hex_value(text[i + 1]);
      const int low = hex_value(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

bool valid_board_id(std::string_view id) {
  if (id.empty() || id.size() > 32) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

// The value of `name` in a query string ("a=1&b=2"); nullopt when absent, "" when bad.
std::optional<std::string> query_value(std::string_view query, std::string_view name, bool& bad) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) != name) continue;
    auto value =
        percent_decode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1));
    if (!value) bad = true;
    return value.value_or("");
  }
  return std::nullopt;
}

}  // namespace

Route parse_route(std::string_view target) {
  Route route;
  if (target.empty() || target.front() != '/' || target.size() > 2048) {
    route.kind = RouteKind::kBadRequest;
    return route;
  }
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query =
      question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
  bool bad = false;
  if (path == "/" || path == "/index.html") {
    route.kind = RouteKind::kIndex;
  } else if (path == "/live.pgn") {
    route.kind = RouteKind::kLivePgn;
  } else if (path.starts_with("/boards/") && path.ends_with(".pgn") && path.size() > 12) {
    auto id = percent_decode(path.substr(8, path.size() - 12));
    if (!id || !valid_board_id(*id)) return route;
    route.kind = RouteKind::kBoardPgn;
    route.board = *id;
  } else if (path == "/arbiter/ws") {
    auto format = query_value(query, "format", bad);
    if (bad || (format && *format != "json" && *format != "binary")) {
      route.kind = RouteKind::kBadRequest;
      return route;
    }
    route.kind = RouteKind::kConsoleWebSocket;
    route.binary = format && *format == "binary";
  } else if (path == "/arbiter" || path.starts_with("/arbiter/")) {
    route.kind = RouteKind::kConsole;
  } else if (path == "/overlay" || path == "/overlay/" || path == "/ws") {
    auto board = query_value(query, "board", bad);
    if (bad || !board || !valid_board_id(*board)) {
      route.kind = RouteKind::kBadRequest;
      return route;
    }
    route.board = *board;
    route.kind = path == "/ws" ? RouteKind::kWebSocket : RouteKind::kOverlay;
    if (route.kind == RouteKind::kWebSocket) {
      auto format = query_value(query, "format", bad);
      if (bad || (format && *format != "json" && *format != "binary")) {
        route.kind = RouteKind::kBadRequest;
        return route;
      }
      route.binary = format && *format == "binary";
    }
  }
  return route;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    const auto comma = if_none_match.find(',');
    std::string_view item = if_none_match.substr(0, comma);
    if_none_match =
        comma == std::string_view::npos ? std::string_view{} : if_none_match.substr(comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item == "*") return true;
    if (item.starts_with("W/")) item.remove_prefix(2);
    std::string_view tag = etag;
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (!item.empty() && item == tag) return true;
  }
  return false;
}

}  // namespace eboard::daemon
