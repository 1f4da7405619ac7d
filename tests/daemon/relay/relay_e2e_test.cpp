// eboard-relay end to end (docs/interfaces.md §7): a mosquitto broker without persistence, two
// eboardd with emulated boards playing real games, the relay pushing to a stand-in of
// lichess's push endpoint (push_endpoint.h), and an `eboard-events --mqtt --from-seq 1`
// view. The broker is restarted in the middle of the games and the endpoint is down when
// the relay starts. At the end the relay's PGN of every board is the daemon's own, the
// view has every board's whole sequence once, the endpoint got the final round, never
// faster than once a second and always with the token, and the game it refused is
// reported while the others went through. Debian's pgn-extract reads every version of
// /round.pgn seen on the way without a diagnostic.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "eboard/v1/json.h"
#include "tests/daemon/relay/push_endpoint.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace eboard::daemon::broadcast_test {
namespace {

using relay_test::PushEndpoint;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// pgn-extract's diagnostics for a text ("" when it reads it cleanly).
std::string pgn_extract_diagnostics(const std::string& dir, const std::string& pgn) {
  std::ofstream(dir + "/in.pgn") << pgn;
  const int status = std::system(("/usr/games/pgn-extract -s -o " + dir + "/out.pgn -l " + dir +
                                  "/log.txt " + dir + "/in.pgn 2>" + dir + "/err.txt")
                                     .c_str());
  return (status == 0 ? "" : "exit status " + std::to_string(status) + "\n") +
         slurp(dir + "/log.txt") + slurp(dir + "/err.txt");
}

std::string tag_of(const std::string& script, const std::string& name) {
  std::smatch m;
  const std::string text = slurp(script);
  if (std::regex_search(text, m, std::regex("tag " + name + " \"([^\"]*)\""))) return m[1];
  return "";
}

// The GameId differs by design (the relay names games by node and board); the clock tags
// follow the running clock (the corpus games end by resignation, which the board cannot
// see, so the clocks go on), so two reads a moment apart differ there.
std::string without_game_id(const std::string& pgn) {
  return std::regex_replace(pgn, std::regex("\\[(GameId|WhiteClock|BlackClock) \"[^\"]*\"\\]\n"),
                            "");
}

std::vector<std::string> daemon_args(const std::string& dir, const std::string& node,
                                     const std::vector<std::string>& boards, std::uint16_t broker,
                                     std::uint16_t http, double speed) {
  std::vector<std::string> args = {kBin + "/eboardd",
                                   "--mqtt",
                                   "127.0.0.1:" + std::to_string(broker),
                                   "--mqtt-site",
                                   "e2e",
                                   "--mqtt-node",
                                   node,
                                   "--mqtt-keepalive",
                                   "5",
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
                                   "--sim-speed",
                                   std::to_string(speed)};
  for (const auto& b : boards) args.insert(args.end(), {"--board", b});
  return args;
}

// Every event a daemon's journal has, per board (the truth the views are held to).
std::map<std::string, std::vector<v1::Event>> journal_events(const std::string& socket) {
  Child events({kBin + "/eboard-events", "--connect", "unix:" + socket, "--from-seq", "1",
                "--format", "json", "--timeout", "3"});
  events.wait(20s);
  std::map<std::string, std::vector<v1::Event>> out;
  std::istringstream in(events.out());
  for (std::string line; std::getline(in, line);) {
    if (auto e = proto::event_from_json(line); e.ok()) out[e->board_id()].push_back(e.value());
  }
  return out;
}

void drain(Child& child) {
  child.wait_for([](const std::string&, const std::string&) { return false; }, 1ms);
}

TEST(RelayE2e, BrokerRestartPushOutageAndEveryGameWhole) {
  const std::string dir = temp_dir("relay");
  for (const char* sub : {"/pi1", "/pi2", "/broker", "/x"}) ::mkdir((dir + sub).c_str(), 0700);
  Broker broker(dir + "/broker", free_tcp_port(), Broker::Persistence::kOff);
  ASSERT_TRUE(broker.start());
  const std::string a1 = make_script(dir, "a1", 3);
  const std::string a2 = make_script(dir, "a2", 4);
  const std::string b1 = make_script(dir, "b1", 5);
  const double longest = std::max({script_seconds(a1), script_seconds(a2), script_seconds(b1)});
  const double speed = std::max(1.0, longest / 10.0);  // about ten seconds a game
  const std::uint16_t http1 = free_tcp_port();
  const std::uint16_t http2 = free_tcp_port();
  Child pi1(daemon_args(dir + "/pi1", "pi1", {"a1=sim:" + a1, "a2=sim:" + a2}, broker.port(), http1,
                        speed));
  Child pi2(daemon_args(dir + "/pi2", "pi2", {"b1=sim:" + b1}, broker.port(), http2, speed));

  std::ofstream(dir + "/token") << "lip_secret\n";
  const std::uint16_t push_port = free_tcp_port();
  const std::uint16_t relay_port = free_tcp_port();
  Child relay(
      {kBin + "/eboard-relay", "--mqtt", "127.0.0.1:" + std::to_string(broker.port()), "--site",
       "e2e", "--http", "127.0.0.1:" + std::to_string(relay_port), "--push",
       "http://127.0.0.1:" + std::to_string(push_port) + "/api/broadcast/round/abcd1234/push",
       "--push-token-file", dir + "/token"});
  Child view({kBin + "/eboard-events", "--mqtt", "127.0.0.1:" + std::to_string(broker.port()),
              "--site", "e2e", "--from-seq", "1", "--format", "json"});
  ASSERT_TRUE(relay.wait_for_stderr("http: serving on", 20s)) << relay.err();

  // The endpoint is down at first: the relay says so and tries again.
  ASSERT_TRUE(relay.wait_for_stderr("push: cannot connect", 30s)) << relay.err();
  PushEndpoint endpoint(push_port, "lip_secret", tag_of(a2, "White"));
  ASSERT_TRUE(endpoint.ok());

  std::string etag;
  std::size_t versions = 0;
  auto poll_round = [&] {
    for (Child* c : {&pi1, &pi2, &relay, &view}) drain(*c);
    HttpReply round = http_get(relay_port, "/round.pgn");
    if (round.status != 200 || round.headers["etag"] == etag) return;
    etag = round.headers["etag"];
    ++versions;
    EXPECT_EQ(round.headers["content-type"], "application/x-chess-pgn; charset=utf-8");
    EXPECT_EQ(pgn_extract_diagnostics(dir + "/x", round.body), "") << round.body;
  };
  auto moves_on = [&](std::uint16_t port, const std::string& board) {
    const std::string pgn = http_get(port, "/boards/" + board + ".pgn").body;
    std::size_t n = 0;
    for (auto p = pgn.find("[%clk"); p != std::string::npos; p = pgn.find("[%clk", p + 1)) ++n;
    return n;
  };

  // Some moves through the broker, then it restarts (forgetting every session) while
  // the games go on.
  ASSERT_TRUE(poll_until(
      [&] {
        poll_round();
        return moves_on(http1, "a1") >= 8 && moves_on(http2, "b1") >= 8;
      },
      90s));
  const std::size_t before = moves_on(http1, "a1");
  broker.stop();
  ASSERT_TRUE(poll_until(
      [&] {
        for (Child* c : {&pi1, &pi2, &relay, &view}) drain(*c);
        return moves_on(http1, "a1") >= before + 4;
      },
      60s))
      << "the games stopped while the broker was away";
  ASSERT_TRUE(broker.start());

  ASSERT_TRUE(poll_until(
      [&] {
        poll_round();
        std::size_t finished = 0;
        for (const std::string* err : {&pi1.err(), &pi2.err()}) {
          for (auto p = err->find("script finished"); p != std::string::npos;
               p = err->find("script finished", p + 1))
            ++finished;
        }
        return finished >= 3;
      },
      180s))
      << pi1.err() << pi2.err();

  // The relay ends with each board's whole game, exactly as its daemon has it.
  const std::vector<std::pair<std::string, std::uint16_t>> boards = {
      {"pi1/a1", http1}, {"pi1/a2", http1}, {"pi2/b1", http2}};
  std::string expected_round;
  for (const auto& [key, port] : boards) {
    const std::string truth = http_get(port, "/boards/" + key.substr(4) + ".pgn").body;
    std::string got;
    EXPECT_TRUE(poll_until(
        [&] {
          poll_round();
          got = http_get(relay_port, "/boards/" + key + ".pgn").body;
          return without_game_id(got) == without_game_id(truth);
        },
        30s))
        << key << "\nrelay:\n"
        << got << "\ndaemon:\n"
        << truth << "\n"
        << relay.err();
    EXPECT_NE(got.find("[GameId \"" + key.substr(0, 3) + "-" + key.substr(4) + "-"),
              std::string::npos)
        << got;
    expected_round += got;
  }
  HttpReply round = http_get(relay_port, "/round.pgn");
  EXPECT_EQ(without_game_id(round.body), without_game_id(expected_round)) << "board order";
  EXPECT_EQ(pgn_extract_diagnostics(dir + "/x", round.body), "");
  // 304 for the ETag just read (read again while the running clocks change the text).
  HttpReply latest;
  HttpReply cached;
  EXPECT_TRUE(poll_until(
      [&] {
        latest = http_get(relay_port, "/round.pgn");
        cached =
            http_get(relay_port, "/round.pgn", "If-None-Match: " + latest.headers["etag"] + "\r\n");
        return cached.status == 304;
      },
      10s));
  EXPECT_EQ(cached.body, "");
  EXPECT_EQ(cached.headers["content-length"], std::to_string(latest.body.size()));
  HttpReply head = http_request(relay_port, "HEAD", "/round.pgn");
  EXPECT_EQ(head.body, "");
  EXPECT_FALSE(head.headers["content-length"].empty());
  EXPECT_NE(head.headers["content-length"], "0");
  std::cout << versions << " versions of /round.pgn read by pgn-extract\n";

  // The view: every board's whole sequence, once each, equal to the journal's.
  auto truth = journal_events(dir + "/pi1/events.sock");
  truth.merge(journal_events(dir + "/pi2/events.sock"));
  ASSERT_EQ(truth.size(), 3u);
  for (const auto& [id, events] : truth) {
    ASSERT_TRUE(poll_until(
        [&, id = id] {
          drain(view);
          std::size_t n = 0;
          std::istringstream in(view.out());
          for (std::string line; std::getline(in, line);)
            n += line.find("\"boardId\":\"" + id + "\"") != std::string::npos;
          return n >= events.size();
        },
        30s))
        << id;
  }
  std::map<std::string, std::vector<v1::Event>> seen;
  std::istringstream in(view.out());
  for (std::string line; std::getline(in, line);) {
    if (auto e = proto::event_from_json(line); e.ok()) seen[e->board_id()].push_back(e.value());
  }
  // (The clocks still run, so the view may already have events the journal read had not.)
  for (const auto& [id, events] : truth) {
    ASSERT_GE(seen[id].size(), events.size()) << id << ": lost";
    for (std::size_t i = 0; i < seen[id].size(); ++i) {
      ASSERT_EQ(seen[id][i].seq(), i + 1) << id << ": a gap or a repeat";
      if (i < events.size()) {
        EXPECT_EQ(seen[id][i].SerializeAsString(), events[i].SerializeAsString())
            << id << " seq " << events[i].seq();
      }
    }
  }

  // The push endpoint got the final round; every request had the token and the body as
  // plain UTF-8 text; none came sooner than a second after the one before (the relay
  // counts the second from the answer, which comes after the endpoint read the request,
  // so this holds however slowly the requests travel: no margin for jitter).
  ASSERT_TRUE(poll_until(
      [&] {
        drain(relay);
        const auto r = endpoint.requests();
        return !r.empty() && r.back().status == 200 &&
               without_game_id(r.back().body) == without_game_id(round.body);
      },
      20s))
      << relay.err();
  const auto requests = endpoint.requests();
  for (std::size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ(requests[i].authorization, "Bearer lip_secret");
    EXPECT_EQ(requests[i].content_type, "text/plain; charset=utf-8");
    EXPECT_GE(requests[i].games, 1u);
    if (i > 0) {
      EXPECT_GE(requests[i].at - requests[i - 1].at, 1000ms) << "request " << i;
    }
  }
  EXPECT_EQ(requests.back().games, 3u);
  std::cout << requests.size() << " pushes\n";
  // The refused game is reported on the log and the event page; the others went through.
  EXPECT_NE(relay.err().find("Cannot match this game to a chapter"), std::string::npos)
      << relay.err();
  const std::string page = http_get(relay_port, "/").body;
  EXPECT_NE(page.find("Cannot match this game to a chapter"), std::string::npos) << page;
  EXPECT_NE(page.find("moves accepted"), std::string::npos) << page;
  std::smatch fan_in;
  if (std::regex_search(page, fan_in, std::regex("fan-in: [^<]*")))
    std::cout << fan_in.str() << "\n";
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
