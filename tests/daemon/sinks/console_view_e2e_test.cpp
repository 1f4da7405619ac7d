// What a viewer without control gets of the arbiter's open decisions (docs/interfaces.md
// §6.3), against a real eboardd with two emulated boards whose scripted games each put a
// penalty to the arbiter (White's illegal move, fide-standard 7.5.5): on board a1 under
// irregularity_visibility arbiter_only, so the proposal is the arbiter's alone, on board
// p1 under the rule set's default, so the players are told of it and the proposal is
// public. A read-only client gets p1's proposal and never a1's, and the console's
// WebSocket sends it p1's penalty and nothing of a1's; a logged-in one gets both, each
// with its visibility. Read-only is anyone without a session: over HTTPS, on plain HTTP
// off the loopback, and on plain HTTP on the loopback too, where control is possible; in
// headless Chromium there the page shows p1's penalty and no button until the login, then
// a1's too, with Accept and Reject.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "eboard/v1/json.h"
#include "tests/daemon/sinks/console_helpers.h"
#include "tests/daemon/sinks/devtools_client.h"

namespace eboard::daemon::broadcast_test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
const std::string kToken = "venue-token-7d41a09c2e6b58f3";

// White's knight to g3 (illegal) and the clock pressed, then the knight put back: the
// daemon proposes the penalty (2 minutes to Black) and waits for the arbiter.
std::string one_illegal_move(const std::string& dir, const std::string& name, bool arbiter_only) {
  const std::string path = dir + "/" + name + ".ebs";
  std::ofstream(path) << "rules fide-standard\nclock 5400+30\n"
                      << (arbiter_only ? "param irregularity_visibility arbiter_only\n" : "")
                      << "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
                         "1.000 lift g1\n1.200 put g3 N\n1.500 lever white\n"
                         "2.000 lift g3\n2.200 put g1 N\n";
  return path;
}

// The open proposals of one board in a /arbiter/proposals answer.
std::vector<v1::Proposal> open_on(const std::string& body, const std::string& board) {
  const auto frame = proto::frame_from_json("{\"statusReply\":" + body + "}");
  EXPECT_TRUE(frame.ok()) << body;
  std::vector<v1::Proposal> open;
  if (!frame.ok()) return open;
  for (const v1::BoardStatus& b : frame->status_reply().boards()) {
    for (const v1::Proposal& p : b.open_proposals())
      if (p.board_id() == board) open.push_back(p);
  }
  return open;
}

// The events the console's WebSocket on plain HTTP `port` sends (with `cookie`, the
// session's "name=value", or none) until board p1's event `p1_seq`: a1's items come first
// (board order), so once p1's is there every a1 item would have been too.
std::vector<v1::Event> console_events(std::uint16_t port, const std::string& cookie,
                                      std::uint32_t p1_seq) {
  asio::io_context io;
  beast::websocket::stream<asio::ip::tcp::socket> ws(io);
  ws.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
  ws.set_option(beast::websocket::stream_base::decorator([&](beast::websocket::request_type& r) {
    if (!cookie.empty()) r.set(beast::http::field::cookie, cookie);
  }));
  ws.handshake("127.0.0.1:" + std::to_string(port), "/arbiter/ws");
  std::vector<v1::Event> events;
  for (int i = 0; i < 200; ++i) {
    beast::flat_buffer buffer;
    ws.read(buffer);
    const auto frame = proto::frame_from_json(beast::buffers_to_string(buffer.data()));
    EXPECT_TRUE(frame.ok());
    if (!frame.ok() || !frame->has_event()) continue;
    events.push_back(frame->event());
    if (frame->event().board_id() == "p1" && frame->event().seq() == p1_seq) break;
  }
  return events;
}

bool has(const std::vector<v1::Event>& events, const std::string& board, std::uint32_t seq) {
  return std::any_of(events.begin(), events.end(),
                     [&](const v1::Event& e) { return e.board_id() == board && e.seq() == seq; });
}

TEST(ConsoleViewE2e, ReadOnlyClientsGetThePublicProposalsOnly) {
  const std::string dir = temp_dir("console-view");
  const Certificates certs = make_certificates(dir);
  ASSERT_FALSE(certs.spki.empty()) << read_text(dir + "/openssl.log");
  std::ofstream(dir + "/token") << kToken << "\n";
  const std::uint16_t https = free_tcp_port();
  const std::uint16_t open_http = free_tcp_port();  // bound to 0.0.0.0: read-only
  Child daemon({kBin + "/eboardd",
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
                "--journal",
                dir + "/journal",
                "--journal-fsync",
                "never",
                "--runtime-dir",
                dir,
                "--listen",
                "unix:" + dir + "/events.sock",
                "--print",
                "json",
                "--board",
                "a1=sim:" + one_illegal_move(dir, "a1", true),
                "--board",
                "p1=sim:" + one_illegal_move(dir, "p1", false)});
  ASSERT_TRUE(daemon.wait_for_stderr("https: serving on", 20s)) << daemon.err();

  const HttpsReply login = https_request(https, certs.ca, "POST", "/arbiter/login",
                                         same_site(https), "{\"token\":\"" + kToken + "\"}");
  ASSERT_EQ(login.status, 200) << login.body << login.error;
  const std::string cookie = cookie_header(login.headers.at("set-cookie"));
  const auto arbiter_view = [&] {
    return https_request(https, certs.ca, "GET", "/arbiter/proposals", cookie).body;
  };
  // Both penalties are proposed and open: the arbiter sees each with its visibility.
  ASSERT_TRUE(poll_until(
      [&] {
        const std::string body = arbiter_view();
        return open_on(body, "a1").size() == 1 && open_on(body, "p1").size() == 1;
      },
      20s))
      << arbiter_view() << daemon.err();
  const std::string all = arbiter_view();
  const v1::Proposal arbiters = open_on(all, "a1")[0];
  const v1::Proposal shared = open_on(all, "p1")[0];
  EXPECT_EQ(arbiters.kind(), v1::PROPOSAL_KIND_PENALTY);
  EXPECT_EQ(arbiters.visibility(), v1::VISIBILITY_ARBITER);
  EXPECT_EQ(shared.kind(), v1::PROPOSAL_KIND_PENALTY);
  EXPECT_EQ(shared.visibility(), v1::VISIBILITY_PUBLIC);

  // Read-only: over HTTPS without a session, and over plain HTTP off the loopback.
  for (const std::string& body : {https_request(https, certs.ca, "GET", "/arbiter/proposals").body,
                                  http_get(open_http, "/arbiter/proposals").body}) {
    EXPECT_TRUE(open_on(body, "a1").empty()) << body;
    const auto open = open_on(body, "p1");
    ASSERT_EQ(open.size(), 1u) << body;
    EXPECT_EQ(open[0].seq(), shared.seq());
    EXPECT_EQ(open[0].visibility(), v1::VISIBILITY_PUBLIC);
  }

  // The console's WebSocket on the read-only listener.
  const std::vector<v1::Event> shown = console_events(open_http, "", shared.seq());
  EXPECT_TRUE(has(shown, "p1", shared.seq())) << "the public penalty on the read-only WebSocket";
  EXPECT_FALSE(has(shown, "a1", arbiters.seq()));
  for (const v1::Event& e : shown)
    EXPECT_EQ(e.visibility(), v1::VISIBILITY_PUBLIC) << proto::to_json_line(e);
}

// eboardd with --http on the loopback and the control token, serving a1 (an
// arbiter-only penalty) and p1 (a public one), both open once it returns; `set_cookie` is
// a login's session. Fatal failures are the caller's to check (HasFatalFailure).
struct LoopbackConsole {
  std::string dir;
  std::uint16_t http = 0;
  std::unique_ptr<Child> daemon;
  std::string set_cookie;
};

void start_loopback_console(LoopbackConsole& out, const std::string& name) {
  out.dir = temp_dir(name);
  std::ofstream(out.dir + "/token") << kToken << "\n";
  out.http = free_tcp_port();
  const std::string& dir = out.dir;
  out.daemon = std::make_unique<Child>(std::vector<std::string>{
      kBin + "/eboardd", "--http", "127.0.0.1:" + std::to_string(out.http), "--control-token-file",
      dir + "/token", "--journal", dir + "/journal", "--journal-fsync", "never", "--runtime-dir",
      dir, "--listen", "unix:" + dir + "/events.sock", "--board",
      "a1=sim:" + one_illegal_move(dir, "a1", true), "--board",
      "p1=sim:" + one_illegal_move(dir, "p1", false)});
  Child& daemon = *out.daemon;
  ASSERT_TRUE(daemon.wait_for_stderr("http: serving on", 20s)) << daemon.err();
  const std::string site = "Origin: http://127.0.0.1:" + std::to_string(out.http) +
                           "\r\nContent-Type: application/json\r\n";
  const HttpReply login =
      http_request(out.http, "POST", "/arbiter/login", site, "{\"token\":\"" + kToken + "\"}");
  ASSERT_EQ(login.status, 200) << login.body;
  out.set_cookie = login.headers.at("set-cookie");
  const std::string cookie = cookie_header(out.set_cookie);
  ASSERT_TRUE(poll_until(
      [&] {
        const std::string body =
            http_request(out.http, "GET", "/arbiter/proposals", cookie, "").body;
        return open_on(body, "a1").size() == 1 && open_on(body, "p1").size() == 1;
      },
      20s))
      << daemon.err();
}

// --http on the loopback gives control after a login; until then the page, its list of
// proposals and its WebSocket are the read-only console's, as anywhere else.
TEST(ConsoleViewE2e, LoopbackWithoutALoginIsReadOnlyToo) {
  LoopbackConsole console;
  start_loopback_console(console, "console-view-lo");
  if (HasFatalFailure()) return;
  const std::uint16_t http = console.http;
  const std::string session = console.set_cookie.substr(0, console.set_cookie.find(';'));
  const std::string cookie = cookie_header(console.set_cookie);
  const auto proposals = [&](const std::string& headers) {
    return http_request(http, "GET", "/arbiter/proposals", headers, "").body;
  };
  const v1::Proposal arbiters = open_on(proposals(cookie), "a1")[0];
  const v1::Proposal shared = open_on(proposals(cookie), "p1")[0];
  EXPECT_EQ(arbiters.visibility(), v1::VISIBILITY_ARBITER);

  // Not logged in: control is possible here, and nothing is the arbiter's.
  const std::string state = http_get(http, "/arbiter/session").body;
  EXPECT_NE(state.find("\"control\":true"), std::string::npos) << state;
  EXPECT_NE(state.find("\"loggedIn\":false"), std::string::npos) << state;
  const std::string body = proposals("");
  EXPECT_TRUE(open_on(body, "a1").empty()) << body;
  ASSERT_EQ(open_on(body, "p1").size(), 1u) << body;
  EXPECT_EQ(open_on(body, "p1")[0].seq(), shared.seq());
  const std::vector<v1::Event> shown = console_events(http, "", shared.seq());
  EXPECT_TRUE(has(shown, "p1", shared.seq()));
  EXPECT_FALSE(has(shown, "a1", arbiters.seq()));
  for (const v1::Event& e : shown)
    EXPECT_EQ(e.visibility(), v1::VISIBILITY_PUBLIC) << proto::to_json_line(e);

  // Logged in, the WebSocket sends the arbiter's own items as well.
  const std::vector<v1::Event> all = console_events(http, session, shared.seq());
  EXPECT_TRUE(has(all, "a1", arbiters.seq()));
  EXPECT_TRUE(has(all, "p1", shared.seq()));
}

// The page in a browser on the loopback: a person at the daemon's machine sees what a
// viewer sees, logs in, and only then gets the arbiter's own items and the buttons. The
// session cookie is Secure; Chromium keeps it on http://127.0.0.1, a trustworthy origin.
TEST(ConsoleViewE2e, LoopbackPageInChromiumIsReadOnlyUntilTheLogin) {
  // Both penalties are open before the page opens, so its WebSocket sends them as the
  // current games' items, a1's first (board order).
  LoopbackConsole console;
  start_loopback_console(console, "console-view-page");
  if (HasFatalFailure()) return;
  const std::string& dir = console.dir;
  const std::uint16_t http = console.http;

  DevTools chrome(dir, {});
  ASSERT_TRUE(chrome.open());
  ASSERT_TRUE(chrome.set_viewport(1280, 800, false));
  ASSERT_TRUE(chrome.navigate("http://127.0.0.1:" + std::to_string(http) + "/arbiter"));
  const std::string shared = "document.querySelector('.item.open[data-board=p1]')";
  const std::string arbiters = "document.querySelector('.item[data-board=a1]')";
  ASSERT_TRUE(chrome.wait_for(shared + " && !document.getElementById('login').hidden", 20s))
      << chrome.evaluate("document.body.innerText");
  EXPECT_EQ(chrome.evaluate(arbiters + " === null"), "true")
      << chrome.evaluate("document.getElementById('items').innerText");
  EXPECT_EQ(chrome.evaluate("document.body.dataset.readonly"), "\"true\"");
  EXPECT_EQ(chrome.evaluate("document.querySelectorAll('main button').length"), "0")
      << chrome.evaluate("document.querySelector('main').innerText");

  ASSERT_TRUE(log_in_by_hand(chrome, kToken));
  EXPECT_TRUE(chrome.wait_for(arbiters + "?.querySelector('[data-ruling=accept]')", 10s))
      << chrome.evaluate("document.getElementById('items').innerText");
  EXPECT_TRUE(chrome.wait_for(shared + "?.querySelector('[data-ruling=accept]')", 10s));
  EXPECT_EQ(chrome.evaluate("document.body.dataset.readonly"), "\"false\"");
  for (const auto& url : chrome.request_urls()) EXPECT_EQ(url.find(kToken), std::string::npos);
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
