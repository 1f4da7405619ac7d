// HTTP answers that every server of ours builds the same way (the daemon's read-only web
// server and eboard-relay): a refused request gets its status (400 malformed, 431 header
// fields too large, RFC 6585 §5) instead of a closed socket; a cacheable text (PGN) gets a
// strong ETag and 304 on If-None-Match; HEAD and 304 carry the Content-Length the GET
// would have had (RFC 9110 §8.6, §9.3.2, §15.4.5) and no body.
//
// Answers are built whole in memory and serialized to one string, so a server only writes
// bytes; nothing here touches a socket.
#pragma once

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eboard::daemon {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;
using HttpStatus = boost::beast::http::status;

// The most a request's start line and header fields may take.
constexpr std::uint32_t kHttpHeaderLimit = 8 * 1024;

// The answer a request the parser refused deserves; nullopt when the peer closed, reset
// or timed out and nothing should be sent.
std::optional<HttpStatus> http_refusal_status(const boost::beast::error_code& error);

// A short text/plain answer.
HttpResponse http_plain(unsigned version, HttpStatus status, std::string body);

// The answer to a refused request: its status, a line of text, and "Connection: close"
// (the rest of the stream cannot be trusted to start a new request).
HttpResponse http_refusal(HttpStatus status);

// A GET-able entity with a strong entity tag: 200 with the body, or 304 when the
// request's If-None-Match matches. `Cache-Control: no-cache` makes caches revalidate.
HttpResponse http_entity(const HttpRequest& request, std::string body, std::string_view etag,
                         std::string_view content_type);

// The bytes to send for `response` to a request of `method`. The body travels only on a
// GET-like answer; HEAD and 304 announce its length and send none.
std::string http_serialize(HttpResponse response, boost::beast::http::verb method);

// Text for an HTML page: <, >, & and " as entities.
std::string html_escape(std::string_view text);

}  // namespace eboard::daemon
