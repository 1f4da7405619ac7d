// eboard-ctl's tcp: and tls: transports end to end: control over TCP needs the token
// file's token; over TLS the daemon's certificate must be signed by --ca and name the
// host connected to. The TLS end here is a relay in this test (Boost.Asio's ssl with a
// certificate made by the openssl program) in front of the daemon's TCP listener, so the
// client's checks are exercised whatever the daemon's own TLS listener does.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <thread>

#include "tests/daemon/ctl/ctl_e2e_helpers.h"

namespace eboard::daemon::ctl_test {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// A CA and a certificate for "localhost" signed by it, and a second CA that signed
// nothing.
bool make_certificates(const std::string& dir) {
  const std::string script =
      "cd " + dir +
      " && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "
      "/CN=test-ca -keyout ca.key "
      "-out ca.pem 2>/dev/null"
      " && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "
      "/CN=other-ca -keyout "
      "other.key -out other.pem 2>/dev/null"
      " && openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=localhost "
      "-keyout server.key -out "
      "server.csr 2>/dev/null"
      " && printf 'subjectAltName=DNS:localhost\\n' > san.ext"
      " && openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 "
      "-extfile san.ext -out server.pem 2>/dev/null";
  return std::system(script.c_str()) == 0;
}

// Accepts TLS connections on a loopback port and relays each to the daemon's TCP port.
class TlsRelay {
 public:
  TlsRelay(const std::string& dir, std::uint16_t daemon_port)
      : context_(asio::ssl::context::tls_server),
        acceptor_(io_, tcp::endpoint(tcp::v4(), 0)),
        daemon_port_(daemon_port) {
    context_.use_certificate_chain_file(dir + "/server.pem");
    context_.use_private_key_file(dir + "/server.key", asio::ssl::context::pem);
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~TlsRelay() {
    io_.stop();
    thread_.join();
  }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  struct Pair {
    explicit Pair(asio::io_context& io, asio::ssl::context& c) : tls(io, c), plain(io) {}
    asio::ssl::stream<tcp::socket> tls;
    tcp::socket plain;
    std::array<char, 16384> up{};
    std::array<char, 16384> down{};
  };

  void accept() {
    auto pair = std::make_shared<Pair>(io_, context_);
    acceptor_.async_accept(pair->tls.next_layer(), [this,
                                                    pair](const boost::system::error_code& e) {
      if (e) return;
      accept();
      pair->tls.async_handshake(asio::ssl::stream_base::server, [this, pair](const auto& he) {
        if (he) return;  // the client refused the certificate
        boost::system::error_code ce;
        pair->plain.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), daemon_port_), ce);
        if (ce) return;
        pump(pair, pair->tls, pair->plain, pair->up);
        pump(pair, pair->plain, pair->tls, pair->down);
      });
    });
  }

  template <class From, class To>
  static void pump(std::shared_ptr<Pair> pair, From& from, To& to,
                   std::array<char, 16384>& buffer) {
    from.async_read_some(
        asio::buffer(buffer), [pair, &from, &to, &buffer](const auto& e, std::size_t n) {
          if (e) return;
          asio::async_write(to, asio::buffer(buffer.data(), n),
                            [pair, &from, &to, &buffer](const auto& we, std::size_t) {
                              if (!we) pump(pair, from, to, buffer);
                            });
        });
  }

  asio::io_context io_;
  asio::ssl::context context_;
  tcp::acceptor acceptor_;
  std::uint16_t daemon_port_;
  std::thread thread_;
};

TEST(CtlTransports, TcpNeedsTheTokenTlsChecksTheCertificateAndHost) {
  const std::string dir = temp_dir("ctl-tls");
  ASSERT_TRUE(make_certificates(dir));
  std::ofstream(dir + "/token") << "let-me-in\n";
  std::ofstream(dir + "/wrong") << "guess\n";
  const std::uint16_t port = free_tcp_port();
  auto args = ctl_daemon_args(dir, {"b1=sim:" + idle_script(dir, "b1", kTwoMoves)});
  args.insert(args.end(), {"--listen", "tcp:127.0.0.1:" + std::to_string(port),
                           "--control-token-file", dir + "/token"});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  ASSERT_TRUE(wait_event(daemon, 0, [](const v1::Event& e) { return e.has_move_completed(); }));
  const std::string tcp_target = "tcp:127.0.0.1:" + std::to_string(port);

  const CtlRun read = ctl({"--connect", tcp_target, "status", "b1"});
  EXPECT_EQ(read.status, 0) << read.err;  // reading needs no token
  const CtlRun missing = ctl({"--connect", tcp_target, "pause", "b1"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.err, "eboard-ctl: b1: refused: command.token is missing\n");
  const CtlRun wrong =
      ctl({"--connect", tcp_target, "--token-file", dir + "/wrong", "pause", "b1"});
  EXPECT_EQ(wrong.status, 1);
  EXPECT_EQ(wrong.err, "eboard-ctl: b1: refused: command.token is wrong\n");
  const CtlRun right =
      ctl({"--connect", tcp_target, "--token-file", dir + "/token", "pause", "b1"});
  EXPECT_EQ(right.status, 0) << right.err;

  TlsRelay relay(dir, port);
  const std::string tls_target = "tls:localhost:" + std::to_string(relay.port());
  const CtlRun over_tls = ctl({"--connect", tls_target, "--ca", dir + "/ca.pem", "--token-file",
                               dir + "/token", "resume", "b1"});
  EXPECT_EQ(over_tls.status, 0) << over_tls.err;
  EXPECT_TRUE(wait_event(daemon, 0, [](const v1::Event& e) {
    return e.has_command_applied() && e.command_applied().command().has_resume() &&
           e.command_applied().outcome().ok();
  }));
  const CtlRun other_ca = ctl({"--connect", tls_target, "--ca", dir + "/other.pem", "status"});
  EXPECT_EQ(other_ca.status, 3);
  EXPECT_NE(other_ca.err.find("certificate verify failed"), std::string::npos) << other_ca.err;
  // The certificate names localhost, not 127.0.0.1.
  const CtlRun other_host = ctl({"--connect", "tls:127.0.0.1:" + std::to_string(relay.port()),
                                 "--ca", dir + "/ca.pem", "status"});
  EXPECT_EQ(other_host.status, 3);
  EXPECT_NE(other_host.err.find("certificate verify failed"), std::string::npos) << other_host.err;
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon::ctl_test
