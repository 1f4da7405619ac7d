// The stream sockets (interfaces.md §2 --listen, §4): Unix sockets (mode 0660, so the
// file's group decides who may control) and TCP, loopback unless a host is given. Each
// accepted connection becomes a Consumer; the server keeps them until they finish.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <memory>
#include <string>
#include <vector>

#include "daemon/core/config.h"
#include "daemon/core/consumer.h"

namespace eboard::daemon {

class StreamServer {
 public:
  StreamServer(boost::asio::io_context& io, ConsumerContext& context);
  ~StreamServer();

  // Binds every address; the error names the address. Call before run().
  std::optional<Error> listen(const std::vector<ListenAddress>& addresses);
  // Says goodbye to every consumer and stops accepting (daemon shutdown).
  void shutdown();
  std::size_t consumer_count() const;
  // The TCP port actually bound for an address given with port 0 (tests).
  std::vector<std::uint16_t> tcp_ports() const;

 private:
  void accept_unix(std::size_t index);
  void accept_tcp(std::size_t index);
  void adopt(Consumer::Socket socket, Consumer::Transport transport, std::string peer);

  boost::asio::io_context& io_;
  ConsumerContext& context_;
  std::vector<std::unique_ptr<boost::asio::local::stream_protocol::acceptor>> unix_;
  std::vector<std::string> unix_paths_;
  std::vector<std::unique_ptr<boost::asio::ip::tcp::acceptor>> tcp_;
  std::vector<std::weak_ptr<Consumer>> consumers_;
};

}  // namespace eboard::daemon
