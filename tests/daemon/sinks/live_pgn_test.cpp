#include "daemon/sinks/live_pgn.h"

#include <gtest/gtest.h>

#include "engine/game/pgn.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

v1::Event started() {
  v1::Event e;
  e.set_visibility(v1::VISIBILITY_PUBLIC);
  auto* g = e.mutable_game_started();
  g->set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  g->set_time_control("180+2");
  for (auto [n, v] : {std::pair{"White", "Anand, V"}, std::pair{"Black", "Carlsen, M"},
                      std::pair{"Event", "Test Open"}}) {
    auto* t = g->add_tags();
    t->set_name(n);
    t->set_value(v);
  }
  return e;
}

v1::Event move(int ply, const char* uci, const char* fen, int white_ms, int black_ms,
               v1::Visibility visibility = v1::VISIBILITY_PUBLIC) {
  v1::Event e;
  e.set_visibility(visibility);
  auto* m = e.mutable_move_completed();
  m->set_ply(ply);
  m->set_uci(uci);
  m->set_fen(fen);
  m->set_white_ms(white_ms);
  m->set_black_ms(black_ms);
  m->set_side(ply % 2 == 1 ? v1::SIDE_WHITE : v1::SIDE_BLACK);
  return e;
}

constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
constexpr const char* kAfterE5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

TEST(LivePgn, ExportFormatWithClocksAndResult) {
  LivePgn pgn("b1");
  EXPECT_TRUE(pgn.apply(started()));
  EXPECT_TRUE(pgn.apply(move(1, "e2e4", kAfterE4, 3'601'000, 180'000)));
  const std::string& text = pgn.text();
  EXPECT_NE(text.find("[White \"Anand, V\"]"), std::string::npos);
  EXPECT_NE(text.find("[TimeControl \"180+2\"]"), std::string::npos);
  EXPECT_NE(text.find("1. e4 {[%clk 1:00:01]}"), std::string::npos) << text;
}

TEST(LivePgn, ResultOnlyWhenNotProposed) {
  LivePgn pgn("b1");
  pgn.apply(started());
  pgn.apply(move(1, "e2e4", kAfterE4, 179'000, 180'000));
  pgn.apply(move(2, "e7e5", kAfterE5, 179'000, 178'000));
  v1::Event end;
  end.set_visibility(v1::VISIBILITY_PUBLIC);
  end.mutable_game_ended()->set_result("1-0");
  end.mutable_game_ended()->set_proposed(true);
  EXPECT_FALSE(pgn.apply(end));
  EXPECT_NE(pgn.text().find("[Result \"*\"]"), std::string::npos);
  end.mutable_game_ended()->set_proposed(false);
  EXPECT_TRUE(pgn.apply(end));
  EXPECT_NE(pgn.text().find("[Result \"1-0\"]"), std::string::npos);
  auto games = engine::read_pgn(pgn.text(), "live.pgn");
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ(games->front().moves.size(), 2u);
  EXPECT_EQ(games->front().result, "1-0");
}

TEST(LivePgn, ArbiterOnlyEventsNeverShow) {
  LivePgn pgn("b1");
  pgn.apply(started());
  const std::string before = pgn.text();
  EXPECT_FALSE(pgn.apply(move(1, "e2e4", kAfterE4, 1, 1, v1::VISIBILITY_ARBITER)));
  v1::Event illegal;
  illegal.set_visibility(v1::VISIBILITY_ARBITER);
  illegal.mutable_illegal_move_completed()->set_uci("e1e3");
  EXPECT_FALSE(pgn.apply(illegal));
  EXPECT_EQ(pgn.text(), before);
}

// docs/rules.md D5: an illegal move that stood ends the record with a comment; the game goes
// on in a new record with the same tags and SetUp/FEN of the position after it.
TEST(LivePgn, IllegalMoveThatStoodStartsANewRecord) {
  LivePgn pgn("b1");
  pgn.apply(started());
  pgn.apply(move(1, "e2e4", kAfterE4, 179'000, 180'000));
  v1::Event illegal;
  illegal.set_visibility(v1::VISIBILITY_PUBLIC);
  illegal.mutable_illegal_move_completed()->set_side(v1::SIDE_BLACK);
  illegal.mutable_illegal_move_completed()->set_uci("d8d4");
  pgn.apply(illegal);
  constexpr const char* kStood = "rnb1kbnr/pppppppp/8/8/3qP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2";
  v1::Event stood;
  stood.set_visibility(v1::VISIBILITY_PUBLIC);
  stood.mutable_illegal_move_stood()->set_side(v1::SIDE_BLACK);
  stood.mutable_illegal_move_stood()->set_fen(kStood);
  EXPECT_TRUE(pgn.apply(stood));
  EXPECT_TRUE(
      pgn.apply(move(3, "g1f3", "rnb1kbnr/pppppppp/8/8/3qP3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2",
                     170'000, 175'000)));
  auto games = engine::read_pgn(pgn.text(), "live.pgn");
  ASSERT_TRUE(games.ok()) << games.error() << "\n" << pgn.text();
  ASSERT_EQ(games->size(), 2u) << pgn.text();
  EXPECT_NE(games->at(0).comments.back().find("Black's illegal move d8d4 stood"),
            std::string::npos);
  EXPECT_EQ(*games->at(1).tag("White"), "Anand, V");
  EXPECT_EQ(*games->at(1).tag("SetUp"), "1");
  EXPECT_EQ(*games->at(1).tag("FEN"), kStood);
  EXPECT_EQ(games->at(1).moves.size(), 1u);
}

TEST(LivePgn, NewGameReplacesTheOldOne) {
  LivePgn pgn("b1");
  pgn.apply(started());
  pgn.apply(move(1, "e2e4", kAfterE4, 1000, 1000));
  pgn.apply(started());
  EXPECT_EQ(pgn.text().find("e4"), std::string::npos);
}

std::string tag_line(const std::string& text, const std::string& name) {
  const auto at = text.find("[" + name + " \"");
  if (at == std::string::npos) return "";
  const auto start = at + name.size() + 3;
  return text.substr(start, text.find("\"]", start) - start);
}

// What a lichess broadcast needs (live_pgn.h): names never "?", Round R.B and Board, a
// GameId for the whole game, WhiteClock/BlackClock between moves that stop at the result.
TEST(LivePgn, BroadcastTagsThatLichessKeeps) {
  LivePgn pgn("b7", BroadcastDefaults{"pi1-b7", 0, "3"});
  v1::Event start;
  start.set_game_id(3);
  start.set_visibility(v1::VISIBILITY_PUBLIC);
  start.mutable_game_started()->set_fen("startpos");
  start.mutable_game_started()->set_white_ms(180'000);
  start.mutable_game_started()->set_black_ms(180'000);
  auto* board = start.mutable_game_started()->add_tags();
  board->set_name("Board");
  board->set_value("7");
  ASSERT_TRUE(pgn.apply(start));
  EXPECT_FALSE(pgn.paired());
  EXPECT_EQ(tag_line(pgn.text(), "White"), "White (b7)");
  EXPECT_EQ(tag_line(pgn.text(), "Black"), "Black (b7)");
  EXPECT_EQ(tag_line(pgn.text(), "Round"), "3.7");
  EXPECT_EQ(tag_line(pgn.text(), "Board"), "7");
  EXPECT_EQ(tag_line(pgn.text(), "GameId"), "pi1-b7-3");
  EXPECT_EQ(tag_line(pgn.text(), "WhiteClock"), "0:03:00");

  ASSERT_TRUE(pgn.apply(move(1, "e2e4", kAfterE4, 175'400, 180'000)));
  EXPECT_EQ(tag_line(pgn.text(), "WhiteClock"), "0:02:55");
  v1::Event clock;
  clock.set_visibility(v1::VISIBILITY_PUBLIC);
  clock.mutable_clock()->set_white_ms(175'400);
  clock.mutable_clock()->set_black_ms(150'000);
  EXPECT_TRUE(pgn.apply(clock));
  EXPECT_EQ(tag_line(pgn.text(), "BlackClock"), "0:02:30");
  EXPECT_EQ(tag_line(pgn.text(), "GameId"), "pi1-b7-3") << "the same game, the same id";
  v1::Event end;
  end.set_visibility(v1::VISIBILITY_PUBLIC);
  end.mutable_game_ended()->set_result("0-1");
  ASSERT_TRUE(pgn.apply(end));
  clock.mutable_clock()->set_black_ms(140'000);
  EXPECT_FALSE(pgn.apply(clock)) << "the clocks stop at the result";
  EXPECT_EQ(tag_line(pgn.text(), "BlackClock"), "0:02:30");
  EXPECT_EQ(tag_line(pgn.text(), "Result"), "0-1");
  auto games = engine::read_pgn(pgn.text(), "live.pgn");
  ASSERT_TRUE(games.ok()) << games.error();
}

TEST(LivePgn, APairingsNamesAndRoundAreKept) {
  LivePgn pgn("b1", BroadcastDefaults{"", 4, "9"});
  v1::Event start = started();
  auto* round = start.mutable_game_started()->add_tags();
  round->set_name("Round");
  round->set_value("2.5");
  ASSERT_TRUE(pgn.apply(start));
  EXPECT_TRUE(pgn.paired());
  EXPECT_EQ(tag_line(pgn.text(), "White"), "Anand, V");
  EXPECT_EQ(tag_line(pgn.text(), "Round"), "2.5");
  EXPECT_EQ(tag_line(pgn.text(), "Board"), "5");
  EXPECT_EQ(tag_line(pgn.text(), "GameId"), "b1-0");
}

// The record after an illegal move that stood is a game of its own for lichess: its own id.
TEST(LivePgn, ARecordAfterAnIllegalMoveHasItsOwnGameId) {
  LivePgn pgn("b1");
  v1::Event start = started();
  start.set_game_id(5);
  pgn.apply(start);
  pgn.apply(move(1, "e2e4", kAfterE4, 179'000, 180'000));
  v1::Event stood;
  stood.set_visibility(v1::VISIBILITY_PUBLIC);
  stood.mutable_illegal_move_stood()->set_side(v1::SIDE_BLACK);
  stood.mutable_illegal_move_stood()->set_fen(
      "rnb1kbnr/pppppppp/8/8/3qP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
  ASSERT_TRUE(pgn.apply(stood));
  auto games = engine::read_pgn(pgn.text(), "live.pgn");
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 2u);
  EXPECT_EQ(*games->at(0).tag("GameId"), "b1-5");
  EXPECT_EQ(*games->at(1).tag("GameId"), "b1-5-2");
}

}  // namespace
}  // namespace eboard::daemon
