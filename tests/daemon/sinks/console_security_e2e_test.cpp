// What the arbiter console refuses (docs/interfaces.md §6.3), against a real eboardd over
// TLS with a venue certificate: commands without a session, with a wrong or an expired
// one, from another site or without an Origin, a GET where a POST is needed, a body a
// plain HTML form could send; a wrong token (refused, held back, then the address locked
// out); plain HTTP off the loopback (no control, not even with a session) and a loopback
// reached under a foreign name; TLS clients that trust another CA (refused by their own
// check, on --https and on --listen tls:, where the venue CA's client gets through). A
// refused request changes nothing: the next accepted command's first event directly
// follows the audit record (commandApplied) of the one before the refused ones. A
// session's expiry and the length of a lock-out are matters of time, tested with the time
// injected (console_http_test.cpp).
#include <gtest/gtest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <future>
#include <sstream>
#include <utility>

#include "eboard/v1/framing.h"
#include "eboard/v1/json.h"
#include "tests/daemon/sinks/console_helpers.h"

namespace eboard::daemon::broadcast_test {
namespace {

namespace asio = boost::asio;
const std::string kToken = "venue-token-0b8e3c2a9f71d645";

std::vector<v1::Event> printed(const std::string& out) {
  std::vector<v1::Event> events;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (auto e = proto::event_from_json(line); e.ok()) events.push_back(std::move(e).value());
  }
  return events;
}

// The seq of the audit record (commandApplied) the daemon published for the applied
// command whose first event was `first_seq`; 0 while it is not printed yet. The record
// follows the command's own events, so waiting for those alone races with it.
std::uint32_t audit_record_seq(const std::string& out, std::uint32_t first_seq) {
  for (const v1::Event& e : printed(out)) {
    if (e.has_command_applied() && e.command_applied().outcome().ok() &&
        e.command_applied().outcome().seq() == first_seq)
      return e.seq();
  }
  return 0;
}

struct Daemon {
  std::string dir = temp_dir("console-sec");
  Certificates certs = make_certificates(dir);
  std::uint16_t https = free_tcp_port();
  std::uint16_t open_http = free_tcp_port();  // bound to 0.0.0.0: no control
  std::uint16_t tls_stream = free_tcp_port();
  std::unique_ptr<Child> child;

  explicit Daemon(const std::string& session_seconds) {
    std::ofstream(dir + "/token") << kToken << "\n";
    child = std::make_unique<Child>(
        std::vector<std::string>{kBin + "/eboardd",
                                 "--https",
                                 "127.0.0.1:" + std::to_string(https),
                                 "--tls-cert",
                                 certs.cert,
                                 "--tls-key",
                                 certs.key,
                                 "--http",
                                 "0.0.0.0:" + std::to_string(open_http),
                                 "--control-token-file",
                                 dir + "/token",
                                 "--console-session-lifetime",
                                 session_seconds,
                                 "--journal",
                                 dir + "/journal",
                                 "--journal-fsync",
                                 "never",
                                 "--runtime-dir",
                                 dir,
                                 "--listen",
                                 "unix:" + dir + "/events.sock",
                                 "--listen",
                                 "tls:127.0.0.1:" + std::to_string(tls_stream),
                                 "--print",
                                 "json",
                                 "--board",
                                 "s1=sim:" + idle_script(dir, "s1")});
  }
  HttpsReply post(const std::string& target, const std::string& headers, const std::string& body) {
    return https_request(https, certs.ca, "POST", target, headers, body);
  }
  HttpsReply command(const std::string& headers, const std::string& action) {
    return post("/arbiter/command", headers, "{\"boardId\":\"s1\"," + action + "}");
  }
};

const std::string kAddTime = R"("addTime":{"side":"SIDE_WHITE","deltaMs":30000})";

TEST(ConsoleSecurityE2e, RefusedRequestsChangeNothing) {
  Daemon d("3600");
  ASSERT_FALSE(d.certs.spki.empty());
  ASSERT_TRUE(d.child->wait_for_stdout("\"gameStarted\"", 20s)) << d.child->err();
  const std::string site = same_site(d.https);

  const HttpsReply login = d.post("/arbiter/login", site, "{\"token\":\"" + kToken + "\"}");
  ASSERT_EQ(login.status, 200) << login.body << login.error;
  const std::string set_cookie = login.headers.at("set-cookie");
  for (const char* attribute : {"HttpOnly", "Secure", "SameSite=Strict", "Max-Age=3600", "Path=/"})
    EXPECT_NE(set_cookie.find(attribute), std::string::npos) << attribute << ": " << set_cookie;
  const std::string cookie = cookie_header(set_cookie);

  // A first accepted command, so that the board has published something to compare with.
  HttpsReply ok = d.command(site + cookie, kAddTime);
  ASSERT_EQ(ok.status, 200) << ok.body;
  const auto first = proto::frame_from_json("{\"ack\":" + ok.body + "}");
  ASSERT_TRUE(first.ok() && first->ack().ok()) << ok.body;
  ASSERT_NE(first->ack().seq(), 0u) << ok.body;
  ASSERT_TRUE(d.child->wait_for(
      [&](const std::string& out, const std::string&) {
        return audit_record_seq(out, first->ack().seq()) != 0;
      },
      10s))
      << d.child->out();
  const std::uint32_t before = audit_record_seq(d.child->out(), first->ack().seq());

  std::string wrong = cookie;
  wrong[wrong.find('=') + 5] = wrong[wrong.find('=') + 5] == 'a' ? 'b' : 'a';
  const std::string json = "Content-Type: application/json\r\n";
  EXPECT_EQ(d.command(site, kAddTime).status, 401) << "no session";
  EXPECT_EQ(d.command(site + wrong, kAddTime).status, 401) << "a wrong session";
  EXPECT_EQ(d.command("Origin: https://evil.example\r\n" + json + cookie, kAddTime).status, 403);
  EXPECT_EQ(d.command("Origin: null\r\n" + json + cookie, kAddTime).status, 403);
  EXPECT_EQ(d.command(json + cookie, kAddTime).status, 403) << "no Origin";
  EXPECT_EQ(d.command("Origin: https://127.0.0.1:" + std::to_string(d.https) +
                          "\r\nContent-Type: application/x-www-form-urlencoded\r\n" + cookie,
                      kAddTime)
                .status,
            415)
      << "a body a plain HTML form can send";
  EXPECT_EQ(
      https_request(d.https, d.certs.ca, "GET", "/arbiter/command?boardId=s1&addTime=1", cookie)
          .status,
      405);
  EXPECT_EQ(d.command(site + cookie, R"("token":")" + kToken + R"(","pause":{})").status, 400);

  // The next accepted command, and its audit record. Between the two commands the board
  // published nothing a command caused: no other audit record (every command that reaches
  // a board gets one, applied or refused), and White's clock, which each refused addTime
  // would have raised by 30 s, gained nothing; the emulated clock's own reports of its
  // times may come in between at any moment, and only run it down.
  ok = d.command(site + cookie, kAddTime);
  const auto second = proto::frame_from_json("{\"ack\":" + ok.body + "}");
  ASSERT_TRUE(second.ok() && second->ack().ok()) << ok.body;
  ASSERT_GT(second->ack().seq(), before) << ok.body;
  ASSERT_TRUE(d.child->wait_for(
      [&](const std::string& out, const std::string&) {
        return audit_record_seq(out, second->ack().seq()) != 0;
      },
      10s))
      << d.child->out();
  const std::vector<v1::Event> events = printed(d.child->out());
  std::int64_t white_after_first = -1;
  int records = 0;
  for (const v1::Event& e : events) {
    if (e.has_command_applied()) ++records;
    if (e.seq() <= before && e.has_clock()) white_after_first = e.clock().white_ms();
  }
  ASSERT_GE(white_after_first, 0) << d.child->out();
  EXPECT_EQ(records, 2) << "only the two accepted commands reached the board";
  for (const v1::Event& e : events) {
    if (e.seq() <= before || e.seq() >= second->ack().seq()) continue;
    EXPECT_FALSE(e.has_command_applied()) << "seq " << e.seq();
    if (e.has_clock()) {
      EXPECT_LE(e.clock().white_ms(), white_after_first + 1000) << "seq " << e.seq();
    }
  }
  EXPECT_EQ(d.child->out().find(kToken), std::string::npos);
  EXPECT_EQ(d.child->err().find(kToken), std::string::npos);
}

// The daemon's own timer holds a wrong login's answer back; meanwhile the address is
// locked out, and a second login from it is refused at once. How long the lock-out lasts,
// and that the right token works after it, is a matter of time, tested with the time
// injected (console_http_test.cpp, console_auth_test.cpp).
TEST(ConsoleSecurityE2e, WrongTokenIsHeldBackThenLockedOut) {
  Daemon d("3600");
  ASSERT_TRUE(d.child->wait_for_stderr("https: serving on", 20s)) << d.child->err();
  const std::string site = same_site(d.https);
  const auto start = std::chrono::steady_clock::now();
  auto wrong = std::async(std::launch::async, [&] {
    HttpsReply reply = d.post("/arbiter/login", site, R"({"token":"guess"})");
    return std::make_pair(std::move(reply), std::chrono::steady_clock::now() - start);
  });
  // Logged as soon as the token is found wrong, before the answer goes.
  ASSERT_TRUE(d.child->wait_for_stderr("console: wrong token from 127.0.0.1", 5s))
      << d.child->err();
  const HttpsReply locked = d.post("/arbiter/login", site, "{\"token\":\"" + kToken + "\"}");
  EXPECT_EQ(locked.status, 429) << locked.body;
  EXPECT_EQ(locked.headers.count("set-cookie"), 0u);
  EXPECT_TRUE(locked.headers.count("retry-after"));
  const auto [refused, took] = wrong.get();
  EXPECT_EQ(refused.status, 401) << refused.body;
  EXPECT_EQ(refused.headers.count("set-cookie"), 0u);
  EXPECT_GE(took, 900ms) << "a wrong login is answered late";
  EXPECT_EQ(d.child->err().find("guess"), std::string::npos);
  EXPECT_EQ(d.child->err().find(kToken), std::string::npos);
}

TEST(ConsoleSecurityE2e, PlainHttpOffTheLoopbackAndForeignHostsGetNoControl) {
  Daemon d("3600");
  ASSERT_TRUE(d.child->wait_for_stderr("https: serving on", 20s)) << d.child->err();
  // --http 0.0.0.0: reachable from the venue network, so read-only for everyone.
  const std::string origin = "Origin: http://127.0.0.1:" + std::to_string(d.open_http) + "\r\n";
  const HttpReply session = http_get(d.open_http, "/arbiter/session");
  EXPECT_NE(session.body.find("\"control\":false"), std::string::npos) << session.body;
  EXPECT_EQ(http_get(d.open_http, "/arbiter").status, 200) << "the page is there, read-only";
  const auto post = [](std::uint16_t port, const std::string& target, const std::string& headers) {
    return http_request(port, "POST", target, headers + "Content-Type: application/json\r\n",
                        "{\"token\":\"" + kToken + "\"}");
  };
  EXPECT_EQ(post(d.open_http, "/arbiter/login", origin).status, 403);
  EXPECT_EQ(post(d.open_http, "/arbiter/command", origin).status, 403);
  // Not even with a session from the HTTPS listener: nothing a command does happens over
  // plain HTTP there. The command after it, over HTTPS, is the only one with an audit
  // record (every command that reaches a board gets one).
  ASSERT_TRUE(d.child->wait_for_stdout("\"gameStarted\"", 20s)) << d.child->err();
  const std::string https_site = same_site(d.https);
  const HttpsReply session_login =
      d.post("/arbiter/login", https_site, "{\"token\":\"" + kToken + "\"}");
  ASSERT_EQ(session_login.status, 200) << session_login.body;
  const std::string cookie = cookie_header(session_login.headers.at("set-cookie"));
  EXPECT_EQ(http_request(d.open_http, "POST", "/arbiter/command",
                         origin + cookie + "Content-Type: application/json\r\n",
                         "{\"boardId\":\"s1\"," + kAddTime + "}")
                .status,
            403);
  const HttpsReply ok = d.command(https_site + cookie, kAddTime);
  const auto applied = proto::frame_from_json("{\"ack\":" + ok.body + "}");
  ASSERT_TRUE(applied.ok() && applied->ack().ok()) << ok.body;
  ASSERT_TRUE(d.child->wait_for(
      [&](const std::string& out, const std::string&) {
        return audit_record_seq(out, applied->ack().seq()) != 0;
      },
      10s))
      << d.child->out();
  int records = 0;
  for (const v1::Event& e : printed(d.child->out())) records += e.has_command_applied();
  EXPECT_EQ(records, 1) << d.child->out();
  // --http 127.0.0.1 gives control after a login, but not to a page that reached it under
  // another name (DNS rebinding: Origin and Host agree, and are not the loopback's).
  const std::uint16_t loopback = free_tcp_port();
  Child local({kBin + "/eboardd", "--http", "127.0.0.1:" + std::to_string(loopback),
               "--control-token-file", d.dir + "/token", "--journal", d.dir + "/journal2",
               "--journal-fsync", "never", "--runtime-dir", d.dir, "--listen",
               "unix:" + d.dir + "/events2.sock", "--board", "s2=sim:" + idle_script(d.dir, "s2")});
  ASSERT_TRUE(local.wait_for_stderr("http: serving on", 20s)) << local.err();
  const std::string evil = "evil.example:" + std::to_string(loopback);
  const std::string login = "{\"token\":\"" + kToken + "\"}";
  const std::string json = "Content-Type: application/json\r\n";
  EXPECT_EQ(http_request(loopback, "POST", "/arbiter/login",
                         "Origin: http://" + evil + "\r\n" + json, login, evil)
                .status,
            403);
  EXPECT_EQ(
      http_request(loopback, "POST", "/arbiter/login",
                   "Origin: http://127.0.0.1:" + std::to_string(loopback) + "\r\n" + json, login)
          .status,
      200);
  // A client that trusts another CA refuses the daemon (its own check of the certificate
  // fails), on both TLS listeners; one that trusts the venue CA gets through.
  ASSERT_TRUE(d.child->wait_for_stderr("listening on tls:", 20s)) << d.child->err();
  for (const std::uint16_t port : {d.https, d.tls_stream}) {
    const HttpsReply foreign = https_request(port, d.certs.other_ca, "GET", "/arbiter/session");
    EXPECT_EQ(foreign.status, 0) << port;
    EXPECT_NE(foreign.error.find("certificate verify failed"), std::string::npos)
        << port << ": " << foreign.error;
    // On the stream, which speaks no HTTP, the request fails after the handshake.
    const HttpsReply venue = https_request(port, d.certs.ca, "GET", "/arbiter/session");
    EXPECT_EQ(venue.error.find("certificate verify failed"), std::string::npos)
        << port << ": " << venue.error;
  }
  EXPECT_EQ(https_request(d.https, d.certs.ca, "GET", "/arbiter/session").status, 200);
}

// The binary stream over --listen tls: with the token, as eboard-ctl --connect tls: uses it.
TEST(ConsoleSecurityE2e, TlsStreamCarriesControlWithTheToken) {
  Daemon d("3600");
  ASSERT_TRUE(d.child->wait_for_stderr("listening on tls:", 20s)) << d.child->err();
  ASSERT_TRUE(d.child->wait_for_stdout("\"gameStarted\"", 20s)) << d.child->err();
  asio::io_context io;
  asio::ssl::context tls(asio::ssl::context::tls_client);
  tls.load_verify_file(d.certs.ca);
  tls.set_verify_mode(asio::ssl::verify_peer);
  asio::ssl::stream<asio::ip::tcp::socket> stream(io, tls);
  stream.set_verify_callback(asio::ssl::host_name_verification("localhost"));
  stream.next_layer().connect({asio::ip::make_address("127.0.0.1"), d.tls_stream});
  stream.handshake(asio::ssl::stream_base::client);
  proto::FrameReader reader;
  const auto next = [&]() {
    v1::Frame frame;
    for (;;) {
      auto status = reader.next(frame);
      if (!status) ADD_FAILURE() << status.error();
      if (!status || status.value() != proto::ReadStatus::kNeedMore) return frame;
      char buffer[4096];
      const std::size_t n = stream.read_some(asio::buffer(buffer));
      reader.feed(std::string_view(buffer, n));
    }
  };
  const v1::Frame hello = next();
  ASSERT_TRUE(hello.has_hello());
  EXPECT_TRUE(hello.hello().control_allowed());
  const auto send = [&](const std::string& token, std::uint32_t id) {
    v1::Frame frame;
    v1::Command* c = frame.mutable_command();
    c->set_command_id(id);
    c->set_board_id("s1");
    c->set_token(token);
    c->mutable_add_time()->set_side(v1::SIDE_BLACK);
    c->mutable_add_time()->set_delta_ms(1000);
    asio::write(stream, asio::buffer(proto::encode_delimited(frame)));
    for (;;) {
      const v1::Frame reply = next();
      if (reply.has_ack() && reply.ack().command_id() == id) return reply.ack();
    }
  };
  EXPECT_EQ(send("wrong", 1).code(), v1::ACK_ERROR_UNAUTHORIZED);
  EXPECT_TRUE(send(kToken, 2).ok());
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
