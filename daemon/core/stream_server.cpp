#include "daemon/core/stream_server.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace eboard::daemon {
namespace {

using boost::system::error_code;
namespace asio = boost::asio;

}  // namespace

StreamServer::StreamServer(asio::io_context& io, ConsumerContext& context)
    : io_(io), context_(context) {}

StreamServer::~StreamServer() {
  for (const auto& path : unix_paths_) ::unlink(path.c_str());
}

std::optional<Error> StreamServer::listen(const std::vector<ListenAddress>& addresses) {
  for (const ListenAddress& address : addresses) {
    error_code error;
    if (address.kind == ListenAddress::Kind::kUnix) {
      // A socket file left by a crashed daemon would make bind fail; it is ours to remove.
      struct stat st {};
      if (::lstat(address.path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
        ::unlink(address.path.c_str());
      }
      auto acceptor = std::make_unique<asio::local::stream_protocol::acceptor>(io_);
      acceptor->open(asio::local::stream_protocol(), error);
      if (!error) acceptor->bind(asio::local::stream_protocol::endpoint(address.path), error);
      if (!error) acceptor->listen(asio::socket_base::max_listen_connections, error);
      if (error) return Error{"--listen " + address.text + ": " + error.message()};
      ::chmod(address.path.c_str(), 0660);
      unix_paths_.push_back(address.path);
      unix_.push_back(std::move(acceptor));
      accept_unix(unix_.size() - 1);
    } else {
      const std::string host = address.host == "localhost" ? "127.0.0.1" : address.host;
      const auto ip = asio::ip::make_address(host, error);
      if (error) return Error{"--listen " + address.text + ": '" + host + "' is not an IP address"};
      const asio::ip::tcp::endpoint endpoint(ip, address.port);
      auto acceptor = std::make_unique<asio::ip::tcp::acceptor>(io_);
      acceptor->open(endpoint.protocol(), error);
      if (!error) acceptor->set_option(asio::socket_base::reuse_address(true), error);
      if (!error) acceptor->bind(endpoint, error);
      if (!error) acceptor->listen(asio::socket_base::max_listen_connections, error);
      if (error) return Error{"--listen " + address.text + ": " + error.message()};
      tcp_.push_back(std::move(acceptor));
      accept_tcp(tcp_.size() - 1);
    }
  }
  return std::nullopt;
}

void StreamServer::accept_unix(std::size_t index) {
  unix_[index]->async_accept(
      [this, index](const error_code& error, asio::local::stream_protocol::socket socket) {
        if (error == asio::error::operation_aborted) return;
        if (!error) {
          adopt(Consumer::Socket(std::move(socket)), Consumer::Transport::kUnix,
                "unix:" + unix_paths_[index]);
        }
        accept_unix(index);
      });
}

void StreamServer::accept_tcp(std::size_t index) {
  tcp_[index]->async_accept([this, index](const error_code& error, asio::ip::tcp::socket socket) {
    if (error == asio::error::operation_aborted) return;
    if (!error) {
      error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);
      const auto remote = socket.remote_endpoint(ignored);
      adopt(Consumer::Socket(std::move(socket)), Consumer::Transport::kTcp,
            "tcp:" + remote.address().to_string() + ":" + std::to_string(remote.port()));
    }
    accept_tcp(index);
  });
}

void StreamServer::adopt(Consumer::Socket socket, Consumer::Transport transport, std::string peer) {
  consumers_.erase(std::remove_if(consumers_.begin(), consumers_.end(),
                                  [](const auto& weak) { return weak.expired(); }),
                   consumers_.end());
  auto consumer =
      std::make_shared<Consumer>(std::move(socket), transport, context_, std::move(peer));
  consumer->start();
  consumers_.push_back(consumer);
}

void StreamServer::shutdown() {
  error_code ignored;
  for (auto& acceptor : unix_) acceptor->close(ignored);
  for (auto& acceptor : tcp_) acceptor->close(ignored);
  for (auto& weak : consumers_) {
    if (auto consumer = weak.lock()) consumer->close(eboard::v1::GOODBYE_REASON_SHUTDOWN, "");
  }
}

std::size_t StreamServer::consumer_count() const {
  return static_cast<std::size_t>(
      std::count_if(consumers_.begin(), consumers_.end(), [](const auto& weak) {
        const auto consumer = weak.lock();
        return consumer && !consumer->closed();
      }));
}

std::vector<std::uint16_t> StreamServer::tcp_ports() const {
  std::vector<std::uint16_t> ports;
  error_code ignored;
  for (const auto& acceptor : tcp_) ports.push_back(acceptor->local_endpoint(ignored).port());
  return ports;
}

}  // namespace eboard::daemon
