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

// rules.md D5: an illegal move that stood ends the record with a comment; the game goes
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

}  // namespace
}  // namespace eboard::daemon
