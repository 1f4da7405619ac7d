#include "daemon/sinks/live_pgn.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"
#include "engine/game/pgn_recorder.h"

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

// A clock event rewrites only the clock tags of the text; the result must be what writing
// the whole game again gives. The oracle is engine::PgnRecorder fed the same game with
// the same tags (a pairing that names everything, so LivePgn adds none), written whole
// after every event; the games are real ones of the corpus, a clock event after each move.
TEST(LivePgn, AClockUpdateGivesTheTextOfTheWholeGameWrittenAgain) {
  std::ifstream in(std::string(EBOARD_SHARED_DIR) + "/data/pgn/candidates_matches_1950-2022.pgn");
  std::stringstream file;
  file << in.rdbuf();
  std::string text = file.str();
  std::size_t end = 0;
  for (int g = 0; g < 4 && end != std::string::npos; ++g) end = text.find("\n[Event ", end + 1);
  auto games = engine::read_pgn(text.substr(0, end), "candidates.pgn");
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 4u);
  for (const engine::PgnGame& game : *games) {
    std::vector<engine::PgnTag> tags = {{"White", *game.tag("White")},
                                        {"Black", *game.tag("Black")},
                                        {"Round", "1.3"},
                                        {"Board", "3"},
                                        {"GameId", "g-1"},
                                        {"WhiteClock", "0:05:00"},
                                        {"BlackClock", "0:05:00"}};
    v1::Event start;
    start.set_visibility(v1::VISIBILITY_PUBLIC);
    start.mutable_game_started()->set_fen(engine::to_fen(game.start));
    start.mutable_game_started()->set_time_control("300");
    start.mutable_game_started()->set_white_ms(300'000);
    start.mutable_game_started()->set_black_ms(300'000);
    for (const auto& [name, value] : tags) {
      auto* t = start.mutable_game_started()->add_tags();
      t->set_name(name);
      t->set_value(value);
    }
    LivePgn pgn("b3");
    engine::PgnRecorder oracle;
    ASSERT_TRUE(pgn.apply(start));
    oracle.start(tags, "300", engine::to_fen(game.start));
    ASSERT_EQ(pgn.text(), oracle.text());
    engine::Position pos = game.start;
    int white_ms = 300'000;
    int black_ms = 300'000;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
      const bool white = pos.side_to_move() == engine::kWhite;
      pos.make(game.moves[i]);
      (white ? white_ms : black_ms) -= 1'700;
      v1::Event m = move(static_cast<int>(i + 1), engine::to_uci(game.moves[i]).c_str(),
                         engine::to_fen(pos).c_str(), white_ms, black_ms);
      ASSERT_TRUE(pgn.apply(m));
      oracle.move(engine::to_uci(game.moves[i]), engine::to_fen(pos),
                  std::chrono::milliseconds(white ? white_ms : black_ms));
      oracle.set_tag("WhiteClock", clock_tag_value(white_ms));
      oracle.set_tag("BlackClock", clock_tag_value(black_ms));
      ASSERT_EQ(pgn.text(), oracle.text()) << "after move " << i + 1;
      // The next mover's clock runs: one update that shows, one within the same second.
      for (const int spent : {1'000, 300}) {
        (white ? black_ms : white_ms) -= spent;
        v1::Event clock;
        clock.set_visibility(v1::VISIBILITY_PUBLIC);
        clock.mutable_clock()->set_white_ms(white_ms);
        clock.mutable_clock()->set_black_ms(black_ms);
        const std::string before = pgn.text();
        const bool changed = pgn.apply(clock);
        oracle.set_tag("WhiteClock", clock_tag_value(white_ms));
        oracle.set_tag("BlackClock", clock_tag_value(black_ms));
        ASSERT_EQ(pgn.text(), oracle.text()) << "after move " << i + 1 << ", clock " << spent;
        EXPECT_EQ(changed, pgn.text() != before);
      }
    }
  }
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
  // A clock update reaches every record's header.
  v1::Event clock;
  clock.set_visibility(v1::VISIBILITY_PUBLIC);
  clock.mutable_clock()->set_white_ms(170'000);
  clock.mutable_clock()->set_black_ms(160'000);
  ASSERT_TRUE(pgn.apply(clock));
  auto games = engine::read_pgn(pgn.text(), "live.pgn");
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games->size(), 2u);
  EXPECT_EQ(*games->at(0).tag("GameId"), "b1-5");
  EXPECT_EQ(*games->at(1).tag("GameId"), "b1-5-2");
  for (const auto& game : *games) {
    EXPECT_EQ(*game.tag("WhiteClock"), "0:02:50");
    EXPECT_EQ(*game.tag("BlackClock"), "0:02:40");
  }
}

}  // namespace
}  // namespace eboard::daemon
