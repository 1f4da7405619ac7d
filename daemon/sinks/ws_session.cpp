#include "daemon/sinks/ws_session.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "daemon/sinks/console_feed.h"

namespace eboard::daemon {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

bool WsClient::wants(std::size_t board, const eboard::v1::Event& event) const {
  return (!board_ || *board_ == board) && console_sees(view_, event);
}

template <class Stream>
WsSession<Stream>::WsSession(Stream stream, std::optional<std::size_t> board, ConsoleView view,
                             bool binary, std::size_t queue_limit_bytes, Closed closed)
    : WsClient(board, view, binary),
      ws_(std::move(stream)),
      limit_(queue_limit_bytes),
      closed_(std::move(closed)),
      close_timer_(ws_.get_executor()) {}

template <class Stream>
void WsSession<Stream>::accept(Request request, std::vector<SharedBytes> opening) {
  // The HTTP timeout no longer applies; the WebSocket's own keeps idle peers honest.
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.binary(binary());
  for (auto& message : opening) {
    queued_bytes_ += message->size();
    queue_.push_back(std::move(message));
  }
  auto self = this->shared_from_this();
  ws_.async_accept(request, [self](const beast::error_code& error) {
    if (error) return self->drop();
    self->open_ = true;
    self->write_next();
    self->read();
  });
}

template <class Stream>
bool WsSession<Stream>::send(const SharedBytes& message) {
  if (dropped_) return false;
  if (queued_bytes_ + message->size() > limit_) {
    overflow();  // a slow consumer: disconnect, never wait (docs/design.md)
    return false;
  }
  queue_.push_back(message);
  queued_bytes_ += message->size();
  if (open_) write_next();
  return true;
}

template <class Stream>
void WsSession<Stream>::write_next() {
  if (writing_ || queue_.empty() || dropped_) return;
  writing_ = true;
  auto self = this->shared_from_this();
  const SharedBytes& front = queue_.front();
  ws_.async_write(boost::asio::buffer(*front), [self](const beast::error_code& error, std::size_t) {
    self->writing_ = false;
    if (error) return self->drop();
    if (!self->close_reason_.empty()) return self->send_close();
    if (self->dropped_) return;
    self->queued_bytes_ -= self->queue_.front()->size();
    self->queue_.pop_front();
    self->write_next();
  });
}

// Clients have nothing to say; reading notices them leaving and answers pings.
template <class Stream>
void WsSession<Stream>::read() {
  auto self = this->shared_from_this();
  ws_.async_read(in_, [self](const beast::error_code& error, std::size_t) {
    if (error) return self->drop();
    self->in_.consume(self->in_.size());
    self->read();
  });
}

template <class Stream>
void WsSession<Stream>::close() {
  drop();
}

// The message being written stays (Beast is sending it); everything else goes, and the
// client hears why once that write is done, or is cut off after kCloseGrace.
template <class Stream>
void WsSession<Stream>::overflow() {
  if (dropped_) return;
  close_reason_ = "too slow: more than " + std::to_string(limit_) +
                  " bytes waiting; reconnect for a fresh snapshot";
  dropped_ = true;
  while (queue_.size() > (writing_ ? 1u : 0u)) queue_.pop_back();
  queued_bytes_ = queue_.empty() ? 0 : queue_.front()->size();
  auto self = this->shared_from_this();
  close_timer_.expires_after(kCloseGrace);
  close_timer_.async_wait([self](const beast::error_code& error) {
    if (!error) self->force_close();
  });
  if (closed_) {
    Closed closed = std::move(closed_);
    closed_ = nullptr;
    closed(this, close_reason_);
  }
  if (!writing_ && open_) send_close();
}

template <class Stream>
void WsSession<Stream>::send_close() {
  writing_ = true;
  auto self = this->shared_from_this();
  const std::string reason = std::move(close_reason_);
  close_reason_.clear();
  queue_.clear();
  queued_bytes_ = 0;
  ws_.async_close(websocket::close_reason(websocket::close_code::policy_error, reason),
                  [self](const beast::error_code&) { self->force_close(); });
}

template <class Stream>
void WsSession<Stream>::force_close() {
  open_ = false;
  close_timer_.cancel();
  beast::error_code ignored;
  auto& socket = beast::get_lowest_layer(ws_).socket();
  socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

template <class Stream>
void WsSession<Stream>::drop(const std::string& reason) {
  if (dropped_ && close_reason_.empty()) {
    if (!writing_) force_close();  // an overflowed client that left or errored
    return;
  }
  dropped_ = true;
  close_reason_.clear();
  while (queue_.size() > (writing_ ? 1u : 0u)) queue_.pop_back();  // Beast may be sending the first
  queued_bytes_ = 0;
  force_close();
  if (closed_) {
    Closed closed = std::move(closed_);
    closed_ = nullptr;
    closed(this, reason);
  }
}

template class WsSession<PlainStream>;
template class WsSession<TlsStream>;

}  // namespace eboard::daemon
