// The daemon's read-only web server on Boost.Beast, on the daemon's one Asio loop
// (research/ecosystem.md §3 "WebSocket/HTTP server library"; issue 7 items 3, 4, 6):
// /live.pgn and /boards/ID.pgn with ETag / If-None-Match (pollers get 304 for free),
// the overlay page /overlay?board=ID (one HTML file with its CSS and JavaScript,
// embedded at build time), and the WebSocket /ws?board=ID (ws_session.h).
//
// Nothing here changes the game: control never travels over HTTP. It binds to loopback
// unless a host is configured. Every connection has a timeout (a silent client costs one
// socket for at most kRequestTimeout); responses are built from memory at once.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>

#include "daemon/core/event_hub.h"
#include "daemon/sinks/broadcast_boards.h"
#include "daemon/sinks/ws_session.h"
#include "engine/util/result.h"

namespace eboard::daemon {

class HttpServer {
 public:
  using Log = std::function<void(const std::string&)>;
  // Kernel send buffer of a WebSocket client (see open_websocket).
  static constexpr int kWsSendBufferBytes = 64 * 1024;

  HttpServer(boost::asio::io_context& io, const EventHub& hub, const BroadcastBoards& boards,
             std::size_t ws_queue_bytes, Log log);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::optional<Error> listen(const std::string& host, std::uint16_t port);
  std::uint16_t port() const { return port_; }
  // A public event of a board goes to that board's WebSocket clients.
  void on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes& frame);
  void shutdown();
  std::size_t websocket_clients() const { return sessions_.size(); }

  // For the connection objects (http_server.cpp).
  void open_websocket(boost::beast::tcp_stream stream, WsSession::Request request,
                      std::size_t board, bool binary);
  const EventHub& hub() const { return hub_; }
  const BroadcastBoards& boards() const { return boards_; }

 private:
  void accept();
  SharedBytes snapshot_message(std::size_t board, bool binary) const;

  boost::asio::io_context& io_;
  const EventHub& hub_;
  const BroadcastBoards& boards_;
  std::size_t ws_queue_bytes_;
  Log log_;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor_;
  std::uint16_t port_ = 0;
  std::list<std::shared_ptr<WsSession>> sessions_;
  bool stopped_ = false;
};

// The overlay page (daemon/sinks/web/overlay.html, embedded by CMake).
std::string_view overlay_page();

}  // namespace eboard::daemon
