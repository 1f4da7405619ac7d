// One HTTP connection of the daemon's web server (http_server.h), over plain TCP or TLS
// (the template's Stream): read a request, answer it from memory, repeat while kept
// alive; hand the stream to a WebSocket client on an upgrade. The console's requests go
// to ConsoleHttp, which may answer later (a held-back wrong login, a command waiting for
// its events): the connection reads nothing meanwhile.
#pragma once

#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <memory>
#include <optional>
#include <string>

#include "daemon/sinks/console_command.h"
#include "daemon/sinks/console_http.h"
#include "daemon/sinks/http_response.h"
#include "daemon/sinks/http_route.h"
#include "daemon/sinks/http_server.h"

namespace eboard::daemon {

// The answers of the pages that are not the console's (http_server.cpp).
ConsoleHttp::Response answer_page(const HttpServer& server, const ConsoleHttp::Request& request,
                                  const Route& route);

template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  using Request = ConsoleHttp::Request;
  using Response = ConsoleHttp::Response;
  static constexpr auto kRequestTimeout = std::chrono::seconds(30);

  HttpSession(Stream stream, HttpServer& server, ConsoleConnection connection)
      : stream_(std::move(stream)), server_(server), connection_(std::move(connection)) {}

  void read() {
    namespace http = boost::beast::http;
    parser_.emplace();
    parser_->header_limit(kHttpHeaderLimit);
    parser_->body_limit(kConsoleBodyLimit);  // only the console's POSTs have bodies
    boost::beast::get_lowest_layer(stream_).expires_after(kRequestTimeout);
    auto self = this->shared_from_this();
    http::async_read(
        stream_, buffer_, *parser_, [self](const boost::beast::error_code& error, std::size_t) {
          if (!error) return self->handle(self->parser_->release());
          if (auto status = http_refusal_status(error)) {
            return self->send(http_serialize(http_refusal(*status), http::verb::get), false);
          }
          self->close();
        });
  }

 private:
  void handle(Request request) {
    const auto target = request.target();
    const Route route = parse_route(std::string_view(target.data(), target.size()));
    if (upgrade(request, route)) return;
    ConsoleHttp* console = server_.console();
    if (route.kind == RouteKind::kConsole && console) {
      const auto method = request.method();
      const bool keep_alive = request.keep_alive();
      auto self = this->shared_from_this();
      console->handle(request, connection_, [self, method, keep_alive](Response response) {
        response.keep_alive(keep_alive);
        self->send(http_serialize(std::move(response), method), keep_alive);
      });
      return;
    }
    Response response = answer_page(server_, request, route);
    response.keep_alive(request.keep_alive());
    send(http_serialize(std::move(response), request.method()), request.keep_alive());
  }

  // A WebSocket upgrade of /ws?board=ID or /arbiter/ws; false when it is none.
  bool upgrade(Request& request, const Route& route) {
    if (!boost::beast::websocket::is_upgrade(request)) return false;
    if (route.kind == RouteKind::kWebSocket) {
      const auto board = server_.hub().find_board(route.board);
      if (!board) return false;
      server_.open_websocket(std::move(stream_), std::move(request), board, ConsoleView::kPublic,
                             route.binary);
      return true;
    }
    if (route.kind != RouteKind::kConsoleWebSocket || !server_.console()) return false;
    const ConsoleView view = server_.console()->websocket_view(request, connection_);
    if (view == ConsoleView::kRefused) return false;
    server_.open_websocket(std::move(stream_), std::move(request), std::nullopt, view,
                           route.binary);
    return true;
  }

  // Writes an answer's bytes; reads the next request if the connection stays open.
  void send(std::string bytes, bool keep_alive) {
    auto message = std::make_shared<const std::string>(std::move(bytes));
    auto self = this->shared_from_this();
    boost::asio::async_write(
        stream_, boost::asio::buffer(*message),
        [self, message, keep_alive](const boost::beast::error_code& error, std::size_t) {
          if (error || !keep_alive) return self->close();
          self->read();
        });
  }

  void close() {
    boost::beast::error_code ignored;
    auto& socket = boost::beast::get_lowest_layer(stream_).socket();
    socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

  Stream stream_;
  HttpServer& server_;
  ConsoleConnection connection_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
};

}  // namespace eboard::daemon
