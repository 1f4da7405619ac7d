// The stream sockets (docs/interfaces.md §2 --listen, §4): Unix sockets (mode 0660, so the
// file's group decides who may control) and TCP, loopback unless a host is given. Each
// accepted connection becomes a Consumer; the server keeps them until they finish.
//
// Bounded by design: a listener keeps at most `max_connections` connections, and at most
// `max_connections_per_peer` from one peer (a TCP client's address, a Unix client's user
// id); a connection past either limit gets a goodbye (TOO_MANY_CONNECTIONS) and is closed
// at once, with a warning (one line with a count while it repeats, log.h). A failed
// accept (no file descriptor left: EMFILE, ENFILE; no memory) pauses that listener for
// kAcceptPause, with a warning, instead of retrying at once: the kernel reports the
// waiting connection again immediately, so an immediate retry spins a core. The waiting
// client stays in the listen backlog and is accepted once descriptors are free.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "daemon/core/config.h"
#include "daemon/core/consumer.h"
#include "daemon/core/log.h"

namespace eboard::daemon {

class StreamServer {
 public:
  StreamServer(boost::asio::io_context& io, ConsumerContext& context, Logger& log,
               ConnectionLimits limits = {});
  ~StreamServer();

  // Binds every address; the error names the address. Call before run().
  std::optional<Error> listen(const std::vector<ListenAddress>& addresses);
  // Says goodbye to every consumer and stops accepting (daemon shutdown).
  void shutdown();
  std::size_t consumer_count() const;
  // The TCP port actually bound for an address given with port 0 (tests).
  std::vector<std::uint16_t> tcp_ports() const;
  // Makes the plain end of a `--listen tls:` connection (tls_listener.h) a consumer of
  // that listener, as a TCP client (the token is needed for control), under the same
  // limits; `peer` is "tls:ADDRESS:PORT".
  void adopt(const std::string& listen_text, Consumer::Socket socket, std::string peer);

  static constexpr std::chrono::milliseconds kAcceptPause{500};

 private:
  struct Listener {
    std::string text;  // as given to --listen
    std::unique_ptr<boost::asio::local::stream_protocol::acceptor> unix;
    std::unique_ptr<boost::asio::ip::tcp::acceptor> tcp;
    std::unique_ptr<boost::asio::steady_timer> pause;
    struct Held {
      std::weak_ptr<Consumer> consumer;
      std::string peer_key;
    };
    std::vector<Held> held;
  };
  void accept(std::size_t index);
  void accepted(std::size_t index, Consumer::Socket socket, std::string peer, std::string peer_key);
  // Makes the socket a consumer of `listener`, or refuses it past a limit.
  void keep(Listener& listener, Consumer::Socket socket, std::string peer, std::string peer_key);
  void accept_failed(std::size_t index, const boost::system::error_code& error);
  // Why a new connection from `peer_key` may not be kept, "" when it may.
  std::string over_limit(Listener& listener, const std::string& peer_key);

  boost::asio::io_context& io_;
  ConsumerContext& context_;
  Logger& log_;
  ConnectionLimits limits_;
  std::vector<Listener> listeners_;
  std::vector<std::string> unix_paths_;
};

}  // namespace eboard::daemon
