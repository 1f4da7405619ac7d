#include "daemon/round/round_csv.h"

#include <gtest/gtest.h>

namespace eboard::daemon::round {
namespace {

RoundOptions round_3() {
  RoundOptions o;
  o.round = 3;
  return o;
}

std::string error_of(std::string_view text, RoundOptions options = round_3()) {
  auto sheet = parse_round_csv(text, "r.csv", options);
  return sheet ? std::string("(no error)") : sheet.error();
}

TEST(RoundCsv, ReadsQuotesOptionalColumnsAndSortsBoards) {
  const std::string text =
      "board,white,black,eboard,white_elo,black_elo,white_title,black_fide_id,white_team\r\n"
      "2,\"Caruana, Fabiano\",\"Nakamura, Hikaru\",,2805,2790,gm,,\"Team \"\"A\"\"\"\r\n"
      "\r\n"
      " 1 , \"Carlsen, Magnus\" ,\"Ding, Liren\",b3,2830,0,GM,8603677,\r\n";
  auto sheet = parse_round_csv(text, "r.csv", round_3());
  ASSERT_FALSE(!sheet) << sheet.error();
  EXPECT_EQ(sheet->round, 3);
  ASSERT_EQ(sheet->pairings.size(), 2u);
  const Pairing& one = sheet->pairings[0];
  EXPECT_EQ(one.board, 1);
  EXPECT_EQ(one.line, 4);
  EXPECT_EQ(one.white.name, "Carlsen, Magnus");
  EXPECT_EQ(one.black.name, "Ding, Liren");
  EXPECT_EQ(one.eboard, "b3");
  EXPECT_EQ(one.white.elo, "2830");
  EXPECT_EQ(one.black.elo, "");  // 0: unrated
  EXPECT_EQ(one.black.fide_id, "8603677");
  const Pairing& two = sheet->pairings[1];
  EXPECT_EQ(two.white.title, "GM");
  EXPECT_EQ(two.white.team, "Team \"A\"");
  EXPECT_EQ(two.eboard, "");
}

TEST(RoundCsv, LineBreakInsideQuotesIsRefused) {
  // RFC 4180 allows it, but a PGN tag value cannot hold one.
  EXPECT_EQ(error_of("board,white,black\n1,\"A\nB\",C\n"),
            "r.csv:2: a field holds a control character");
}

TEST(RoundCsv, ErrorsNameTheLine) {
  EXPECT_EQ(error_of("board,white,black,color\n"),
            "r.csv:1: unknown column 'color' (columns: board, white, black, eboard, "
            "white_fide_id, black_fide_id, white_elo, black_elo, white_title, black_title, "
            "white_team, black_team)");
  EXPECT_EQ(error_of("board,white\n1,A\n"),
            "r.csv:1: no 'black' column (a round CSV needs board, white and black)");
  EXPECT_EQ(error_of("board,white,White,black\n"), "r.csv:1: column 'White' given twice");
  EXPECT_EQ(error_of("board,white,black\n1,A,B\n2,C\n"), "r.csv:3: 2 fields; the header has 3");
  EXPECT_EQ(error_of("board,white,black\n0,A,B\n"),
            "r.csv:2: board '0' is not a board number from 1 to 9999");
  EXPECT_EQ(error_of("board,white,black\n1,A,B\n1,C,D\n"), "r.csv:3: board 1 is already on line 2");
  EXPECT_EQ(error_of("board,white,black\n1,,B\n"), "r.csv:2: white: no name");
  EXPECT_EQ(error_of("board,white,black,white_title\n1,A,B,XM\n"),
            "r.csv:2: 'XM' is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM)");
  EXPECT_EQ(error_of("board,white,black,white_elo\n1,A,B,27OO\n"),
            "r.csv:2: white_elo '27OO' is not a number of up to 4 digits");
  EXPECT_EQ(error_of("board,white,black,eboard\n1,A,B,b 1\n"),
            "r.csv:2: eboard: 'b 1' is not a board name (1 to 32 letters, digits, '-' or '_')");
  EXPECT_EQ(error_of("board,white,black\n1,\"A,B\n"), "r.csv:2: a quoted field is not closed");
  EXPECT_EQ(error_of("board,white,black\n1,A\"x,B\n"), "r.csv:2: a quote inside an unquoted field");
  EXPECT_EQ(error_of("board,white,black\n1,\"A\"x,B\n"),
            "r.csv:2: text after a quoted field's closing quote");
  EXPECT_EQ(error_of("board,white,black\n1,M\xFCller,B\n"), "r.csv:2: a field is not valid UTF-8");
  EXPECT_EQ(error_of("board,white,black\n"), "r.csv:1: no pairings");
  EXPECT_EQ(error_of(""), "r.csv: empty (a round CSV starts with its header line)");
  EXPECT_EQ(error_of("board,white,black\n1,A,B\n", RoundOptions{}),
            "r.csv: a round CSV needs --round N (games are tagged Round \"R.B\")");
}

}  // namespace
}  // namespace eboard::daemon::round
