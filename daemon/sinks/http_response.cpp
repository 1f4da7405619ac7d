#include "daemon/sinks/http_response.h"

#include <boost/beast/http/error.hpp>
#include <boost/beast/http/write.hpp>
#include <sstream>

#include "daemon/sinks/http_route.h"

namespace eboard::daemon {

namespace http = boost::beast::http;

std::optional<HttpStatus> http_refusal_status(const boost::beast::error_code& error) {
  if (error == http::error::header_limit) return HttpStatus::request_header_fields_too_large;
  if (error == http::error::body_limit) return HttpStatus::payload_too_large;
  // end_of_stream, partial_message (the peer left mid-request) and the socket's own
  // errors (timeout, reset) end the connection silently; every other parser error is a
  // request we cannot read.
  if (error.category() != make_error_code(http::error::end_of_stream).category())
    return std::nullopt;
  if (error == http::error::end_of_stream || error == http::error::partial_message) {
    return std::nullopt;
  }
  return HttpStatus::bad_request;
}

HttpResponse http_plain(unsigned version, HttpStatus status, std::string body) {
  HttpResponse response(status, version);
  response.set(http::field::content_type, "text/plain; charset=utf-8");
  response.body() = std::move(body);
  return response;
}

HttpResponse http_refusal(HttpStatus status) {
  std::string reason(http::obsolete_reason(status));
  HttpResponse response = http_plain(11, status, reason + "\n");
  response.keep_alive(false);
  return response;
}

HttpResponse http_entity(const HttpRequest& request, std::string body, std::string_view etag,
                         std::string_view content_type) {
  const auto header = request[http::field::if_none_match];
  const bool same = etag_matches(std::string_view(header.data(), header.size()), etag);
  HttpResponse response(same ? HttpStatus::not_modified : HttpStatus::ok, request.version());
  response.set(http::field::etag, std::string(etag));
  response.set(http::field::cache_control, "no-cache");
  response.set(http::field::content_type, std::string(content_type));
  response.body() = std::move(body);
  return response;
}

std::string http_serialize(HttpResponse response, http::verb method) {
  std::ostringstream out;
  const bool no_body = method == http::verb::head || response.result() == HttpStatus::not_modified;
  response.content_length(response.body().size());
  if (no_body) {
    out << response.base();
  } else {
    out << response;
  }
  return std::move(out).str();
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace eboard::daemon
