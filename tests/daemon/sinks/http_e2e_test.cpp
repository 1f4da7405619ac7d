// Live PGN, WebSocket and overlay end to end: eboardd with emulated
// boards and --http; a real HTTP client fetches /live.pgn during and after a game and
// Debian's pgn-extract must read it without a diagnostic; a second fetch with the ETag
// gets 304; the overlay page in headless Chromium shows the final position and clocks
// (the screenshot is kept as a test artifact); clients that never read never delay the
// board's events.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <thread>

#include "eboard/v1/json.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace eboard::daemon::broadcast_test {
namespace {

namespace fs = std::filesystem;
const std::string kMate = std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/mate_game.ebs";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

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

std::vector<std::string> daemon_args(const std::string& dir, std::uint16_t http,
                                     const std::vector<std::string>& boards, double speed) {
  std::vector<std::string> args = {kBin + "/eboardd",
                                   "--http",
                                   "127.0.0.1:" + std::to_string(http),
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
                                   std::to_string(speed)};
  for (const auto& b : boards) args.insert(args.end(), {"--board", b});
  return args;
}

struct ExtractRun {
  int status = -1;
  std::string diagnostics;
  std::string output;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// pgn-extract -s (no listing) -l (diagnostics to a log): an independent PGN reader.
ExtractRun pgn_extract(const std::string& dir, const std::string& pgn) {
  std::ofstream(dir + "/in.pgn") << pgn;
  ExtractRun run;
  run.status = std::system(("/usr/games/pgn-extract -s -o " + dir + "/out.pgn -l " + dir +
                            "/log.txt " + dir + "/in.pgn 2>" + dir + "/err.txt")
                               .c_str());
  run.diagnostics = read_file(dir + "/log.txt") + read_file(dir + "/err.txt");
  run.output = read_file(dir + "/out.pgn");
  return run;
}

TEST(HttpE2e, LivePgnDuringAndAfterTheGameWithEtags) {
  const std::string dir = temp_dir("http");
  const std::string corpus = make_script(dir, "h2", 6);
  const std::uint16_t port = free_tcp_port();
  Child daemon(daemon_args(dir, port, {"h1=sim:" + kMate, "h2=sim:" + corpus},
                           std::max(1.0, script_seconds(corpus) / 8.0)));
  ASSERT_TRUE(daemon.wait_for_stderr("http: serving on", 20s)) << daemon.err();

  // During: both games, board order as configured, moves with clocks, result "*".
  ASSERT_TRUE(
      daemon.wait_for([](const std::string& out,
                         const std::string&) { return count(out, "\"moveCompleted\"") >= 8; },
                      60s));
  HttpReply during = http_get(port, "/live.pgn");
  ASSERT_EQ(during.status, 200);
  EXPECT_EQ(during.headers["content-type"], "application/x-chess-pgn; charset=utf-8");
  const auto first = during.body.find("[White \"White, Player\"]");
  ASSERT_NE(first, std::string::npos) << during.body;
  EXPECT_NE(during.body.find("[Event \"", first + 1), std::string::npos)
      << "the second board's game";
  EXPECT_NE(during.body.find("{[%clk 0:0"), std::string::npos);
  ExtractRun run = pgn_extract(dir, during.body);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.diagnostics, "") << during.body;
  EXPECT_EQ(count(run.output, "[Event "), 2u);

  // After: h1 ended in mate; the text carries the result.
  ASSERT_TRUE(daemon.wait_for_stdout("\"gameEnded\"", 60s));
  ASSERT_TRUE(daemon.wait_for_stderr("script finished", 60s));
  HttpReply after;
  ASSERT_TRUE(poll_until(
      [&] {
        after = http_get(port, "/boards/h1.pgn");
        return after.body.find("4. Qxf7#") != std::string::npos &&
               after.body.find(" 1-0\n") != std::string::npos;
      },
      10s))
      << after.body;
  run = pgn_extract(dir, http_get(port, "/live.pgn").body);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.diagnostics, "");

  // Polling is cheap: the same ETag gets 304 and no body; a changed text a new tag.
  const std::string etag = after.headers["etag"];
  ASSERT_FALSE(etag.empty());
  HttpReply again = http_get(port, "/boards/h1.pgn", "If-None-Match: " + etag + "\r\n");
  EXPECT_EQ(again.status, 304);
  EXPECT_EQ(again.body, "");
  EXPECT_EQ(http_get(port, "/boards/h1.pgn", "If-None-Match: \"stale\"\r\n").status, 200);
  EXPECT_EQ(http_get(port, "/boards/nope.pgn").status, 404);
  EXPECT_EQ(http_get(port, "/overlay?board=h1").status, 200);
  EXPECT_EQ(http_get(port, "/ws?board=h1").status, 426);

  // HEAD and 304 announce the length of the text a GET gets, and send none of it.
  HttpReply head = http_request(port, "HEAD", "/boards/h1.pgn");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_EQ(head.headers["content-length"], std::to_string(after.body.size()));
  EXPECT_EQ(head.headers["etag"], etag);
  EXPECT_EQ(again.headers["content-length"], std::to_string(after.body.size()));
  // A request that is not HTTP, and one whose header fields are too large, are answered.
  HttpReply garbage = parse_http_reply(http_exchange(port, "HELLO THERE\r\n\r\n"));
  EXPECT_EQ(garbage.status, 400);
  EXPECT_EQ(garbage.headers["connection"], "close");
  const HttpReply huge = http_get(port, "/live.pgn", "X-Pad: " + std::string(9000, 'a') + "\r\n");
  EXPECT_EQ(huge.status, 431);
  EXPECT_EQ(http_request(port, "POST", "/live.pgn").status, 405);
}

// OBS' view of the page: Chromium itself, headless. After the scripted mate the DOM must
// show the final position and both clocks as the daemon last reported them.
TEST(HttpE2e, OverlayInHeadlessChromiumShowsTheFinalPosition) {
  const std::string dir = temp_dir("overlay");
  const std::uint16_t port = free_tcp_port();
  Child daemon(daemon_args(dir, port, {"b1=sim:" + kMate}, 4.0));
  ASSERT_TRUE(daemon.wait_for_stdout("\"gameEnded\"", 60s)) << daemon.err();
  const std::vector<v1::Event> events = printed(daemon.out());
  std::string placement;
  int white_ms = -1;
  int black_ms = -1;
  for (const auto& e : events) {
    if (e.has_move_completed()) {
      placement = e.move_completed().fen().substr(0, e.move_completed().fen().find(' '));
      white_ms = e.move_completed().white_ms();
      black_ms = e.move_completed().black_ms();
    }
    if (e.has_clock()) {
      white_ms = e.clock().white_ms();
      black_ms = e.clock().black_ms();
    }
  }
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/overlay?board=b1";
  const std::string chromium =
      "chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--hide-scrollbars --window-size=960,580 --virtual-time-budget=4000 --user-data-dir=" +
      dir + "/profile ";
  ASSERT_EQ(std::system(
                (chromium + "--dump-dom '" + url + "' >" + dir + "/dom.html 2>/dev/null").c_str()),
            0);
  const std::string dom = read_file(dir + "/dom.html");
  EXPECT_NE(dom.find("data-placement=\"" + placement + "\""), std::string::npos)
      << placement << "\n"
      << dom;
  EXPECT_NE(dom.find("data-result=\"1-0\""), std::string::npos);
  // Top bar Black, bottom bar White (not flipped); the clocks as last reported.
  const auto top = dom.find("id=\"top\"");
  const auto bottom = dom.find("id=\"bottom\"");
  ASSERT_NE(top, std::string::npos);
  ASSERT_NE(bottom, std::string::npos);
  EXPECT_NE(dom.find("data-ms=\"" + std::to_string(black_ms) + "\"", top), std::string::npos)
      << black_ms;
  EXPECT_NE(dom.find("data-ms=\"" + std::to_string(white_ms) + "\"", bottom), std::string::npos)
      << white_ms;
  EXPECT_NE(dom.find("Qxf7#"), std::string::npos);

  const std::string artifacts = kBin + "/../test-artifacts";
  fs::create_directories(artifacts);
  const std::string png = artifacts + "/overlay.png";
  ASSERT_EQ(
      std::system((chromium + "--screenshot=" + png + " '" + url + "' >/dev/null 2>&1").c_str()),
      0);
  ASSERT_GT(fs::file_size(png), 10000u);
  std::cout << "[ artifact ] " << fs::canonical(png).string() << "\n";
}

// The overlay for TV: laid out on a 16:9 stage scaled to the frame, at 1280x720,
// 1920x1080 and 3840x2160 and as a lower third; the players' long names, titles and
// ratings, the event and round line. In each the page's own layout check must say that
// every name fits its box (data-fit, set from the rendered widths). The screenshots are
// test artifacts; with EBOARD_UPDATE_SCREENSHOTS=1 they also replace docs/overlay-*.png.
TEST(HttpE2e, OverlayFillsTheFrameAtEverySizeAndNoNameIsCut) {
  const std::string dir = temp_dir("tv");
  std::string text = read_file(kMate);
  const auto replace = [&](const std::string& from, const std::string& to) {
    text.replace(text.find(from), from.size(), to);
  };
  replace("tag White \"White, Player\"",
          "tag White \"Oberhollenzer-Stubenrauch, Wolfgang Amadeus\"\ntag WhiteTitle GM\n"
          "tag WhiteElo 2712\ntag Event \"Budapest Candidates Memorial Open 2026\"\n"
          "tag Round 5.12\ntag Board 12");
  replace("tag Black \"Black, Player\"",
          "tag Black \"Flohr, Salo\"\ntag BlackTitle IM\ntag BlackElo 2498");
  std::ofstream(dir + "/tv.ebs") << text;
  const std::uint16_t port = free_tcp_port();
  Child daemon(daemon_args(dir, port, {"tv=sim:" + dir + "/tv.ebs"}, 4.0));
  ASSERT_TRUE(daemon.wait_for_stdout("\"gameEnded\"", 60s)) << daemon.err();

  const std::string artifacts = kBin + "/../test-artifacts";
  fs::create_directories(artifacts);
  const bool update = std::getenv("EBOARD_UPDATE_SCREENSHOTS") != nullptr;
  struct Shot {
    const char* name;
    int width, height;
    const char* query;
    bool layout;  // check the DOM too (the 16:9 sizes share one layout, scaled)
  };
  for (const Shot& shot :
       {Shot{"1280x720", 1280, 720, "", true}, Shot{"1920x1080", 1920, 1080, "", false},
        Shot{"3840x2160", 3840, 2160, "", false},
        Shot{"lower-third", 1920, 1080, "&layout=lower-third", true}}) {
    const std::string url =
        "http://127.0.0.1:" + std::to_string(port) + "/overlay?board=tv" + shot.query;
    const std::string chromium =
        "chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
        "--disable-background-networking --disable-component-update --disable-sync "
        "--hide-scrollbars --force-device-scale-factor=1 --window-size=" +
        std::to_string(shot.width) + "," + std::to_string(shot.height) +
        " --virtual-time-budget=4000 --user-data-dir=" + dir + "/profile ";
    if (shot.layout) {
      ASSERT_EQ(
          std::system(
              (chromium + "--dump-dom '" + url + "' >" + dir + "/dom.html 2>/dev/null").c_str()),
          0);
      const std::string dom = read_file(dir + "/dom.html");
      EXPECT_NE(dom.find("Oberhollenzer-Stubenrauch, Wolfgang Amadeus"), std::string::npos);
      EXPECT_EQ(count(dom, "data-fit=\"true\""), 3u) << shot.name << "\n" << dom;  // names, title
      EXPECT_EQ(count(dom, "data-fit=\"false\""), 0u) << shot.name;
      EXPECT_NE(dom.find(">GM<"), std::string::npos) << shot.name;
      EXPECT_NE(dom.find(">2498<"), std::string::npos) << shot.name;
      EXPECT_NE(dom.find("Round 5 · Board 12"), std::string::npos) << shot.name;
      // The stage is scaled to the page's viewport (headless Chromium's --dump-dom lays out
      // in a viewport shorter than the window; its screenshots use the whole window).
      int vw = 0;
      int vh = 0;
      const auto vp = dom.find("data-viewport=\"");
      ASSERT_NE(vp, std::string::npos) << shot.name;
      ASSERT_EQ(std::sscanf(dom.c_str() + vp, "data-viewport=\"%dx%d\"", &vw, &vh), 2);
      EXPECT_EQ(vw, shot.width);
      char scale[32];
      std::snprintf(scale, sizeof scale, "scale(%g)",
                    std::round(std::min(vw / 1920.0, vh / 1080.0) * 10000) / 10000);
      EXPECT_NE(dom.find(scale), std::string::npos) << shot.name << ": " << scale;
    }
    const std::string png = artifacts + "/overlay-" + shot.name + ".png";
    ASSERT_EQ(
        std::system((chromium + "--screenshot=" + png + " '" + url + "' >/dev/null 2>&1").c_str()),
        0);
    ASSERT_GT(fs::file_size(png), 10000u);
    std::cout << "[ artifact ] " << fs::canonical(png).string() << "\n";
    if (update) {
      fs::copy_file(png, std::string(EBOARD_SOURCE_DIR) + "/docs/overlay-" + shot.name + ".png",
                    fs::copy_options::overwrite_existing);
    }
  }
}

// Clients that connect and never read (a frozen OBS, a vanished laptop) and an HTTP
// client that never finishes its request: the board's events keep their pace, and a
// well-behaved WebSocket client still gets the snapshot and every public event.
TEST(HttpE2e, SlowAndVanishedClientsNeverDelayTheBoard) {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  const std::string dir = temp_dir("slow");
  const std::uint16_t port = free_tcp_port();
  Child daemon({kBin + "/eboardd", "--http", "127.0.0.1:" + std::to_string(port),
                "--ws-queue-bytes", "4096", "--journal", dir + "/journal", "--journal-fsync",
                "never", "--runtime-dir", dir, "--listen", "unix:" + dir + "/events.sock",
                "--print", "json", "--sim-speed", "2", "--board", "b1=sim:" + kMate});
  ASSERT_TRUE(daemon.wait_for_stderr("http: serving on", 20s)) << daemon.err();

  asio::io_context io;
  std::vector<std::unique_ptr<beast::websocket::stream<asio::ip::tcp::socket>>> frozen;
  for (int i = 0; i < 16; ++i) {
    auto ws = std::make_unique<beast::websocket::stream<asio::ip::tcp::socket>>(io);
    ws->next_layer().open(asio::ip::tcp::v4());
    ws->next_layer().set_option(asio::socket_base::receive_buffer_size(1024));
    ws->next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
    ws->handshake("127.0.0.1", "/ws?board=b1");
    frozen.push_back(std::move(ws));  // never read again
  }
  asio::ip::tcp::socket half(io);
  half.connect({asio::ip::make_address("127.0.0.1"), port});
  asio::write(half,
              asio::buffer(std::string("GET /live.pgn HTTP/1.1\r\nHost: x\r\n")));  // never ends

  beast::websocket::stream<asio::ip::tcp::socket> good(io);
  good.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
  good.handshake("127.0.0.1", "/ws?board=b1");
  std::vector<std::string> frames;
  for (;;) {
    beast::flat_buffer buffer;
    good.read(buffer);
    frames.push_back(beast::buffers_to_string(buffer.data()));
    if (frames.back().find("\"gameEnded\"") != std::string::npos) break;
    ASSERT_LT(frames.size(), 10000u);
  }
  ASSERT_TRUE(frames.front().starts_with("{\"snapshot\":")) << frames.front();
  // Every public event the daemon printed after the snapshot, up to the game's end,
  // reached the good client, in order.
  auto snapshot = proto::frame_from_json(frames.front());
  ASSERT_TRUE(snapshot.ok());
  const std::uint32_t from = snapshot->snapshot().last_seq();
  std::vector<std::uint32_t> got;
  for (std::size_t i = 1; i < frames.size(); ++i) {
    auto frame = proto::frame_from_json(frames[i]);
    ASSERT_TRUE(frame.ok() && frame->has_event()) << frames[i];
    if (frame->event().seq() > from) got.push_back(frame->event().seq());
  }
  ASSERT_TRUE(daemon.wait_for_stdout("\"gameEnded\"", 10s));
  std::vector<std::uint32_t> want;
  for (const auto& e : printed(daemon.out())) {
    if (e.seq() > from && e.seq() <= got.back() && e.visibility() == v1::VISIBILITY_PUBLIC)
      want.push_back(e.seq());
  }
  EXPECT_EQ(got, want);
  EXPECT_GT(got.size(), 10u);
  // And the page is still served to others while those clients hang.
  EXPECT_EQ(http_get(port, "/boards/b1.pgn").status, 200);
}

// The overflow path itself (docs/design.md "Slow consumers never slow the board"): one
// WebSocket client that stops reading while a whole corpus game streams is dropped once
// more than --ws-queue-bytes wait for it - the daemon says so with the reason, and the
// client, reading again, finds the close frame with that reason - while a second client
// gets every public event, each about as soon as the board made it.
TEST(HttpE2e, NonReadingWebSocketIsDroppedWithAReasonOthersAreNotDelayed) {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  using Ws = beast::websocket::stream<asio::ip::tcp::socket>;
  const std::string dir = temp_dir("ws-overflow");
  const std::string script = make_script(dir, "w1", 3);
  const double speed = std::max(1.0, script_seconds(script) / 8.0);  // about 8 s of play
  const std::uint16_t port = free_tcp_port();
  Child daemon({kBin + "/eboardd", "--http", "127.0.0.1:" + std::to_string(port),
                "--ws-queue-bytes", "4096", "--journal", dir + "/journal", "--journal-fsync",
                "never", "--runtime-dir", dir, "--listen", "unix:" + dir + "/events.sock",
                "--print", "json", "--sim-speed", std::to_string(speed), "--board",
                "w1=sim:" + script});
  ASSERT_TRUE(daemon.wait_for_stderr("http: serving on", 20s)) << daemon.err();

  asio::io_context io;
  Ws frozen(io);
  frozen.next_layer().open(asio::ip::tcp::v4());
  frozen.next_layer().set_option(asio::socket_base::receive_buffer_size(1024));
  frozen.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
  frozen.handshake("127.0.0.1", "/ws?board=w1");

  // The good client reads on its own thread, noting when each event arrives.
  struct Arrival {
    std::uint32_t seq;
    std::int64_t at_ms;
    std::chrono::steady_clock::time_point when;
  };
  std::vector<Arrival> arrivals;
  std::string good_error;
  std::thread reader([&] {
    asio::io_context good_io;
    Ws good(good_io);
    good.next_layer().connect({asio::ip::make_address("127.0.0.1"), port});
    good.handshake("127.0.0.1", "/ws?board=w1");
    for (;;) {
      beast::flat_buffer buffer;
      beast::error_code error;
      good.read(buffer, error);
      if (error) {
        good_error = error.message();
        return;
      }
      auto frame = proto::frame_from_json(beast::buffers_to_string(buffer.data()));
      if (!frame.ok() || !frame->has_event()) continue;
      arrivals.push_back(
          {frame->event().seq(), frame->event().at_ms(), std::chrono::steady_clock::now()});
    }
  });

  // The frozen client's queue overflows during the game: the daemon names it and why.
  const bool dropped =
      daemon.wait_for_stderr("dropped: too slow: more than 4096 bytes waiting", 120s);
  std::string close_reason;
  beast::error_code frozen_error;
  if (dropped) {
    for (;;) {  // reading again: what was in flight, then the close frame
      beast::flat_buffer buffer;
      frozen.read(buffer, frozen_error);
      if (frozen_error) break;
    }
    close_reason = std::string(frozen.reason().reason.c_str());
  }
  // The corpus game ends by resignation, which the board cannot see: once the script has
  // played out and the daemon printed its last move, the daemon stops and the good
  // client's connection ends.
  const bool finished = daemon.wait_for_stderr("script finished", 120s);
  const std::size_t plies = [&] {
    std::ifstream in(script);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) n += line.find(" lever ") != std::string::npos;
    return n;
  }();
  const bool all_moves =
      daemon.wait_for([&](const std::string& out,
                          const std::string&) { return count(out, "\"moveCompleted\"") >= plies; },
                      20s);
  daemon.kill(SIGTERM);
  reader.join();
  ASSERT_TRUE(dropped) << daemon.err();
  ASSERT_TRUE(finished && all_moves) << daemon.err();
  EXPECT_EQ(frozen_error, beast::websocket::error::closed) << frozen_error.message();
  EXPECT_NE(close_reason.find("too slow"), std::string::npos) << close_reason;
  EXPECT_EQ(frozen.reason().code, beast::websocket::close_code::policy_error);

  ASSERT_FALSE(arrivals.empty()) << good_error;
  daemon.wait(10s);
  std::vector<std::uint32_t> got;
  for (const auto& a : arrivals) got.push_back(a.seq);
  std::vector<std::uint32_t> want;
  for (const auto& e : printed(daemon.out())) {
    if (e.seq() >= got.front() && e.seq() <= got.back() &&
        e.visibility() == v1::VISIBILITY_PUBLIC) {
      want.push_back(e.seq());
    }
  }
  EXPECT_EQ(got, want);
  EXPECT_GE(count(daemon.out(), "\"moveCompleted\""), plies);
  // Not delayed: arrival minus the event's own time (the game's time line runs at the
  // emulator's speed) stays about constant over the whole game - the drop never held the
  // board up (it would add the frozen client's write timeout or more).
  double least = 1e18;
  double most = -1e18;
  for (const auto& a : arrivals) {
    const double lag_ms =
        std::chrono::duration<double, std::milli>(a.when - arrivals.front().when).count() -
        double(a.at_ms - arrivals.front().at_ms) / speed;
    least = std::min(least, lag_ms);
    most = std::max(most, lag_ms);
  }
  EXPECT_LT(most - least, 1500.0) << "events reached the good client unevenly";
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
