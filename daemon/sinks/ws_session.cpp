#include "daemon/sinks/ws_session.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/websocket.hpp>

namespace eboard::daemon {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

WsSession::WsSession(beast::tcp_stream stream, std::size_t board, bool binary,
                     std::size_t queue_limit_bytes, Closed closed)
    : ws_(std::move(stream)),
      board_(board),
      binary_(binary),
      limit_(queue_limit_bytes),
      closed_(std::move(closed)),
      close_timer_(ws_.get_executor()) {}

void WsSession::accept(Request request, SharedBytes first) {
  // The HTTP timeout no longer applies; the WebSocket's own keeps idle peers honest.
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.binary(binary_);
  queue_.push_back(std::move(first));
  queued_bytes_ += queue_.back()->size();
  auto self = shared_from_this();
  ws_.async_accept(request, [self](const beast::error_code& error) {
    if (error) return self->drop();
    self->open_ = true;
    self->write_next();
    self->read();
  });
}

bool WsSession::send(const SharedBytes& message) {
  if (dropped_) return false;
  if (queued_bytes_ + message->size() > limit_) {
    overflow();  // a slow consumer: disconnect, never wait (design.md)
    return false;
  }
  queue_.push_back(message);
  queued_bytes_ += message->size();
  if (open_) write_next();
  return true;
}

void WsSession::write_next() {
  if (writing_ || queue_.empty() || dropped_) return;
  writing_ = true;
  auto self = shared_from_this();
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
void WsSession::read() {
  auto self = shared_from_this();
  ws_.async_read(in_, [self](const beast::error_code& error, std::size_t) {
    if (error) return self->drop();
    self->in_.consume(self->in_.size());
    self->read();
  });
}

void WsSession::close() { drop(); }

// The message being written stays (Beast is sending it); everything else goes, and the
// client hears why once that write is done, or is cut off after kCloseGrace.
void WsSession::overflow() {
  if (dropped_) return;
  close_reason_ = "too slow: more than " + std::to_string(limit_) +
                  " bytes waiting; reconnect for a fresh snapshot";
  dropped_ = true;
  while (queue_.size() > (writing_ ? 1u : 0u)) queue_.pop_back();
  queued_bytes_ = queue_.empty() ? 0 : queue_.front()->size();
  auto self = shared_from_this();
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

void WsSession::send_close() {
  writing_ = true;
  auto self = shared_from_this();
  const std::string reason = std::move(close_reason_);
  close_reason_.clear();
  queue_.clear();
  queued_bytes_ = 0;
  ws_.async_close(websocket::close_reason(websocket::close_code::policy_error, reason),
                  [self](const beast::error_code&) { self->force_close(); });
}

void WsSession::force_close() {
  open_ = false;
  close_timer_.cancel();
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both,
                                                 ignored);
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

void WsSession::drop(const std::string& reason) {
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

}  // namespace eboard::daemon
