#include "daemon/programs/eboard_ctl/ctl_connection.h"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include "eboard/v1/framing.h"

namespace eboard::daemon::ctl {
namespace {

namespace asio = boost::asio;
namespace v1 = eboard::v1;
using boost::system::error_code;

struct Target {
  enum class Kind : std::uint8_t { kUnix, kTcp, kTls } kind = Kind::kUnix;
  std::string path;  // kUnix
  std::string host;  // kTcp, kTls
  std::string port;
};

Result<Target> parse_target(const std::string& text) {
  Target t;
  if (text.starts_with("unix:")) {
    t.path = text.substr(5);
    if (t.path.empty()) return Error{"--connect '" + text + "': no socket path"};
    return t;
  }
  const bool tcp = text.starts_with("tcp:");
  if (!tcp && !text.starts_with("tls:")) {
    return Error{"--connect '" + text + "': expected unix:PATH, tcp:HOST:PORT or tls:HOST:PORT"};
  }
  t.kind = tcp ? Target::Kind::kTcp : Target::Kind::kTls;
  const std::string rest = text.substr(4);
  const auto colon = rest.rfind(':');
  t.host = colon == std::string::npos ? "" : rest.substr(0, colon);
  t.port = colon == std::string::npos ? "" : rest.substr(colon + 1);
  if (t.host.size() > 2 && t.host.front() == '[' && t.host.back() == ']') {
    t.host = t.host.substr(1, t.host.size() - 2);
  }
  const bool port_ok = !t.port.empty() && t.port.size() <= 5 &&
                       t.port.find_first_not_of("0123456789") == std::string::npos &&
                       std::stoi(t.port) > 0 && std::stoi(t.port) <= 65535;
  if (t.host.empty() || !port_ok) {
    return Error{"--connect '" + text + "': expected " + text.substr(0, 4) + "HOST:PORT"};
  }
  return t;
}

// Runs `io` until `done` or the deadline; false on the deadline.
bool run_until(asio::io_context& io, const bool& done, std::chrono::steady_clock::time_point end) {
  io.restart();
  while (!done) {
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return false;
    if (io.run_one_for(left) == 0 && io.stopped()) io.restart();
  }
  return true;
}

// One stream type behind the interface: a Unix socket, a TCP socket or a TLS stream.
template <class Stream>
class StreamConnection final : public Connection {
 public:
  StreamConnection(std::unique_ptr<asio::io_context> io, std::unique_ptr<Stream> stream,
                   std::chrono::milliseconds timeout)
      : io_(std::move(io)), stream_(std::move(stream)), timeout_(timeout) {}

  std::optional<Error> send(const v1::Frame& frame) override {
    const std::string bytes = proto::encode_delimited(frame);
    bool done = false;
    error_code failed;
    asio::async_write(*stream_, asio::buffer(bytes), [&](const error_code& e, std::size_t) {
      failed = e;
      done = true;
    });
    if (!run_until(*io_, done, std::chrono::steady_clock::now() + timeout_)) {
      return Error{"the daemon did not take the request within the timeout"};
    }
    if (failed) return Error{"sending to the daemon: " + failed.message()};
    return std::nullopt;
  }

  Result<v1::Frame> next(const std::function<bool(const v1::Frame&)>& wanted) override {
    const auto end = std::chrono::steady_clock::now() + timeout_;
    v1::Frame frame;
    for (;;) {
      auto status = reader_.next(frame);
      if (!status) return Error{"a bad frame from the daemon: " + status.error()};
      if (status.value() == proto::ReadStatus::kMessage) {
        if (frame.has_goodbye()) {
          return Error{"the daemon closed the connection: " +
                       v1::GoodbyeReason_Name(frame.goodbye().reason()) +
                       (frame.goodbye().detail().empty() ? "" : ": " + frame.goodbye().detail())};
        }
        if (wanted(frame)) return frame;
        continue;
      }
      bool done = false;
      error_code failed;
      std::size_t got = 0;
      stream_->async_read_some(asio::buffer(buffer_), [&](const error_code& e, std::size_t n) {
        failed = e;
        got = n;
        done = true;
      });
      if (!run_until(*io_, done, end)) return Error{"no answer from the daemon within the timeout"};
      if (failed) {
        return Error{failed == asio::error::eof ? "the daemon closed the connection"
                                                : "reading from the daemon: " + failed.message()};
      }
      reader_.feed(std::string_view(buffer_.data(), got));
    }
  }

  std::optional<Error> read_hello() {
    auto hello = next([](const v1::Frame& f) { return f.has_hello(); });
    if (!hello) return Error{hello.error()};
    hello_ = hello->hello();
    return std::nullopt;
  }

 private:
  std::unique_ptr<asio::io_context> io_;  // outlives the stream built on it
  std::unique_ptr<Stream> stream_;
  std::chrono::milliseconds timeout_;
  proto::FrameReader reader_{std::size_t{16} << 20};  // a status of many long games
  std::array<char, 65536> buffer_{};
};

template <class Stream>
Result<std::unique_ptr<Connection>> finish(std::unique_ptr<asio::io_context> io,
                                           std::unique_ptr<Stream> stream,
                                           std::chrono::milliseconds timeout) {
  auto connection =
      std::make_unique<StreamConnection<Stream>>(std::move(io), std::move(stream), timeout);
  if (auto error = connection->read_hello()) return *error;
  return std::unique_ptr<Connection>(std::move(connection));
}

std::string why(const std::string& where, const error_code& e) {
  std::string text = where + ": " + e.message();
  if (e == asio::error::access_denied) {
    text += " (control over the Unix socket needs its permissions: the eboardd group)";
  }
  return text;
}

Result<std::unique_ptr<Connection>> open_unix(const Target& t, std::chrono::milliseconds timeout) {
  auto io = std::make_unique<asio::io_context>(1);
  auto socket = std::make_unique<asio::local::stream_protocol::socket>(*io);
  error_code e;
  socket->connect(asio::local::stream_protocol::endpoint(t.path), e);
  if (e) return Error{why(t.path, e)};
  return finish(std::move(io), std::move(socket), timeout);
}

// Resolves and connects `socket` within the deadline.
std::optional<Error> connect_tcp(asio::io_context& io, asio::ip::tcp::socket& socket,
                                 const Target& t, std::chrono::steady_clock::time_point end) {
  asio::ip::tcp::resolver resolver(io);
  bool done = false;
  error_code failed;
  resolver.async_resolve(
      t.host, t.port, [&](const error_code& e, asio::ip::tcp::resolver::results_type r) {
        if (e) {
          failed = e;
          done = true;
          return;
        }
        asio::async_connect(socket, r, [&](const error_code& ce, const asio::ip::tcp::endpoint&) {
          failed = ce;
          done = true;
        });
      });
  const std::string where = t.host + ":" + t.port;
  if (!run_until(io, done, end)) return Error{where + ": no connection within the timeout"};
  if (failed) return Error{why(where, failed)};
  error_code ignored;
  socket.set_option(asio::ip::tcp::no_delay(true), ignored);
  return std::nullopt;
}

Result<std::unique_ptr<Connection>> open_tcp(const Target& t, std::chrono::milliseconds timeout) {
  auto io = std::make_unique<asio::io_context>(1);
  auto socket = std::make_unique<asio::ip::tcp::socket>(*io);
  if (auto error = connect_tcp(*io, *socket, t, std::chrono::steady_clock::now() + timeout)) {
    return *error;
  }
  return finish(std::move(io), std::move(socket), timeout);
}

using TlsStream = asio::ssl::stream<asio::ip::tcp::socket>;

Result<std::unique_ptr<Connection>> open_tls(const Target& t, const std::string& ca,
                                             std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  auto io = std::make_unique<asio::io_context>(1);
  // Kept alive by the stream's SSL object (OpenSSL counts references to SSL_CTX).
  asio::ssl::context context(asio::ssl::context::tls_client);
  context.set_options(asio::ssl::context::no_sslv2 | asio::ssl::context::no_sslv3 |
                      asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
  error_code e;
  if (ca.empty()) {
    context.set_default_verify_paths(e);
  } else {
    context.load_verify_file(ca, e);
  }
  if (e) return Error{"--ca " + ca + ": " + e.message()};
  context.set_verify_mode(asio::ssl::verify_peer);
  auto stream = std::make_unique<TlsStream>(*io, context);
  stream->set_verify_callback(asio::ssl::host_name_verification(t.host));
  // SNI, so a daemon behind a name-based proxy picks the right certificate.
  SSL_set_tlsext_host_name(stream->native_handle(), t.host.c_str());
  if (auto error = connect_tcp(*io, stream->next_layer(), t, end)) return *error;
  bool done = false;
  error_code failed;
  stream->async_handshake(asio::ssl::stream_base::client, [&](const error_code& he) {
    failed = he;
    done = true;
  });
  const std::string where = t.host + ":" + t.port;
  if (!run_until(*io, done, end)) return Error{where + ": no TLS handshake within the timeout"};
  if (failed) return Error{where + ": TLS handshake: " + failed.message()};
  return finish(std::move(io), std::move(stream), timeout);
}

}  // namespace

std::optional<std::string> check_target(const std::string& target) {
  auto t = parse_target(target);
  if (!t) return t.error();
  return std::nullopt;
}

Result<std::unique_ptr<Connection>> Connection::open(const std::string& target,
                                                     const std::string& ca,
                                                     std::chrono::milliseconds timeout) {
  auto t = parse_target(target);
  if (!t) return Error{t.error()};
  switch (t->kind) {
    case Target::Kind::kUnix: return open_unix(t.value(), timeout);
    case Target::Kind::kTcp: return open_tcp(t.value(), timeout);
    case Target::Kind::kTls: return open_tls(t.value(), ca, timeout);
  }
  return Error{"unreachable"};
}

}  // namespace eboard::daemon::ctl
