// The round readers on real TRF files (data/README.md says where they come from) and the
// plan that puts a round on the daemon's boards.
#include "daemon/round/round_sheet.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "daemon/round/round_trf.h"

namespace eboard::daemon::round {
namespace {

const std::string kData = std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/round/data/";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

RoundOptions round(int n) {
  RoundOptions o;
  o.round = n;
  return o;
}

std::vector<std::string> names(const RoundSheet& sheet) {
  std::vector<std::string> out;
  for (const Pairing& p : sheet.pairings) out.push_back(p.white.name + " - " + p.black.name);
  return out;
}

// Every round of every real file: each pairing agrees from both sides (the reader checks
// that), nobody plays twice in a round, boards are numbered 1..n, every player has a name.
TEST(RoundFiles, EveryRoundOfTheRealFilesReads) {
  const std::vector<std::pair<std::string, int>> files = {
      {"held_swiss_5.trf", 5},     {"held_swiss_9.trf", 9},
      {"held_round_robin.trf", 5}, {"swiss_with_many_unplayed_rounds.trf", 7},
      {"fideteam_nocolor.trf", 7}, {"javafo_gros_2010.trf", 4}};
  for (const auto& [file, rounds] : files) {
    const std::string text = read(kData + file);
    ASSERT_FALSE(text.empty()) << file;
    ASSERT_TRUE(looks_like_trf(text)) << file;
    for (int r = 1; r <= rounds; ++r) {
      auto sheet = parse_round(text, file, round(r));
      ASSERT_FALSE(!sheet) << file << " round " << r << ": " << sheet.error();
      std::set<std::string> seen;
      for (std::size_t i = 0; i < sheet->pairings.size(); ++i) {
        const Pairing& p = sheet->pairings[i];
        EXPECT_EQ(p.board, int(i) + 1);
        EXPECT_FALSE(p.white.name.empty());
        EXPECT_TRUE(seen.insert(p.white.name).second) << file << " round " << r;
        EXPECT_TRUE(seen.insert(p.black.name).second) << file << " round " << r;
      }
    }
    auto beyond = parse_round(text, file, round(rounds + 1));
    ASSERT_TRUE(!beyond) << file;
    EXPECT_NE(beyond.error().find("no player has a pairing in it"), std::string::npos);
  }
}

// held_swiss_5.trf round 5, scores before it: 2 Bruno 3.5; 1 Alyx, 3 Charline, 4 David 3;
// 16 Stephan, 8 Irina 2.5; 6 Franck, 15 Reine 2; 5, 7, 11, 13 1.5; 10, 14 1 (9 and 12 do
// not play). Boards: higher score, sum, better starting rank (round_trf.h).
TEST(RoundFiles, BoardsInThePublishedOrderOfTheSwissRules) {
  auto sheet = parse_round(read(kData + "held_swiss_5.trf"), "held_swiss_5.trf", round(5));
  ASSERT_FALSE(!sheet) << sheet.error();
  const std::vector<std::string> expected = {
      "Charline - Bruno",  "Alyx - David",  "Irina - Franck", "Stephan - Reine",
      "Maria - Genevieve", "Helene - Lais", "Opal - Paul"};
  EXPECT_EQ(names(*sheet), expected);
  EXPECT_EQ(sheet->event, "FIDE C.07 2023 Tie-Break Exercises");
  EXPECT_EQ(sheet->pairings[0].white.elo, "2100");
  EXPECT_EQ(sheet->date, "");  // the file has no 132 record
}

TEST(RoundFiles, CrlfFileWithRulersTitlesAndForfeits) {
  const std::string file = "swiss_with_many_unplayed_rounds.trf";
  auto sheet = parse_round(read(kData + file), file, round(4));
  ASSERT_FALSE(!sheet) << sheet.error();
  EXPECT_EQ(sheet->event, "Test");
  EXPECT_EQ(sheet->site, "ZZZ");
  bool titled = false;
  int forfeits = 0;
  for (const Pairing& p : sheet->pairings) {
    titled = titled || (p.white.name == "Player, 1" && p.white.title == "FM");
    forfeits += p.forfeit ? 1 : 0;
  }
  EXPECT_TRUE(titled);     // "mFM ": sex m, title FM
  EXPECT_EQ(forfeits, 2);  // 1-14 (+/-) and 5-2 (+/-)
}

// The XX Open Internacional de Gros (Donostia 2010) after round 4, as JaVaFo's manual
// gives it: titles in TRF-2006 letters (g, m, f), unrated players with rating and id 0,
// `0000 - H`/`U`/`Z` byes, a forfeit in round 4 (8-21), and round 5 not paired yet (only
// byes in it). Scores before round 4: 1, 2, 3, 4, 5, 6 have 3; 18 has 2.5; 8, 9, 10, 11,
// 12, 13, 21, 22, 23, 45 have 2. The boards follow (round_trf.h): 4-1, 2-5, 6-3, then
// 18-7, then the games of 2 + 2 points by the better starting rank, 8-21 first.
TEST(RoundFiles, JavafoSampleRoundFourInThePublishedOrder) {
  const std::string file = "javafo_gros_2010.trf";
  auto sheet = parse_round(read(kData + file), file, round(4));
  ASSERT_FALSE(!sheet) << sheet.error();
  EXPECT_EQ(sheet->event, "XX Open Internacional de Gros");
  EXPECT_EQ(sheet->site, "Donostia ESP");
  EXPECT_EQ(sheet->date, "");  // no 132 record
  // 52 players; 28 (Z), 29, 30, 37, 41 (H) and 48 (U) do not play: 23 games.
  ASSERT_EQ(sheet->pairings.size(), 23u);
  const std::vector<std::string> top = {
      "Guijarro Galan Jose Luis - Mirzoev Azer",
      "Argandona Riveiro Inigo - Sanz Perez Eduardo",
      "Gorrochategui Torres, Eugenio - Hernandez Elvis",
      "Tung Siu Hung - Lakunza Oyarbide Juan Carlos",
      "Ladron De Guevara Galar Fco J - Izquierdo Arruferia Joseba",
      "Rodriguez Cabrera Fco. Javier - Alvarado Fernandez Mikel",
      "Darrigues Alain - Iglesias Gonzalez Veronica",
      "Markina Amutxastegi Fernando - Maruejols Claude",
      "Segovia Sanchez Antonio - Irulegi Garmendia Jose Antoni"};
  const std::vector<std::string> all = names(*sheet);
  EXPECT_EQ(std::vector<std::string>(all.begin(), all.begin() + 9), top);
  EXPECT_EQ(sheet->pairings[0].black.title, "GM");  // "  g"
  EXPECT_EQ(sheet->pairings[1].white.title, "IM");  // "  m"
  EXPECT_EQ(sheet->pairings[2].black.title, "FM");  // "  f"
  EXPECT_EQ(sheet->pairings[0].black.fide_id, "13400304");
  EXPECT_EQ(sheet->pairings[0].black.elo, "2527");
  const Pairing& unrated = sheet->pairings[2];
  EXPECT_EQ(unrated.white.elo, "");      // rating 0
  EXPECT_EQ(unrated.white.fide_id, "");  // id 0
  int forfeits = 0;
  for (const Pairing& p : sheet->pairings) forfeits += p.forfeit ? 1 : 0;
  EXPECT_EQ(forfeits, 1);
  EXPECT_TRUE(sheet->pairings[4].forfeit);  // `21 w -` / `8 b +`
  auto plan = plan_round(*sheet, {"b1", "b2", "b3", "b4", "b5", "b6"});
  ASSERT_FALSE(!plan) << plan.error();
  EXPECT_EQ(plan->games.size(), 5u);  // board 5 is the forfeit
  EXPECT_EQ(plan->forfeits, std::vector<int>{5});
}

// Round 1 of the same file: everyone on 0, so boards go by the better starting rank, and
// three games forfeited with their colours (13-39, 42-16, 46-20).
TEST(RoundFiles, JavafoSampleFirstRoundForfeits) {
  const std::string file = "javafo_gros_2010.trf";
  auto sheet = parse_round(read(kData + file), file, round(1));
  ASSERT_FALSE(!sheet) << sheet.error();
  // 52 players: 28 absent (Z), 52 with the pairing-allocated bye (U).
  EXPECT_EQ(sheet->pairings.size(), 25u);
  std::vector<int> forfeits;
  for (const Pairing& p : sheet->pairings)
    if (p.forfeit) forfeits.push_back(p.board);
  EXPECT_EQ(forfeits, (std::vector<int>{13, 16, 20}));
  EXPECT_EQ(names(*sheet)[15], "Abalia Patino Aritz - Bello Castano Diego");
}

// Round 5 is the one the manual's file was written to pair: no game in it yet.
TEST(RoundFiles, JavafoSampleRoundToBePairedHasNoGames) {
  auto sheet = parse_round(read(kData + "javafo_gros_2010.trf"), "gros.trf", round(5));
  ASSERT_TRUE(!sheet);
  EXPECT_NE(sheet.error().find("no player has a pairing in it"), std::string::npos)
      << sheet.error();
}

TEST(RoundFiles, RoundRobinForfeitIsNotPlayed) {
  auto sheet = parse_round(read(kData + "held_round_robin.trf"), "rr.trf", round(4));
  ASSERT_FALSE(!sheet) << sheet.error();
  auto plan = plan_round(*sheet, {"b1", "b2", "b3"});
  ASSERT_FALSE(!plan) << plan.error();
  EXPECT_EQ(plan->games.size(), 2u);
  EXPECT_EQ(plan->forfeits.size(), 1u);
}

RoundSheet three_boards() {
  RoundSheet sheet;
  sheet.path = "r.csv";
  sheet.round = 2;
  sheet.event = "Club Championship";
  for (int b = 1; b <= 4; ++b) {
    Pairing p;
    p.board = b;
    p.line = b + 1;
    p.white.name = "W" + std::to_string(b);
    p.black.name = "B" + std::to_string(b);
    sheet.pairings.push_back(p);
  }
  return sheet;
}

TEST(RoundPlan, BoardsGoToTheDaemonBoardsInOrderOrAsNamed) {
  RoundSheet sheet = three_boards();
  sheet.pairings[0].eboard = "b3";
  sheet.pairings[2].eboard = "b1";
  auto plan = plan_round(sheet, {"b1", "b2", "b3"});
  ASSERT_FALSE(!plan) << plan.error();
  ASSERT_EQ(plan->games.size(), 3u);
  EXPECT_EQ(plan->games[0].board_id, "b3");
  EXPECT_EQ(plan->games[1].board_id, "b2");
  EXPECT_EQ(plan->games[2].board_id, "b1");
  EXPECT_EQ(plan->without_board, std::vector<int>{4});
  const Tags expected = {{"Event", "Club Championship"},
                         {"Round", "2.2"},
                         {"Board", "2"},
                         {"White", "W2"},
                         {"Black", "B2"}};
  EXPECT_EQ(plan->games[1].tags, expected);
}

TEST(RoundPlan, UnknownOrSharedDaemonBoardIsAnError) {
  RoundSheet sheet = three_boards();
  sheet.pairings[1].eboard = "b9";
  auto plan = plan_round(sheet, {"b1", "b2", "b3"});
  ASSERT_TRUE(!plan);
  EXPECT_EQ(plan.error(),
            "r.csv:3: eboard 'b9' is not a board of the daemon (its boards: b1, b2, b3)");
  sheet.pairings[1].eboard = "b1";
  plan = plan_round(sheet, {"b1", "b2", "b3"});
  ASSERT_TRUE(!plan);
  EXPECT_EQ(plan.error(), "r.csv:3: board b1 would play boards 1 and 2 of the round");
}

TEST(RoundPlan, BoardMapPicksTheBoardsToPlay) {
  RoundSheet sheet = three_boards();
  ASSERT_FALSE(apply_board_map("board,eboard\n4,b1\n2,b2\n", "map.csv", sheet));
  auto plan = plan_round(sheet, {"b1", "b2"});
  ASSERT_FALSE(!plan) << plan.error();
  ASSERT_EQ(plan->games.size(), 2u);
  EXPECT_EQ(plan->games[0].board, 2);
  EXPECT_EQ(plan->games[0].board_id, "b2");
  EXPECT_EQ(plan->games[1].board, 4);
  EXPECT_EQ(plan->games[1].board_id, "b1");
  RoundSheet again = three_boards();
  auto error = apply_board_map("board,eboard\n7,b1\n", "map.csv", again);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message, "map.csv:2: board '7' is not a board of round 2 in r.csv (boards 1-4)");
  error = apply_board_map("board,daemon\n", "map.csv", again);
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message, "map.csv:1: a board map's header is 'board,eboard'");
}

TEST(RoundPlan, DatesArePgnDates) {
  EXPECT_FALSE(check_pgn_date("2026.03.14"));
  EXPECT_FALSE(check_pgn_date("2026.??.??"));
  EXPECT_EQ(check_pgn_date("2026-03-14"), "'2026-03-14' is not a PGN date YYYY.MM.DD");
}

}  // namespace
}  // namespace eboard::daemon::round
