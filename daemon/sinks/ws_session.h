// One WebSocket client of /ws?board=ID (issue 7 item 4): the board's Snapshot first (an
// OBS browser source reloads the page on scene changes, so every connect starts from a
// full picture), then the board's public events (rules.md D14), one Frame per message,
// JSON by default or binary Protobuf with ?format=binary (interfaces.md §4).
//
// Slow consumers never slow the board (design.md): messages wait in a queue bounded in
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
#include <boost/beast/websocket/stream.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "daemon/core/event_hub.h"

namespace eboard::daemon {

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  // Called once when the session ends: the reason for an overflow, "" when the client
  // left or the server shuts down.
  using Closed = std::function<void(WsSession*, const std::string& reason)>;
  static constexpr auto kCloseGrace = std::chrono::seconds(5);
  using Request = boost::beast::http::request<boost::beast::http::string_body>;

  WsSession(boost::beast::tcp_stream stream, std::size_t board, bool binary,
            std::size_t queue_limit_bytes, Closed closed);

  // Completes the handshake, then sends `first` (the snapshot) and starts reading.
  void accept(Request request, SharedBytes first);
  // Queues one message; false (and the client is dropped) when the queue overflowed.
  bool send(const SharedBytes& message);
  void close();

  std::size_t board() const { return board_; }
  bool binary() const { return binary_; }
  bool open() const { return open_; }

 private:
  void read();
  void write_next();
  void drop(const std::string& reason = "");
  void overflow();
  void send_close();
  void force_close();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  std::size_t board_;
  bool binary_;
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

}  // namespace eboard::daemon
