// The arbiter console end to end (docs/interfaces.md §6.3): eboardd with emulated boards over
// HTTPS with a venue certificate; headless Chromium, not logged in, sees the result the
// daemon proposes after a scripted game's second illegal move and not one button (the
// read-only console), logs in with the token, sees the same proposal (one proposal, the
// penalty's "game lost" part of it; each board's clock connected), clicks Accept,
// and the game ends with that result on the event stream, in /live.pgn and on the page -
// while 50 overlay viewers watch another board and one WebSocket client never reads a
// third, hurried board, until the daemon drops it.
// Screenshots at 1280x800 and 390x844 are kept as test artifacts; at both sizes the
// players' names wrap in the tiles, none is cut.
#include <gtest/gtest.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <thread>

#include "eboard/v1/json.h"
#include "tests/daemon/sinks/console_helpers.h"
#include "tests/daemon/sinks/devtools_client.h"

namespace eboard::daemon::broadcast_test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace fs = std::filesystem;
const std::string kMate = std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/mate_game.ebs";
const std::string kToken = "venue-token-5f2c9e81d04b7a36";

std::vector<v1::Event> printed(const std::string& out) {
  std::vector<v1::Event> events;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '{') continue;
    if (auto e = proto::event_from_json(line); e.ok()) events.push_back(e.value());
  }
  return events;
}

// A corpus game played cleanly in about `seconds`: a board whose events come fast, for
// a WebSocket client that does not read to fall behind on within the test (the daemon
// caps a client's kernel send buffer, but that and the client's receive window still
// hold tens of kilobytes, more than the console's two short games send).
std::string hurried_script(const std::string& dir, const std::string& id, double seconds) {
  const std::string path = make_script(dir, id, 1);
  const double factor = seconds / script_seconds(path);
  std::ifstream in(path);
  std::ostringstream out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
      const std::size_t space = line.find(' ');
      std::ostringstream at;
      at << std::fixed << std::setprecision(3) << std::stod(line.substr(0, space)) * factor;
      line = at.str() + line.substr(space);
    }
    out << line << "\n";
  }
  std::ofstream(path) << out.str();
  return path;
}

std::string token_file(const std::string& dir) {
  std::ofstream(dir + "/token") << kToken << "\n";
  return dir + "/token";
}

// Overlay viewers: `count` WebSocket clients of one board that read everything, on one
// thread, counting the gameEnded frames they get.
class Viewers {
 public:
  Viewers(std::uint16_t port, const std::string& board, int count) {
    for (int i = 0; i < count; ++i) {
      auto ws = std::make_unique<beast::websocket::stream<asio::ip::tcp::socket>>(io_);
      ws->next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
      ws->handshake("127.0.0.1", "/ws?board=" + board);
      clients_.push_back(std::move(ws));
      buffers_.emplace_back();
    }
    for (std::size_t i = 0; i < clients_.size(); ++i) read(i);
    thread_ = std::thread([this] { io_.run(); });
  }
  ~Viewers() {
    io_.stop();
    thread_.join();
  }
  int ended() const { return ended_; }

 private:
  void read(std::size_t i) {
    clients_[i]->async_read(buffers_[i], [this, i](const beast::error_code& error, std::size_t) {
      if (error) return;
      if (beast::buffers_to_string(buffers_[i].data()).find("\"gameEnded\"") != std::string::npos)
        ++ended_;
      buffers_[i].consume(buffers_[i].size());
      read(i);
    });
  }

  asio::io_context io_;
  std::vector<std::unique_ptr<beast::websocket::stream<asio::ip::tcp::socket>>> clients_;
  std::deque<beast::flat_buffer> buffers_;
  std::atomic<int> ended_{0};
  std::thread thread_;
};

// Reads a child's output on a thread of its own while the test drives the browser: the
// daemon prints every event (--print json), and a full pipe would block it. The output is
// the test's own again after stop().
class OutputDrain {
 public:
  explicit OutputDrain(Child& child)
      : thread_([this, &child] {
          while (!stop_)
            child.wait_for([](const std::string&, const std::string&) { return false; }, 100ms);
        }) {}
  ~OutputDrain() { stop(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(ConsoleE2e, ArbiterAcceptsAProposedResultInChromium) {
  const std::string dir = temp_dir("console");
  const Certificates certs = make_certificates(dir);
  ASSERT_FALSE(certs.spki.empty()) << read_text(dir + "/openssl.log");
  const std::uint16_t https = free_tcp_port();
  const std::uint16_t http = free_tcp_port();
  Child daemon({kBin + "/eboardd",
                "--https",
                "127.0.0.1:" + std::to_string(https),
                "--tls-cert",
                certs.cert,
                "--tls-key",
                certs.key,
                "--http",
                "127.0.0.1:" + std::to_string(http),
                "--control-token-file",
                token_file(dir),
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
                "--sim-speed",
                "1",
                "--ws-queue-bytes",
                "4096",
                "--board",
                "c1=sim:" + illegal_moves_script(dir, "c1"),
                "--board",
                "c2=sim:" + kMate,
                "--board",
                "c3=sim:" + hurried_script(dir, "c3", 8)});
  ASSERT_TRUE(daemon.wait_for_stderr("https: serving on", 20s)) << daemon.err();

  // 50 read-only viewers of board c2's overlay stream and one client that never reads.
  Viewers viewers(http, "c2", 50);
  asio::io_context stall_io;
  beast::websocket::stream<asio::ip::tcp::socket> stalled(stall_io);
  stalled.next_layer().open(asio::ip::tcp::v4());
  stalled.next_layer().set_option(asio::socket_base::receive_buffer_size(1024));
  stalled.next_layer().connect({asio::ip::make_address("127.0.0.1"), http});
  stalled.handshake("127.0.0.1", "/ws?board=c3");
  const std::string stalled_peer =
      "127.0.0.1:" + std::to_string(stalled.next_layer().local_endpoint().port());
  OutputDrain drain(daemon);

  DevTools chrome(dir, {"--ignore-certificate-errors-spki-list=" + certs.spki});
  ASSERT_TRUE(chrome.open());
  ASSERT_TRUE(chrome.set_viewport(1280, 800, false));
  const std::string site = "https://127.0.0.1:" + std::to_string(https);
  ASSERT_TRUE(chrome.navigate(site + "/arbiter"));
  ASSERT_TRUE(chrome.wait_for("!document.getElementById('login').hidden", 10s))
      << chrome.evaluate("document.body.innerText");

  // The daemon proposes 0-1 after White's second illegal move; the console lists it, also
  // to a viewer who is not logged in, without any button to act on it or on a board.
  const std::string proposal =
      "[...document.querySelectorAll('.item.open[data-board=c1]')].find(e => "
      "e.querySelector('.ititle').textContent.startsWith('Result proposed: 0-1'))";
  ASSERT_TRUE(chrome.wait_for(proposal, 30s)) << chrome.evaluate("document.body.innerText");
  EXPECT_EQ(chrome.evaluate("document.body.dataset.readonly"), "\"true\"");
  EXPECT_EQ(chrome.evaluate("document.querySelectorAll('main button').length"), "0")
      << chrome.evaluate("document.querySelector('main').innerText");

  ASSERT_TRUE(log_in_by_hand(chrome, kToken));
  EXPECT_EQ(chrome.evaluate("document.cookie"), "\"\"") << "the session cookie is HttpOnly";

  // Logged in, the same proposal has its Accept and Reject, and every board its actions.
  ASSERT_TRUE(chrome.wait_for(proposal + ".querySelector('[data-ruling=accept]')", 10s))
      << chrome.evaluate("document.body.innerText");
  EXPECT_EQ(chrome.evaluate("document.body.dataset.readonly"), "\"false\"");
  EXPECT_EQ(chrome.evaluate("document.querySelectorAll('#tile-c1 [data-act]').length"), "5");
  EXPECT_NE(chrome.evaluate(proposal + ".textContent").find("(7.5.5)"), std::string::npos)
      << "the article the proposal cites";
  // One voice per decision: the "game lost" penalty of the same second illegal move is part
  // of that proposal (the daemon's list, GET /arbiter/proposals), with no buttons of its own.
  const std::string lost =
      "[...document.querySelectorAll('.item[data-board=c1]')].find(e => "
      "e.querySelector('.ititle').textContent.includes('game lost'))";
  ASSERT_TRUE(chrome.wait_for(lost + ".textContent.includes('part of the proposal of seq')", 10s))
      << chrome.evaluate("document.getElementById('items').innerText");
  EXPECT_EQ(chrome.evaluate(lost + ".classList.contains('open')"), "false");
  // The DGT 3000 on the emulated boards' cable reports its times: the tile says so.
  EXPECT_TRUE(chrome.wait_for(
      "document.querySelector('#tile-c1 .dev').textContent.includes('clock connected')", 10s))
      << chrome.evaluate("document.querySelector('#tile-c1 .dev').textContent");
  ASSERT_TRUE(chrome.wait_for("document.querySelector('#tile-c2 [data-result]')", 30s));

  const std::string artifacts = kBin + "/../test-artifacts";
  fs::create_directories(artifacts);
  // Every name is whole in its tile: a long one wraps, none overflows its box.
  const std::string names_whole =
      "[...document.querySelectorAll('.tile .nm')].every(e => e.scrollWidth <= e.clientWidth && "
      "e.getBoundingClientRect().right <= e.closest('.tile').getBoundingClientRect().right)";
  EXPECT_EQ(chrome.evaluate(names_whole), "true");
  ASSERT_TRUE(chrome.screenshot(artifacts + "/arbiter-console-1280x800.png"));
  ASSERT_TRUE(chrome.set_viewport(390, 844, true));
  ASSERT_TRUE(chrome.wait_for("innerWidth === 390", 5s));
  EXPECT_EQ(chrome.evaluate(names_whole), "true");
  EXPECT_EQ(chrome.evaluate("(e => e.getClientRects().length > 0 && e.offsetHeight > "
                            "1.5 * parseFloat(getComputedStyle(e).lineHeight))([...document."
                            "querySelectorAll('#tile-c1 .nm')].find(e => e.textContent."
                            "startsWith('Nepomniachtchi')))"),
            "true")
      << "the long name wraps on a phone";
  // On a phone the decisions come first: the picture shows the boards below them.
  EXPECT_EQ(chrome.evaluate("(() => { const boards = document.getElementById('tiles')."
                            "parentElement; scrollTo(0, boards.getBoundingClientRect().top + "
                            "scrollY - document.querySelector('header').offsetHeight - 6); "
                            "return scrollY > 0; })()"),
            "true");
  ASSERT_TRUE(chrome.screenshot(artifacts + "/arbiter-console-390x844.png"));
  chrome.evaluate("scrollTo(0, 0)");
  std::cout << "[ artifact ] " << fs::canonical(artifacts).string()
            << "/arbiter-console-{1280x800,390x844}.png\n";
  ASSERT_TRUE(chrome.set_viewport(1280, 800, false));

  // Until the click the game goes on: the proposed result is in no PGN.
  EXPECT_EQ(http_get(http, "/boards/c1.pgn").body.find("[Result \"0-1\"]"), std::string::npos);
  EXPECT_EQ(http_get(http, "/live.pgn").body.find("[Result \"0-1\"]"), std::string::npos);
  const std::string seq = chrome.evaluate(proposal + ".dataset.seq");
  ASSERT_TRUE(chrome.click(".item.open[data-board=c1][data-seq='" + seq.substr(1, seq.size() - 2) +
                           "'] [data-ruling=accept]"));

  // The game ends 0-1: on the event stream, in /live.pgn and on the page.
  drain.stop();
  ASSERT_TRUE(daemon.wait_for(
      [](const std::string& out, const std::string&) {
        for (const auto& e : printed(out)) {
          if (e.board_id() == "c1" && e.has_game_ended() && !e.game_ended().proposed() &&
              e.game_ended().result() == "0-1")
            return true;
        }
        return false;
      },
      10s))
      << daemon.err();
  ASSERT_TRUE(poll_until(
      [&] {
        const HttpReply pgn = http_get(http, "/boards/c1.pgn");
        return pgn.body.find("[Result \"0-1\"]") != std::string::npos;
      },
      10s));
  EXPECT_NE(http_get(http, "/live.pgn").body.find("[Result \"0-1\"]"), std::string::npos);
  EXPECT_TRUE(chrome.wait_for(
      "document.querySelector('#tile-c1 .res[data-result=\"0-1\"]:not(.prop)')", 10s))
      << chrome.evaluate("document.getElementById('tile-c1').innerText");
  EXPECT_TRUE(chrome.wait_for(proposal + " === undefined", 10s));
  // The ruling's audit record: journalled and streamed, naming the console session.
  EXPECT_TRUE(daemon.wait_for(
      [](const std::string& out, const std::string&) {
        for (const auto& e : printed(out)) {
          if (e.board_id() != "c1" || !e.has_command_applied()) continue;
          const auto& applied = e.command_applied();
          if (applied.command().has_ruling() && applied.outcome().ok() &&
              applied.client().rfind("console:", 0) == 0 &&
              applied.client().find("@127.0.0.1") != std::string::npos)
            return true;
        }
        return false;
      },
      10s))
      << daemon.out();

  // The viewers kept getting c2's events while the console worked, the stalled one aside.
  EXPECT_TRUE(poll_until([&] { return viewers.ended() >= 50; }, 20s)) << viewers.ended();
  // The one that never read fell behind on the hurried board and was let go.
  EXPECT_TRUE(daemon.wait_for_stderr("WebSocket client " + stalled_peer + " dropped: too slow", 5s))
      << daemon.err();
  // The token never left the login request's body: in no URL, in no log line.
  for (const auto& url : chrome.request_urls()) EXPECT_EQ(url.find(kToken), std::string::npos);
  EXPECT_FALSE(chrome.request_urls().empty());
  EXPECT_EQ(daemon.out().find(kToken), std::string::npos);
  EXPECT_EQ(daemon.err().find(kToken), std::string::npos);
  EXPECT_NE(daemon.err().find("console: 127.0.0.1 logged in"), std::string::npos);
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
