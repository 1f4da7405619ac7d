// The answers both HTTP servers build (http_response.h): what a refused request gets,
// and the lengths HEAD and 304 announce.
#include "daemon/sinks/http_response.h"

#include <gtest/gtest.h>

#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

namespace eboard::daemon {
namespace {

namespace http = boost::beast::http;

HttpRequest request(http::verb method, std::string if_none_match = "") {
  HttpRequest r(method, "/round.pgn", 11);
  if (!if_none_match.empty()) r.set(http::field::if_none_match, if_none_match);
  return r;
}

TEST(HttpResponse, RefusedRequestsGetTheirStatus) {
  EXPECT_EQ(http_refusal_status(http::error::header_limit),
            HttpStatus::request_header_fields_too_large);
  EXPECT_EQ(http_refusal_status(http::error::bad_method), HttpStatus::bad_request);
  EXPECT_EQ(http_refusal_status(http::error::bad_version), HttpStatus::bad_request);
  EXPECT_EQ(http_refusal_status(http::error::body_limit), HttpStatus::payload_too_large);
  // The peer left or went silent: nothing to answer.
  EXPECT_EQ(http_refusal_status(http::error::end_of_stream), std::nullopt);
  EXPECT_EQ(http_refusal_status(http::error::partial_message), std::nullopt);
  EXPECT_EQ(http_refusal_status(boost::asio::error::timed_out), std::nullopt);
  const std::string wire =
      http_serialize(http_refusal(HttpStatus::bad_request), http::verb::unknown);
  EXPECT_TRUE(wire.starts_with("HTTP/1.1 400 Bad Request\r\n")) << wire;
  EXPECT_NE(wire.find("Connection: close\r\n"), std::string::npos) << wire;
  EXPECT_TRUE(wire.ends_with("\r\n\r\nBad Request\n")) << wire;
}

TEST(HttpResponse, HeadAndNotModifiedAnnounceTheLengthAndSendNoBody) {
  const std::string text = "[Event \"x\"]\n\n*\n\n";
  const std::string tag = "\"abc\"";
  const std::string length = "Content-Length: " + std::to_string(text.size()) + "\r\n";
  const std::string get = http_serialize(
      http_entity(request(http::verb::get), text, tag, "text/plain"), http::verb::get);
  EXPECT_TRUE(get.starts_with("HTTP/1.1 200 OK\r\n"));
  EXPECT_NE(get.find(length), std::string::npos) << get;
  EXPECT_NE(get.find("ETag: \"abc\"\r\n"), std::string::npos) << get;
  EXPECT_TRUE(get.ends_with("\r\n\r\n" + text));

  const std::string head = http_serialize(
      http_entity(request(http::verb::head), text, tag, "text/plain"), http::verb::head);
  EXPECT_NE(head.find(length), std::string::npos) << head;
  EXPECT_TRUE(head.ends_with("\r\n\r\n")) << head;

  const std::string cached = http_serialize(
      http_entity(request(http::verb::get, "W/\"abc\""), text, tag, "text/plain"), http::verb::get);
  EXPECT_TRUE(cached.starts_with("HTTP/1.1 304 Not Modified\r\n")) << cached;
  EXPECT_NE(cached.find(length), std::string::npos) << cached;
  EXPECT_TRUE(cached.ends_with("\r\n\r\n")) << cached;
}

}  // namespace
}  // namespace eboard::daemon
