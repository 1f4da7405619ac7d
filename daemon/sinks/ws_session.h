// One WebSocket client: of /ws?board=ID (one board's public events) or of
// the arbiter console's /arbiter/ws (every board; console_feed.h). The opening messages
// first (for /ws the board's Snapshot: an OBS browser source reloads the page on scene
// changes, so every connect starts from a full picture), then the events the client may
// see, one Frame per message, JSON by default or binary Protobuf with ?format=binary
// (docs/interfaces.md §4). Over plain TCP or TLS (the template's Stream).
//
// Slow consumers never slow the board (docs/design.md): messages wait in a queue bounded in
// bytes, one write in flight; a client whose queue overflows is dropped at once - it gets
// no more events, its queue is freed and the owner is told why (it logs the reason) - and
// then told why itself: a WebSocket close (1008, "too slow: ...") goes out after the write
// in flight, for a client that reads again; one that still does not read within
// kCloseGrace has its socket closed. Frames are shared, never copied per client.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/core/event_source.h"
#include "daemon/sinks/console_http.h"

namespace eboard::daemon {

// What the server needs of a client, whatever its stream.
class WsClient {
 public:
  // Called once when the client ends: the reason for an overflow, "" when the client
  // left or the server shuts down.
  using Closed = std::function<void(WsClient*, const std::string& reason)>;
  using Request = boost::beast::http::request<boost::beast::http::string_body>;

  WsClient(std::optional<std::size_t> board, ConsoleView view, bool binary)
      : board_(board), view_(view), binary_(binary) {}
  virtual ~WsClient() = default;

  // Completes the handshake, then sends `opening` and starts reading.
  virtual void accept(Request request, std::vector<SharedBytes> opening) = 0;
  // Queues one message; false (and the client is dropped) when the queue overflowed.
  virtual bool send(const SharedBytes& message) = 0;
  virtual void close() = 0;

  // Whether this client gets `event` of `board`.
  bool wants(std::size_t board, const eboard::v1::Event& event) const;
  bool binary() const { return binary_; }

 private:
  std::optional<std::size_t> board_;  // nullopt: every board (the console)
  ConsoleView view_;
  bool binary_;
};

template <class Stream>
class WsSession final : public WsClient, public std::enable_shared_from_this<WsSession<Stream>> {
 public:
  static constexpr auto kCloseGrace = std::chrono::seconds(5);

  WsSession(Stream stream, std::optional<std::size_t> board, ConsoleView view, bool binary,
            std::size_t queue_limit_bytes, Closed closed);

  void accept(Request request, std::vector<SharedBytes> opening) override;
  bool send(const SharedBytes& message) override;
  void close() override;

 private:
  void read();
  void write_next();
  void drop(const std::string& reason = "");
  void overflow();
  void send_close();
  void force_close();

  boost::beast::websocket::stream<Stream> ws_;
  std::size_t limit_;
  Closed closed_;
  boost::beast::flat_buffer in_;
  std::deque<SharedBytes> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool open_ = false;
  bool dropped_ = false;
  std::string close_reason_;  // set on overflow: the close frame still to send
  boost::asio::steady_timer close_timer_;
};

using PlainStream = boost::beast::tcp_stream;
using TlsStream = boost::beast::ssl_stream<boost::beast::tcp_stream>;
extern template class WsSession<PlainStream>;
extern template class WsSession<TlsStream>;

}  // namespace eboard::daemon
