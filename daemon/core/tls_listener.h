// `--listen tls:HOST:PORT` (docs/interfaces.md §6.3): the binary stream of the Unix and TCP
// sockets, and control with the token, over standard TLS, so that no token crosses the
// venue network in clear. eboard-ctl --connect tls:HOST:PORT --ca FILE checks the server
// against the CA and the host name.
//
// Each connection's TLS is ended here and its plain bytes are passed through a local
// socket pair to an ordinary Consumer (consumer.h), adopted by the stream server like a
// TCP client (so the token is checked per command, and every cap and queue bound of the
// other sockets applies unchanged). The pipe between the two holds one 16 KiB buffer per
// direction: a TLS client that stops reading stops the pipe, the Consumer's own queue
// fills and it drops the client as it would on TCP. A handshake must finish within
// kHandshakeTimeout and a write to the client within kWriteTimeout; at most
// kMaxHandshakes handshakes are in progress at once (more connections are closed at once).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "daemon/core/config.h"
#include "daemon/core/consumer.h"

namespace eboard::daemon {

class TlsStreamListener {
 public:
  // Hands the plain end of a connection to the stream server, with the peer's name.
  using Adopt = std::function<void(Consumer::Socket socket, std::string peer)>;
  static constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
  static constexpr auto kWriteTimeout = std::chrono::seconds(30);
  static constexpr std::size_t kMaxHandshakes = 64;

  TlsStreamListener(boost::asio::io_context& io, std::shared_ptr<boost::asio::ssl::context> tls,
                    Adopt adopt);
  ~TlsStreamListener();
  TlsStreamListener(const TlsStreamListener&) = delete;
  TlsStreamListener& operator=(const TlsStreamListener&) = delete;

  std::optional<Error> listen(const ListenAddress& address);
  std::uint16_t port() const;
  void shutdown();
  std::size_t handshakes() const { return *handshakes_; }

 private:
  void accept();

  boost::asio::io_context& io_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  Adopt adopt_;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor_;
  // Shared with the pipes, which may outlive the listener by a callback.
  std::shared_ptr<std::size_t> handshakes_ = std::make_shared<std::size_t>(0);
};

}  // namespace eboard::daemon
