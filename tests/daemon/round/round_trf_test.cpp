#include "daemon/round/round_trf.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "daemon/round/round_sheet.h"

namespace eboard::daemon::round {
namespace {

// A 001 record with its fields at their columns (round_trf.h); `rounds` are the 8-column
// entries "NNNN C R".
std::string player(int rank, const std::string& title, const std::string& name,
                   const std::string& elo, const std::string& id,
                   const std::vector<std::string>& rounds) {
  std::string line(91, ' ');
  const auto put = [&line](int column, const std::string& text) {
    line.replace(std::size_t(column - 1), text.size(), text);
  };
  const auto right = [](const std::string& text, std::size_t width) {
    return std::string(width - text.size(), ' ') + text;
  };
  put(1, "001");
  put(5, right(std::to_string(rank), 4));
  put(10, "m");
  put(11, title);
  put(15, name);
  put(49, right(elo, 4));
  put(54, "NOR");
  put(58, right(id, 11));
  put(70, "1990/01/01");
  put(81, " 0.0");
  put(86, right(std::to_string(rank), 4));
  for (std::size_t r = 0; r < rounds.size(); ++r) line += (r ? "  " : "") + rounds[r];
  return line;
}

// A TRF in UTF-8 pads by characters: the name's two-byte letter takes one column.
std::string utf8_name(std::string line) {
  return line.replace(line.find("Odegaard"), 1, "\xC3\x98");
}

// Seven players after two rounds, round 3 paired but not played: 2-1, 7-4, 3-5, 6 a bye.
// Scores before round 3: 1 1.5, 2 2, 3 0.5, 4 1.5, 5 1, 6 0, 7 1.5.
std::string spring_open() {
  std::string dates(91, ' ');
  dates.replace(0, 3, "132");
  dates += "26/03/12  26/03/13  26/03/14";
  return "012 Spring Open 2026\n"
         "022 Oslo\n"
         "032 NOR\n"
         "042 2026/03/12\n"
         "052 2026/03/14\n" +
         dates + "\n" +
         player(1, "GM", "Carlsen, Magnus", "2830", "1503014",
                {"   5 w 1", "   4 b =", "   2 b  "}) +
         "\n" +
         player(2, "g", "Tari, Aryan", "2650", "1510045", {"   6 b 1", "   3 w 1", "   1 w  "}) +
         "\n" + player(3, "", "Hansen, Eirik", "0000", "0", {"   7 w =", "   2 b 0", "   5 w"}) +
         "\n" +
         player(4, "wg", "Kosteniuk, Alexandra", "2500", "4107012",
                {"0000 - U", "   1 w =", "   7 b  "}) +
         "\n" + player(5, "", "M\xFCller, Hans", "1900", "", {"   1 b 0", "0000 - U", "   3 b  "}) +
         "\n" + player(6, "", "Berg, Ida", "1700", "", {"   2 w 0", "   7 b 0", "0000 - U"}) +
         "\n" +
         utf8_name(
             player(7, "IM", "Odegaard, Ola", "2400", "", {"   3 b =", "   6 w 1", "   4 w  "})) +
         "\n" + "013 Oslo Schakselskap            " + "   1    2\n";
}

RoundOptions round(int n) {
  RoundOptions o;
  o.round = n;
  return o;
}

std::string error_of(const std::string& text, int n = 3) {
  auto sheet = parse_trf(text, "t.trf", round(n));
  return sheet ? std::string("(no error)") : sheet.error();
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(RoundTrf, PairingsOfTheRoundInBoardOrderWithTags) {
  auto sheet = parse_trf(spring_open(), "t.trf", round(3));
  ASSERT_FALSE(!sheet) << sheet.error();
  EXPECT_EQ(sheet->event, "Spring Open 2026");
  EXPECT_EQ(sheet->site, "Oslo NOR");
  EXPECT_EQ(sheet->date, "2026.03.14");
  ASSERT_EQ(sheet->pairings.size(), 3u);
  const Pairing& b1 = sheet->pairings[0];
  EXPECT_EQ(b1.board, 1);
  EXPECT_EQ(b1.white.name, "Tari, Aryan");
  EXPECT_EQ(b1.white.title, "GM");  // TRF-2006's "g"
  EXPECT_EQ(b1.white.team, "Oslo Schakselskap");
  EXPECT_EQ(b1.black.name, "Carlsen, Magnus");
  EXPECT_EQ(b1.black.elo, "2830");
  EXPECT_EQ(b1.black.fide_id, "1503014");
  EXPECT_EQ(b1.line, 8);
  const Pairing& b2 = sheet->pairings[1];
  EXPECT_EQ(b2.white.name,
            "\xC3\x98"
            "degaard, Ola");
  EXPECT_EQ(b2.black.name, "Kosteniuk, Alexandra");
  EXPECT_EQ(b2.black.title, "WGM");
  const Pairing& b3 = sheet->pairings[2];
  EXPECT_EQ(b3.white.name, "Hansen, Eirik");
  EXPECT_EQ(b3.white.elo, "");                      // 0000: unrated
  EXPECT_EQ(b3.white.fide_id, "");                  // 0: no id
  EXPECT_EQ(b3.black.name, "M\xC3\xBCller, Hans");  // Windows-1252 in, UTF-8 out

  const auto tags = round_tags(*sheet, b2);
  const Tags expected = {{"Event", "Spring Open 2026"},
                         {"Site", "Oslo NOR"},
                         {"Date", "2026.03.14"},
                         {"Round", "3.2"},
                         {"Board", "2"},
                         {"White",
                          "\xC3\x98"
                          "degaard, Ola"},
                         {"Black", "Kosteniuk, Alexandra"},
                         {"WhiteTitle", "IM"},
                         {"BlackTitle", "WGM"},
                         {"WhiteElo", "2400"},
                         {"BlackElo", "2500"},
                         {"BlackFideId", "4107012"}};
  EXPECT_EQ(tags, expected);
}

TEST(RoundTrf, EarlierRoundsReadTheSameWay) {
  auto sheet = parse_trf(spring_open(), "t.trf", round(1));
  ASSERT_FALSE(!sheet) << sheet.error();
  ASSERT_EQ(sheet->pairings.size(), 3u);  // 4 had a bye
  EXPECT_EQ(sheet->date, "2026.03.12");
  // All scores 0 before round 1: boards by the better starting rank.
  EXPECT_EQ(sheet->pairings[0].white.name, "Carlsen, Magnus");
  EXPECT_EQ(sheet->pairings[1].white.name, "Berg, Ida");
  EXPECT_EQ(sheet->pairings[1].black.name, "Tari, Aryan");
  EXPECT_EQ(sheet->pairings[2].white.name, "Hansen, Eirik");
}

TEST(RoundTrf, CarriageReturnLinesAndUtf8ColumnsReadAlike) {
  std::string cr = spring_open();
  for (char& c : cr) c = c == '\n' ? '\r' : c;
  auto sheet = parse_trf(cr, "t.trf", round(3));
  ASSERT_FALSE(!sheet) << sheet.error();
  EXPECT_EQ(sheet->pairings.size(), 3u);
  // A name written in UTF-8 takes more bytes than columns; the fields after it still read.
  const std::string utf8 = replaced(spring_open(), "Berg, Ida", "B\xC3\xA9rg, Ida");
  auto again = parse_trf(utf8, "t.trf", round(1));
  ASSERT_FALSE(!again) << again.error();
  EXPECT_EQ(again->pairings[1].white.name, "B\xC3\xA9rg, Ida");
  EXPECT_EQ(again->pairings[1].white.elo, "1700");
}

TEST(RoundTrf, MistakesAreFileLineErrors) {
  const std::string good = spring_open();
  EXPECT_EQ(error_of(replaced(good, "001    6", "001    x")),
            "t.trf:12: starting rank 'x' (columns 5-8) is not a number from 1 to 9999");
  EXPECT_EQ(error_of(replaced(good, "   3 w 1", "   3 q 1")),
            "t.trf:8: round 2 entry (columns 102-109) colour 'q' is not w, b or -");
  EXPECT_EQ(error_of(replaced(good, "   3 w 1", "   3 w 7")),
            "t.trf:8: round 2 entry (columns 102-109) result '7' is not one of 1 = 0 + - W D L "
            "H F U Z");
  EXPECT_EQ(
      error_of(replaced(good, "   3 w 1", "  3 w 1 ")),
      "t.trf:8: round 2 entry (columns 102-109) is not 'NNNN C R' (opponent, colour, result)");
  EXPECT_EQ(error_of(replaced(good, "2830", "28x0")),
            "t.trf:7: rating (columns 49-52) '28x0' is not a number");
  EXPECT_EQ(error_of(replaced(good, "001    6", "001    5")),
            "t.trf:12: starting rank 5 is already on line 11");
  EXPECT_EQ(error_of(good, 4),
            "t.trf:7: round 4: no player has a pairing in it (the entries go up to round 3)");
  // Odd pairings: the two entries disagree, or name nobody of the file.
  EXPECT_EQ(error_of(replaced(good, "   7 b  ", "   7 w  ")),
            "t.trf:10: round 3: player 4 plays 7 with white, but player 7's entry (line 13) does "
            "not say 4 with black (odd pairing)");
  EXPECT_EQ(error_of(replaced(good, "   5 w\n", "   9 w\n")),
            "t.trf:9: round 3: player 3's opponent 9 is not a player of the file (odd pairing)");
  EXPECT_EQ(error_of(replaced(good, "   5 w\n", "   3 w\n")),
            "t.trf:9: round 3: player 3 is paired with themselves (odd pairing)");
  EXPECT_EQ(error_of(replaced(good, "   5 w\n", "   5 -\n")),
            "t.trf:9: round 3: player 3 is paired with 5 without a colour (odd pairing)");
  EXPECT_EQ(error_of(replaced(good, "Berg, Ida", "         ")),
            "(no error)");  // bye: unnamed is fine
  EXPECT_EQ(error_of(replaced(good, "Hansen, Eirik", "             ")),
            "t.trf:9: player 3 has no name (columns 15-47)");
  auto no_round = parse_trf(good, "t.trf", RoundOptions{});
  ASSERT_TRUE(!no_round);
  EXPECT_EQ(no_round.error(), "t.trf: a TRF file needs --round N (the round to start)");
}

TEST(RoundTrf, ForfeitKeepsItsBoardWithoutAGame) {
  const std::string text =
      replaced(replaced(spring_open(), "   7 b  ", "   7 b -"), "   4 w  ", "   4 w +");
  auto sheet = parse_trf(text, "t.trf", round(3));
  ASSERT_FALSE(!sheet) << sheet.error();
  ASSERT_EQ(sheet->pairings.size(), 3u);
  EXPECT_TRUE(sheet->pairings[1].forfeit);
  auto plan = plan_round(*sheet, {"b1", "b2", "b3"});
  ASSERT_FALSE(!plan) << plan.error();
  ASSERT_EQ(plan->games.size(), 2u);
  EXPECT_EQ(plan->games[1].board_id, "b3");
  EXPECT_EQ(plan->forfeits, std::vector<int>{2});
}

// A game never played may be written without colours; it is still the forfeit it scores.
TEST(RoundTrf, ForfeitWithoutColoursKeepsItsBoardWithoutAGame) {
  const std::string text =
      replaced(replaced(spring_open(), "   7 b  ", "   7 - -"), "   4 w  ", "   4 - +");
  auto sheet = parse_trf(text, "t.trf", round(3));
  ASSERT_FALSE(!sheet) << sheet.error();
  ASSERT_EQ(sheet->pairings.size(), 3u);
  EXPECT_EQ(sheet->pairings[1].white.name, "Kosteniuk, Alexandra");
  EXPECT_EQ(sheet->pairings[1].black.name,
            "\xC3\x98"
            "degaard, Ola");
  EXPECT_TRUE(sheet->pairings[1].forfeit);
  auto plan = plan_round(*sheet, {"b1", "b2", "b3"});
  ASSERT_FALSE(!plan) << plan.error();
  EXPECT_EQ(plan->games.size(), 2u);
  EXPECT_EQ(plan->forfeits, std::vector<int>{2});
  // Without a forfeit, or with a colour on one entry only, a missing colour is odd.
  EXPECT_EQ(
      error_of(replaced(replaced(spring_open(), "   7 b  ", "   7 -  "), "   4 w  ", "   4 -  ")),
      "t.trf:10: round 3: player 4 is paired with 7 without a colour (odd pairing)");
  EXPECT_EQ(error_of(replaced(spring_open(), "   4 w  ", "   4 - +")),
            "t.trf:10: round 3: player 4 plays 7 with black, but player 7's entry (line 13) does "
            "not say 4 with white (odd pairing)");
}

TEST(RoundTrf, SniffsTheFormat) {
  EXPECT_TRUE(looks_like_trf(spring_open()));
  EXPECT_TRUE(looks_like_trf("\n### comment\n001 ..."));
  EXPECT_TRUE(looks_like_trf("XXR 9\n"));
  EXPECT_FALSE(looks_like_trf("board,white,black\n"));
  EXPECT_FALSE(looks_like_trf("123,A,B\n"));
}

}  // namespace
}  // namespace eboard::daemon::round
