// The daemon's web server on Boost.Beast, on the daemon's one Asio loop (docs/design.md):
// /live.pgn and /boards/ID.pgn with ETag
// / If-None-Match (pollers get 304 for free), the overlay page /overlay?board=ID and the
// arbiter console /arbiter (HTML files with their CSS and JavaScript, embedded at build
// time), the WebSockets /ws?board=ID and /arbiter/ws (ws_session.h), over plain HTTP
// (--http) and TLS (--https) alike, on as many listeners as configured.
//
// Only the console changes a game, and only as console_http.h allows (TLS or the
// loopback, a login, Origin checks). A listener binds to loopback unless a host is
// configured. Every connection has a timeout (a silent client costs one socket for at
// most kRequestTimeout, a TLS handshake as long); responses are built from memory at once.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/core/event_source.h"
#include "daemon/sinks/broadcast_boards.h"
#include "daemon/sinks/console_feed.h"
#include "daemon/sinks/console_http.h"
#include "daemon/sinks/ws_session.h"
#include "util/result.h"

namespace eboard::daemon {

class HttpServer {
 public:
  using Log = std::function<void(const std::string&)>;
  // Kernel send buffer of a WebSocket client (see open_websocket).
  static constexpr int kWsSendBufferBytes = 64 * 1024;
  // A console client's queue: the opening messages of every board fit many times over.
  static constexpr std::size_t kConsoleQueueBytes = std::size_t{8} << 20;

  // `console` may be null: no /arbiter pages then.
  HttpServer(boost::asio::io_context& io, const EventSource& hub, const BroadcastBoards& boards,
             std::size_t ws_queue_bytes, ConsoleHttp* console, Log log);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Listens on one more address: plain HTTP, or TLS with `tls`. `what` names the option.
  std::optional<Error> listen(const std::string& host, std::uint16_t port,
                              std::shared_ptr<boost::asio::ssl::context> tls = nullptr);
  // The port of the first listener (plain or TLS, in the order listened).
  std::uint16_t port(std::size_t listener = 0) const { return listeners_.at(listener)->port; }
  // An event goes to the WebSocket clients that may see it.
  void on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes& frame);
  void shutdown();
  std::size_t websocket_clients() const { return clients_.size(); }

  // For the connection objects (http_session.h).
  template <class Stream>
  void open_websocket(Stream stream, WsClient::Request request, std::optional<std::size_t> board,
                      ConsoleView view, bool binary);
  const EventSource& hub() const { return hub_; }
  const BroadcastBoards& boards() const { return boards_; }
  ConsoleHttp* console() const { return console_; }

 private:
  struct Listener {
    std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor;
    std::shared_ptr<boost::asio::ssl::context> tls;
    bool loopback = false;
    std::uint16_t port = 0;
  };
  void accept(Listener& listener);
  std::vector<SharedBytes> opening(std::optional<std::size_t> board, ConsoleView view, bool binary);

  boost::asio::io_context& io_;
  const EventSource& hub_;
  const BroadcastBoards& boards_;
  std::size_t ws_queue_bytes_;
  ConsoleHttp* console_;
  ConsoleFeed feed_;
  Log log_;
  std::vector<std::unique_ptr<Listener>> listeners_;
  std::list<std::shared_ptr<WsClient>> clients_;
  bool stopped_ = false;
};

// The overlay page (daemon/sinks/web/overlay.html, embedded by CMake).
std::string_view overlay_page();

}  // namespace eboard::daemon
