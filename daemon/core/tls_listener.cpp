#include "daemon/core/tls_listener.h"

#include <array>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using boost::system::error_code;
using tcp = asio::ip::tcp;
using local = asio::local::stream_protocol;

// One TLS client: handshake, then bytes both ways between it and its Consumer.
class TlsPipe : public std::enable_shared_from_this<TlsPipe> {
 public:
  TlsPipe(tcp::socket socket, ssl::context& tls, std::shared_ptr<std::size_t> handshakes,
          std::string peer)
      : tls_(std::move(socket), tls),
        plain_(tls_.get_executor()),
        handshake_timer_(tls_.get_executor()),
        write_timer_(tls_.get_executor()),
        handshakes_(std::move(handshakes)),
        peer_(std::move(peer)) {}

  void start(const TlsStreamListener::Adopt& adopt) {
    ++*handshakes_;
    auto self = shared_from_this();
    handshake_timer_.expires_after(TlsStreamListener::kHandshakeTimeout);
    handshake_timer_.async_wait([self](const error_code& error) {
      if (!error) self->close();
    });
    tls_.async_handshake(ssl::stream_base::server, [self, adopt](const error_code& error) {
      --*self->handshakes_;
      self->handshake_timer_.cancel();
      if (error || self->closed_) return self->close();
      local::socket consumer_end(self->plain_.get_executor());
      error_code pair_error;
      asio::local::connect_pair(self->plain_, consumer_end, pair_error);
      if (pair_error) return self->close();
      adopt(Consumer::Socket(std::move(consumer_end)), "tls:" + self->peer_);
      self->client_to_consumer();
      self->consumer_to_client();
    });
  }

 private:
  void client_to_consumer() {
    auto self = shared_from_this();
    tls_.async_read_some(asio::buffer(up_), [self](const error_code& error, std::size_t n) {
      if (error) return self->close();
      asio::async_write(self->plain_, asio::buffer(self->up_.data(), n),
                        [self](const error_code& write_error, std::size_t) {
                          if (write_error) return self->close();
                          self->client_to_consumer();
                        });
    });
  }

  void consumer_to_client() {
    auto self = shared_from_this();
    plain_.async_read_some(asio::buffer(down_), [self](const error_code& error, std::size_t n) {
      if (error) return self->finish();  // the Consumer closed: say goodbye to the client
      self->write_timer_.expires_after(TlsStreamListener::kWriteTimeout);
      self->write_timer_.async_wait([self](const error_code& timer_error) {
        if (!timer_error) self->close();
      });
      asio::async_write(self->tls_, asio::buffer(self->down_.data(), n),
                        [self](const error_code& write_error, std::size_t) {
                          self->write_timer_.cancel();
                          if (write_error) return self->close();
                          self->consumer_to_client();
                        });
    });
  }

  // A TLS close_notify after everything the Consumer sent, bounded by the write timeout.
  void finish() {
    if (closed_) return;
    auto self = shared_from_this();
    write_timer_.expires_after(TlsStreamListener::kWriteTimeout);
    write_timer_.async_wait([self](const error_code& error) {
      if (!error) self->close();
    });
    tls_.async_shutdown([self](const error_code&) { self->close(); });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    handshake_timer_.cancel();
    write_timer_.cancel();
    error_code ignored;
    tls_.lowest_layer().shutdown(tcp::socket::shutdown_both, ignored);
    tls_.lowest_layer().close(ignored);
    plain_.shutdown(local::socket::shutdown_both, ignored);
    plain_.close(ignored);
  }

  ssl::stream<tcp::socket> tls_;
  local::socket plain_;
  asio::steady_timer handshake_timer_;
  asio::steady_timer write_timer_;
  std::shared_ptr<std::size_t> handshakes_;
  std::string peer_;
  std::array<char, 16 * 1024> up_{};
  std::array<char, 16 * 1024> down_{};
  bool closed_ = false;
};

}  // namespace

TlsStreamListener::TlsStreamListener(asio::io_context& io, std::shared_ptr<ssl::context> tls,
                                     Adopt adopt)
    : io_(io), tls_(std::move(tls)), adopt_(std::move(adopt)) {}

TlsStreamListener::~TlsStreamListener() { shutdown(); }

std::optional<Error> TlsStreamListener::listen(const ListenAddress& address) {
  error_code error;
  const std::string host = address.host == "localhost" ? "127.0.0.1" : address.host;
  const auto ip = asio::ip::make_address(host, error);
  if (error) return Error{"--listen " + address.text + ": '" + host + "' is not an IP address"};
  const tcp::endpoint endpoint(ip, address.port);
  acceptor_.emplace(io_);
  acceptor_->open(endpoint.protocol(), error);
  if (!error) acceptor_->set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor_->bind(endpoint, error);
  if (!error) acceptor_->listen(asio::socket_base::max_listen_connections, error);
  if (error) return Error{"--listen " + address.text + ": " + error.message()};
  accept();
  return std::nullopt;
}

std::uint16_t TlsStreamListener::port() const {
  error_code ignored;
  return acceptor_ ? acceptor_->local_endpoint(ignored).port() : 0;
}

void TlsStreamListener::accept() {
  acceptor_->async_accept([this](const error_code& error, tcp::socket socket) {
    if (error == asio::error::operation_aborted) return;
    if (!error && *handshakes_ < kMaxHandshakes) {
      error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      const auto remote = socket.remote_endpoint(ignored);
      std::string peer = remote.address().to_string() + ":" + std::to_string(remote.port());
      std::make_shared<TlsPipe>(std::move(socket), *tls_, handshakes_, std::move(peer))
          ->start(adopt_);
    }
    accept();
  });
}

void TlsStreamListener::shutdown() {
  if (!acceptor_) return;
  error_code ignored;
  acceptor_->close(ignored);
}

}  // namespace eboard::daemon
