// Rounds end to end (docs/interfaces.md §6.2): a round put on three emulated boards, from a
// real TRF16 file at the daemon's start (--round-file) and from a round CSV with
// eboard-ctl round; the players and tags appear in /live.pgn, the MQTT retained state and
// the finished games' PGN files (read back by pgn-extract, a reader no one here wrote); a
// round file with a mistake is a file:line error that changes nothing.
#include "tests/daemon/ctl/ctl_e2e_helpers.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace eboard::daemon::ctl_test {
namespace {

using broadcast_test::Broker;
using broadcast_test::http_get;
using broadcast_test::Subscriber;

const std::string kTrf =
    std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/round/data/held_swiss_5.trf";

// The daemon with three emulated boards, HTTP and MQTT.
std::vector<std::string> round_daemon_args(const std::string& dir, const std::string& script,
                                           std::uint16_t http, std::uint16_t mqtt) {
  auto args = ctl_daemon_args(dir, {"b1=sim:" + script, "b2=sim:" + script, "b3=sim:" + script});
  args.insert(args.end(),
              {"--http", "127.0.0.1:" + std::to_string(http), "--mqtt",
               "127.0.0.1:" + std::to_string(mqtt), "--mqtt-site", "open", "--mqtt-node", "pi1"});
  return args;
}

// The retained state of a board as the broker holds it.
std::optional<v1::Snapshot> mqtt_state(Subscriber& mqtt, const std::string& board,
                                       const std::function<bool(const v1::Snapshot&)>& ready) {
  std::optional<v1::Snapshot> found;
  poll_until(
      [&] {
        for (const auto& payload : mqtt.payloads("eboard/v1/open/pi1/" + board + "/state")) {
          v1::Snapshot s;
          if (s.ParseFromString(payload) && ready(s)) found = s;
        }
        return found.has_value();
      },
      15s);
  return found;
}

std::string tag(const v1::Snapshot& s, const std::string& name) {
  for (const auto& t : s.tags()) {
    if (t.name() == name) return t.value();
  }
  return "";
}

// pgn-extract reads the file without a diagnostic and writes it back with the tags.
std::string pgn_extract(const std::string& dir, const std::string& file) {
  const std::string out = dir + "/extracted.pgn";
  const int status = std::system(("/usr/games/pgn-extract -s -o " + out + " -l " + dir +
                                  "/extract.log " + file + " 2>/dev/null")
                                     .c_str());
  EXPECT_EQ(status, 0);
  EXPECT_EQ(read_file(dir + "/extract.log"), "") << file;
  return read_file(out);
}

// held_swiss_5.trf round 5, boards 1-3 (round_trf.h numbering, round_sheet_test.cpp).
TEST(RoundE2e, TrfRoundAtStartShowsThePlayersEverywhere) {
  const std::string dir = temp_dir("round-trf");
  const std::uint16_t mqtt_port = free_tcp_port();
  Broker broker(dir, mqtt_port);
  ASSERT_TRUE(broker.start());
  Subscriber mqtt(mqtt_port, "eboard/v1/open/#", "round-trf-test");
  const std::uint16_t http = free_tcp_port();
  auto args = round_daemon_args(dir, kScript, http, mqtt_port);
  args.insert(args.end(), {"--round-file", kTrf, "--round", "5", "--date", "2024.08.05", "--site",
                           "Oslo NOR", "--sim-speed", "4"});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  EXPECT_NE(daemon.err().find("board b1: round 5 board 1: Charline - Bruno"), std::string::npos)
      << daemon.err();
  ASSERT_TRUE(daemon.wait_for(
      [](const std::string& out, const std::string&) {
        std::size_t n = 0;
        for (auto at = out.find("\"gameEnded\""); at != std::string::npos;
             at = out.find("\"gameEnded\"", at + 1))
          ++n;
        return n >= 3;
      },
      60s))
      << daemon.err();

  const std::vector<std::vector<std::string>> boards = {
      {"b1", "5.1", "Charline", "Bruno", "2100", "2150"},
      {"b2", "5.2", "Alyx", "David", "2200", "2050"},
      {"b3", "5.3", "Irina", "Franck", "1850", "1950"}};
  const std::string live = http_get(http, "/live.pgn").body;
  for (const auto& b : boards) {
    const std::string header =
        "[Event \"FIDE C.07 2023 Tie-Break Exercises\"]\n[Site \"Oslo NOR\"]\n"
        "[Date \"2024.08.05\"]\n[Round \"" +
        b[1] + "\"]\n[White \"" + b[2] + "\"]\n[Black \"" + b[3] + "\"]\n[Result \"1-0\"]\n";
    EXPECT_NE(live.find(header), std::string::npos) << header << "\nin\n" << live;
    const std::string file = read_file(dir + "/journal/" + b[0] + "-game1.pgn");
    EXPECT_NE(file.find(header), std::string::npos) << file;
    for (const std::string& extra :
         {"[Board \"" + b[1].substr(2) + "\"]", "[WhiteElo \"" + b[4] + "\"]",
          "[BlackElo \"" + b[5] + "\"]"}) {
      EXPECT_NE(file.find(extra), std::string::npos) << extra << " in " << file;
      EXPECT_NE(live.find(extra), std::string::npos) << extra;
    }
    const std::string extracted = pgn_extract(dir, dir + "/journal/" + b[0] + "-game1.pgn");
    EXPECT_NE(extracted.find("[White \"" + b[2] + "\"]"), std::string::npos) << extracted;
    EXPECT_NE(extracted.find("[Round \"" + b[1] + "\"]"), std::string::npos) << extracted;
    EXPECT_NE(extracted.find("4. Qxf7#"), std::string::npos) << extracted;
    EXPECT_NE(extracted.find("[Result \"1-0\"]"), std::string::npos) << extracted;
    const auto state =
        mqtt_state(mqtt, b[0], [](const v1::Snapshot& s) { return !s.result().empty(); });
    ASSERT_TRUE(state) << b[0];
    EXPECT_EQ(tag(*state, "White"), b[2]);
    EXPECT_EQ(tag(*state, "Black"), b[3]);
    EXPECT_EQ(tag(*state, "Round"), b[1]);
    EXPECT_EQ(tag(*state, "WhiteElo"), b[4]);
  }
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  broker.stop();
  std::filesystem::remove_all(dir);
}

// The JaVaFo manual's real open (tests/daemon/round/data/README.md), round 4, boards 1-3 at
// the daemon's start: TRF-2006 title letters become GM, IM, FM tags; an unrated player
// (rating and id 0) gets no Elo or FIDE id tag; a name with a comma stays one name.
// pgn-extract reads each finished game without a diagnostic and keeps every tag.
TEST(RoundE2e, RealOpenFromJavafoManualReachesThePgnFiles) {
  const std::string dir = temp_dir("round-gros");
  const std::string trf =
      std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/round/data/javafo_gros_2010.trf";
  auto args = ctl_daemon_args(dir, {"b1=sim:" + kScript, "b2=sim:" + kScript, "b3=sim:" + kScript});
  args.insert(args.end(), {"--round-file", trf, "--round", "4", "--sim-speed", "4"});
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  ASSERT_TRUE(poll_until(
      [&] {
        for (const char* b : {"b1", "b2", "b3"})
          if (!std::filesystem::exists(dir + "/journal/" + b + "-game1.pgn")) return false;
        return true;
      },
      60s))
      << daemon.err();
  // board, then the tags pgn-extract must give back, then those the game must not have.
  const std::vector<std::tuple<std::string, std::vector<std::string>, std::vector<std::string>>>
      boards = {
          {"b1",
           {"[Round \"4.1\"]", "[White \"Guijarro Galan Jose Luis\"]", "[Black \"Mirzoev Azer\"]",
            "[BlackTitle \"GM\"]", "[BlackElo \"2527\"]", "[BlackFideId \"13400304\"]",
            "[WhiteElo \"2222\"]", "[WhiteFideId \"32004478\"]"},
           {"[WhiteTitle "}},
          {"b2",
           {"[Round \"4.2\"]", "[White \"Argandona Riveiro Inigo\"]",
            "[Black \"Sanz Perez Eduardo\"]", "[WhiteTitle \"IM\"]", "[WhiteElo \"2408\"]"},
           {}},
          {"b3",
           {"[Round \"4.3\"]", "[White \"Gorrochategui Torres, Eugenio\"]",
            "[Black \"Hernandez Elvis\"]", "[BlackTitle \"FM\"]", "[BlackFideId \"6400353\"]"},
           {"[WhiteElo ", "[WhiteFideId "}}};
  for (const auto& [board, present, absent] : boards) {
    const std::string file = dir + "/journal/" + board + "-game1.pgn";
    const std::string extracted = pgn_extract(dir, file);
    for (const std::string& t : std::vector<std::string>{
             "[Event \"XX Open Internacional de Gros\"]", "[Site \"Donostia ESP\"]",
             "[Board \"" + present[0].substr(10, 1) + "\"]", "[Result \"1-0\"]", "4. Qxf7#"})
      EXPECT_NE(extracted.find(t), std::string::npos) << t << " in\n" << extracted;
    for (const std::string& t : present)
      EXPECT_NE(extracted.find(t), std::string::npos) << t << " in\n" << extracted;
    for (const std::string& t : absent)
      EXPECT_EQ(extracted.find(t), std::string::npos) << t << " in\n" << extracted;
  }
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  std::filesystem::remove_all(dir);
}

const std::string kCsv =
    "board,white,black,white_title,white_elo,black_elo,white_fide_id,black_fide_id,white_team,"
    "black_team\n"
    "1,\"Carlsen, Magnus\",\"Ding, Liren\",GM,2830,2780,1503014,8603677,Norway,China\n"
    "2,\"Hou, Yifan\",\"Ju, Wenjun\",GM,2630,2560,8602980,8603006,China,China\n"
    "3,\"Tari, Aryan\",\"M\xC3\xBCller, Hans\",,2650,,1510045,,Norway,\n";

// A TRF whose round 1 has one pairing, with its mistakes (line 3 is player 2).
const std::string kTrfText =
    "012 Mistakes Open\n"
    "001    1 m    Alpha, Ann                        2000 NOR           0 1990/01/01  0.0    1     "
    "2 w  \n"
    "001    2 m    Beta, Bob                         1900 NOR           0 1990/01/01  0.0    2     "
    "1 b  \n";

TEST(RoundE2e, CsvRoundWithCtlAndBadFilesChangeNothing) {
  const std::string dir = temp_dir("round-csv");
  const std::uint16_t mqtt_port = free_tcp_port();
  Broker broker(dir, mqtt_port);
  ASSERT_TRUE(broker.start());
  Subscriber mqtt(mqtt_port, "eboard/v1/open/#", "round-csv-test");
  const std::uint16_t http = free_tcp_port();
  Child daemon(round_daemon_args(dir, idle_script(dir, "idle", ""), http, mqtt_port));
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  for (const char* b : {"b1", "b2", "b3"}) {
    ASSERT_TRUE(wait_event(daemon, 0, [b](const v1::Event& e) {
      return e.board_id() == b && e.has_game_started();
    })) << daemon.err();
  }
  const std::string socket = "unix:" + dir + "/events.sock";
  std::ofstream(dir + "/r2.csv") << kCsv;
  const CtlRun round =
      ctl({"--connect", socket, "round", dir + "/r2.csv", "--round", "2", "--event", "Candidates",
           "--site", "Toronto CAN", "--date", "2026.04.04"});
  ASSERT_EQ(round.status, 0) << round.err;
  EXPECT_EQ(round.out.substr(0, round.out.find('\n')),
            "b1: round 2 board 1: Carlsen, Magnus - Ding, Liren (seq " +
                round.out.substr(round.out.find("(seq ") + 5,
                                 round.out.find(')') - round.out.find("(seq ") - 5) +
                ")");
  for (const char* b : {"b1", "b2", "b3"}) {
    ASSERT_TRUE(wait_event(daemon, 0, [b](const v1::Event& e) {
      return e.board_id() == b && e.has_game_started() && e.game_started().tags_size() > 3;
    })) << b;
  }
  // The overlay and the text view read the same tags; status prints them.
  const CtlRun status = ctl({"--connect", socket, "status", "b1"});
  EXPECT_NE(status.out.find("b1: GM Carlsen, Magnus 2830 - Ding, Liren 2780  (round 2.1)"),
            std::string::npos)
      << status.out;
  const std::string live = http_get(http, "/live.pgn").body;
  EXPECT_NE(live.find("[Event \"Candidates\"]\n[Site \"Toronto CAN\"]\n[Date \"2026.04.04\"]\n"
                      "[Round \"2.3\"]\n[White \"Tari, Aryan\"]\n[Black \"M\xC3\xBCller, Hans\"]"),
            std::string::npos)
      << live;
  for (const char* t :
       {"[WhiteTitle \"GM\"]", "[WhiteFideId \"1503014\"]", "[BlackFideId \"8603677\"]",
        "[WhiteTeam \"Norway\"]", "[BlackTeam \"China\"]", "[Board \"2\"]"}) {
    EXPECT_NE(live.find(t), std::string::npos) << t;
  }
  const auto state =
      mqtt_state(mqtt, "b2", [](const v1::Snapshot& s) { return !tag(s, "Round").empty(); });
  ASSERT_TRUE(state);
  EXPECT_EQ(tag(*state, "White"), "Hou, Yifan");
  EXPECT_EQ(tag(*state, "BlackElo"), "2560");

  // Mistakes: a bad line, an unknown round, an odd pairing. Each is one file:line line,
  // exit 2, and no board hears of it.
  // (The boards are idle: the only events a round file could cause are new games and
  // commands' records.)
  const auto touched = [&daemon] {
    const auto events = events_of(daemon);
    return std::count_if(events.begin(), events.end(), [](const v1::Event& e) {
      return e.has_game_started() || e.has_command_applied();
    });
  };
  const auto quiet = touched();
  const std::vector<std::pair<std::string, std::string>> mistakes = {
      {std::string(kTrfText).replace(kTrfText.find("001    2"), 8, "001    B"),
       "bad.trf:3: starting rank 'B' (columns 5-8) is not a number from 1 to 9999"},
      {kTrfText,
       "bad.trf:2: round 2: no player has a pairing in it (the entries go up to round 1)"},
      {std::string(kTrfText).replace(kTrfText.find("1 b  "), 5, "1 w  "),
       "bad.trf:2: round 1: player 1 plays 2 with white, but player 2's entry (line 3) does not "
       "say "
       "1 with black (odd pairing)"}};
  for (std::size_t i = 0; i < mistakes.size(); ++i) {
    std::ofstream(dir + "/bad.trf") << mistakes[i].first;
    const std::string round_number = i == 1 ? "2" : "1";
    const CtlRun bad =
        ctl({"--connect", socket, "round", dir + "/bad.trf", "--round", round_number});
    EXPECT_EQ(bad.status, 2) << bad.out;
    EXPECT_EQ(bad.err, "eboard-ctl: " + dir + "/" + mistakes[i].second + "\n");
    Child start({kBin + "/eboardd", "--board", "b1=sim:" + kScript, "--round-file",
                 dir + "/bad.trf", "--round", round_number});
    EXPECT_EQ(start.wait(10s), 2);
    EXPECT_EQ(start.err(), "eboardd: --round-file: " + dir + "/" + mistakes[i].second + "\n");
  }
  EXPECT_EQ(touched(), quiet) << "a bad round file reached a board";

  // A board whose game has moves is not replaced unless --force.
  // (The idle boards have none; the games end by the arbiter's results, written as PGN.)
  for (const char* b : {"b1", "b2", "b3"}) {
    EXPECT_EQ(ctl({"--connect", socket, "result", b, "1/2-1/2"}).status, 0);
  }
  ASSERT_TRUE(
      poll_until([&] { return std::filesystem::exists(dir + "/journal/b3-game2.pgn"); }, 10s));
  const std::string finished = read_file(dir + "/journal/b1-game2.pgn");
  EXPECT_NE(finished.find("[Round \"2.1\"]\n[White \"Carlsen, Magnus\"]\n[Black \"Ding, Liren\"]\n"
                          "[Result \"1/2-1/2\"]"),
            std::string::npos)
      << finished;
  EXPECT_NE(pgn_extract(dir, dir + "/journal/b3-game2.pgn").find("[Black \"M\xC3\xBCller, Hans\"]"),
            std::string::npos);
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  broker.stop();
  std::filesystem::remove_all(dir);
}

TEST(RoundE2e, GamesInProgressAreNotReplacedWithoutForce) {
  const std::string dir = temp_dir("round-busy");
  Child daemon(ctl_daemon_args(dir, {"b1=sim:" + idle_script(dir, "b1", kTwoMoves)}));
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  ASSERT_TRUE(wait_event(daemon, 0, [](const v1::Event& e) {
    return e.has_move_completed() && e.move_completed().ply() == 2;
  }));
  std::ofstream(dir + "/r.csv") << "board,white,black\n1,A. Player,B. Player\n";
  const std::string socket = "unix:" + dir + "/events.sock";
  const CtlRun busy = ctl({"--connect", socket, "round", dir + "/r.csv", "--round", "1"});
  EXPECT_EQ(busy.status, 1);
  EXPECT_EQ(busy.err,
            "eboard-ctl: round: a game is in progress on b1 (move 2); set its result first "
            "(eboard-ctl result BOARD RESULT) or use --force\n");
  const CtlRun forced =
      ctl({"--connect", socket, "round", dir + "/r.csv", "--round", "1", "--force"});
  EXPECT_EQ(forced.status, 0) << forced.err;
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon::ctl_test
