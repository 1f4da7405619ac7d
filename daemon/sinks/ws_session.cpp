#include "daemon/sinks/ws_session.h"

#include <boost/asio/buffer.hpp>
#include <boost/beast/websocket.hpp>

namespace eboard::daemon {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

WsSession::WsSession(beast::tcp_stream stream, std::size_t board, bool binary,
                     std::size_t queue_limit_bytes, Closed closed)
    : ws_(std::move(stream)), board_(board), binary_(binary), limit_(queue_limit_bytes),
      closed_(std::move(closed)) {}

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
    drop();  // a slow consumer: disconnect, never wait (design.md)
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
  ws_.async_write(boost::asio::buffer(*front),
                  [self](const beast::error_code& error, std::size_t) {
                    self->writing_ = false;
                    if (error) return self->drop();
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

void WsSession::drop() {
  if (dropped_) return;
  dropped_ = true;
  open_ = false;
  queue_.clear();
  queued_bytes_ = 0;
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(ws_).socket().close(ignored);
  if (closed_) {
    Closed closed = std::move(closed_);
    closed_ = nullptr;
    closed(this);
  }
}

}  // namespace eboard::daemon
