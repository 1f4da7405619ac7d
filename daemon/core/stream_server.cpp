#include "daemon/core/stream_server.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "eboard/v1/framing.h"

namespace eboard::daemon {
namespace {

using boost::system::error_code;
namespace asio = boost::asio;

// Who is on the other end of a Unix socket, as the kernel vouches (SO_PEERCRED): its user
// id is the peer of the per-peer limit; user and process id name the client in a
// command's audit record. The listener's own name when it cannot be had.
struct UnixPeer {
  std::string key;
  std::string text;
};
UnixPeer unix_peer(int fd, const std::string& listener) {
  ucred credentials{};
  socklen_t length = sizeof credentials;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
    return {"uid:?", listener};
  }
  const std::string uid = std::to_string(credentials.uid);
  return {"uid:" + uid, "unix:uid=" + uid + ",pid=" + std::to_string(credentials.pid)};
}

}  // namespace

StreamServer::StreamServer(asio::io_context& io, ConsumerContext& context, Logger& log,
                           ConnectionLimits limits)
    : io_(io), context_(context), log_(log), limits_(limits) {}

StreamServer::~StreamServer() {
  for (const auto& path : unix_paths_) ::unlink(path.c_str());
}

std::optional<Error> StreamServer::listen(const std::vector<ListenAddress>& addresses) {
  listeners_.reserve(addresses.size());
  for (const ListenAddress& address : addresses) {
    error_code error;
    Listener listener;
    listener.text = address.text;
    listener.pause = std::make_unique<asio::steady_timer>(io_);
    if (address.kind == ListenAddress::Kind::kTls) {
      // tls_listener.h accepts these and hands them on (adopt); only their limits are here.
      listeners_.push_back(std::move(listener));
      continue;
    }
    if (address.kind == ListenAddress::Kind::kUnix) {
      // A socket file left by a crashed daemon would make bind fail; it is ours to remove.
      struct stat st {};
      if (::lstat(address.path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
        ::unlink(address.path.c_str());
      }
      listener.unix = std::make_unique<asio::local::stream_protocol::acceptor>(io_);
      listener.unix->open(asio::local::stream_protocol(), error);
      if (!error) listener.unix->bind(asio::local::stream_protocol::endpoint(address.path), error);
      if (!error) listener.unix->listen(asio::socket_base::max_listen_connections, error);
      if (error) return Error{"--listen " + address.text + ": " + error.message()};
      ::chmod(address.path.c_str(), 0660);
      unix_paths_.push_back(address.path);
    } else {
      const std::string host = address.host == "localhost" ? "127.0.0.1" : address.host;
      const auto ip = asio::ip::make_address(host, error);
      if (error) return Error{"--listen " + address.text + ": '" + host + "' is not an IP address"};
      const asio::ip::tcp::endpoint endpoint(ip, address.port);
      listener.tcp = std::make_unique<asio::ip::tcp::acceptor>(io_);
      listener.tcp->open(endpoint.protocol(), error);
      if (!error) listener.tcp->set_option(asio::socket_base::reuse_address(true), error);
      if (!error) listener.tcp->bind(endpoint, error);
      if (!error) listener.tcp->listen(asio::socket_base::max_listen_connections, error);
      if (error) return Error{"--listen " + address.text + ": " + error.message()};
    }
    listeners_.push_back(std::move(listener));
    accept(listeners_.size() - 1);
  }
  return std::nullopt;
}

void StreamServer::accept(std::size_t index) {
  Listener& listener = listeners_[index];
  if (!listener.unix && !listener.tcp) return;  // tls:, accepted by tls_listener.h
  if (listener.unix) {
    listener.unix->async_accept(
        [this, index](const error_code& error, asio::local::stream_protocol::socket socket) {
          if (error == asio::error::operation_aborted) return;
          if (error) return accept_failed(index, error);
          UnixPeer peer = unix_peer(socket.native_handle(), listeners_[index].text);
          accepted(index, Consumer::Socket(std::move(socket)), std::move(peer.text),
                   std::move(peer.key));
        });
    return;
  }
  listener.tcp->async_accept([this, index](const error_code& error, asio::ip::tcp::socket socket) {
    if (error == asio::error::operation_aborted) return;
    if (error) return accept_failed(index, error);
    error_code ignored;
    socket.set_option(asio::ip::tcp::no_delay(true), ignored);
    const auto remote = socket.remote_endpoint(ignored);
    std::string key = "tcp:" + remote.address().to_string();
    accepted(index, Consumer::Socket(std::move(socket)), key + ":" + std::to_string(remote.port()),
             std::move(key));
  });
}

void StreamServer::accept_failed(std::size_t index, const error_code& error) {
  Listener& listener = listeners_[index];
  // A client that reset before it was accepted is its own problem; anything else (no
  // descriptor, no memory) lasts, and an immediate retry would spin.
  if (error == asio::error::connection_aborted) return accept(index);
  log_.warning("--listen " + listener.text + ": cannot accept: " + error.message() +
               "; accepting again in " + std::to_string(kAcceptPause.count()) + " ms");
  listener.pause->expires_after(kAcceptPause);
  listener.pause->async_wait([this, index](const error_code& e) {
    if (!e) accept(index);
  });
}

std::string StreamServer::over_limit(Listener& listener, const std::string& peer_key) {
  auto& held = listener.held;
  held.erase(std::remove_if(held.begin(), held.end(),
                            [](const Listener::Held& h) {
                              const auto consumer = h.consumer.lock();
                              return !consumer || consumer->closed();
                            }),
             held.end());
  if (held.size() >= limits_.max_connections) {
    return std::to_string(held.size()) + " connections held (--max-connections)";
  }
  const auto same_peer = static_cast<std::size_t>(std::count_if(
      held.begin(), held.end(), [&](const Listener::Held& h) { return h.peer_key == peer_key; }));
  if (same_peer >= limits_.max_connections_per_peer) {
    return std::to_string(same_peer) + " connections held from " + peer_key +
           " (--max-connections-per-peer)";
  }
  return "";
}

void StreamServer::accepted(std::size_t index, Consumer::Socket socket, std::string peer,
                            std::string peer_key) {
  keep(listeners_[index], std::move(socket), std::move(peer), std::move(peer_key));
  accept(index);
}

void StreamServer::adopt(const std::string& listen_text, Consumer::Socket socket,
                         std::string peer) {
  const auto listener = std::find_if(listeners_.begin(), listeners_.end(),
                                     [&](const Listener& l) { return l.text == listen_text; });
  if (listener == listeners_.end()) return;  // not listening: the socket closes here
  // The peer of the per-peer limit is the client's address, without its port.
  std::string peer_key = peer.substr(0, peer.rfind(':'));
  keep(*listener, std::move(socket), std::move(peer), std::move(peer_key));
}

void StreamServer::keep(Listener& listener, Consumer::Socket socket, std::string peer,
                        std::string peer_key) {
  if (const std::string why = over_limit(listener, peer_key); !why.empty()) {
    // No key with a port in it: the warning repeats with the same text (log.h).
    log_.warning("--listen " + listener.text + ": connection from " + peer_key +
                 " refused: " + why);
    eboard::v1::Frame frame;
    frame.mutable_goodbye()->set_reason(eboard::v1::GOODBYE_REASON_TOO_MANY_CONNECTIONS);
    frame.mutable_goodbye()->set_detail(why);
    const std::string bytes = proto::encode_delimited(frame);
    error_code ignored;
    // A new socket's send buffer takes these few bytes at once; never wait for it.
    socket.non_blocking(true, ignored);
    socket.write_some(asio::buffer(bytes), ignored);
    socket.shutdown(Consumer::Socket::shutdown_both, ignored);
    socket.close(ignored);
  } else {
    auto consumer = std::make_shared<Consumer>(
        std::move(socket), listener.unix ? Consumer::Transport::kUnix : Consumer::Transport::kTcp,
        context_, std::move(peer));
    consumer->start();
    listener.held.push_back(Listener::Held{consumer, std::move(peer_key)});
  }
}

void StreamServer::shutdown() {
  error_code ignored;
  for (Listener& listener : listeners_) {
    if (listener.unix) listener.unix->close(ignored);
    if (listener.tcp) listener.tcp->close(ignored);
    listener.pause->cancel();
    for (auto& held : listener.held) {
      if (auto consumer = held.consumer.lock()) {
        consumer->close(eboard::v1::GOODBYE_REASON_SHUTDOWN, "");
      }
    }
  }
}

std::size_t StreamServer::consumer_count() const {
  std::size_t count = 0;
  for (const Listener& listener : listeners_) {
    count += static_cast<std::size_t>(
        std::count_if(listener.held.begin(), listener.held.end(), [](const Listener::Held& h) {
          const auto consumer = h.consumer.lock();
          return consumer && !consumer->closed();
        }));
  }
  return count;
}

std::vector<std::uint16_t> StreamServer::tcp_ports() const {
  std::vector<std::uint16_t> ports;
  error_code ignored;
  for (const Listener& listener : listeners_) {
    if (listener.tcp) ports.push_back(listener.tcp->local_endpoint(ignored).port());
  }
  return ports;
}

}  // namespace eboard::daemon
