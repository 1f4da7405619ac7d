// PgnRecorder: the game as PGN records (docs/rules.md D5). Checked by reading the
// text back with the PGN reader.
#include "engine/game/pgn_recorder.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "engine/clock/time_control.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

std::vector<PgnGame> games_of(const PgnRecorder& r) {
  auto games = read_pgn(r.text(), "recorded.pgn");
  EXPECT_TRUE(games.ok()) << (games.ok() ? "" : games.error()) << "\n" << r.text();
  return games.ok() ? games.value() : std::vector<PgnGame>{};
}

TEST(PgnRecorder, AnIllegalMoveThatStoodEndsTheRecordAndANewOneCarriesOn) {
  PgnRecorder r;
  r.start({{"White", "A"}, {"Black", "B"}}, "180+2", kStart);
  EXPECT_TRUE(r.move("e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                     milliseconds(179000)));
  // Black's knight jumps like a bishop and it stands (A.5.2).
  r.illegal_completed(kBlack, "g8e6");
  const std::string after = "rnbqkb1r/pppppppp/4n3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2";
  EXPECT_TRUE(r.illegal_stood(kBlack, after));
  EXPECT_TRUE(r.move("d2d4", "rnbqkb1r/pppppppp/4n3/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2",
                     milliseconds(170000)));
  EXPECT_TRUE(r.result("1-0"));
  const auto games = games_of(r);
  ASSERT_EQ(games.size(), 2u);
  ASSERT_EQ(games[0].moves.size(), 1u);
  EXPECT_NE(games[0].comments[0].find("Black's illegal move g8e6 stood"), std::string::npos)
      << r.text();
  EXPECT_EQ(games[0].result, "*");
  EXPECT_EQ(*games[1].tag("White"), "A");
  EXPECT_EQ(*games[1].tag("TimeControl"), "180+2");
  EXPECT_EQ(*games[1].tag("SetUp"), "1");
  EXPECT_EQ(*games[1].tag("FEN"), after);
  ASSERT_EQ(games[1].moves.size(), 1u);
  EXPECT_EQ(games[1].result, "1-0");
  EXPECT_EQ(parse_clk(games[1].comments[0]), milliseconds(170000));
}

TEST(PgnRecorder, ApplyTakesPublicEventsOnly) {
  PgnRecorder r;
  events::GameStarted started;
  started.position = snapshot_of(parse_fen(kStart).value());
  started.time_control = parse_time_control("40/5400+30:1800+30").value();
  EXPECT_TRUE(r.apply(GameEvent(Millis(0), started)));
  events::IllegalMoveStood stood;
  stood.side = kWhite;
  stood.position =
      snapshot_of(parse_fen("rnbqkbnr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKB1R b KQkq - 0 1").value());
  // Arbiter-only (D14): not in a broadcast.
  EXPECT_FALSE(r.apply(GameEvent(Millis(0), stood, EventVisibility::kArbiter)));
  events::GameEnded proposed;
  proposed.result = GameResult::kWhiteWins;
  proposed.finality = Finality::kProposed;
  EXPECT_FALSE(r.apply(GameEvent(Millis(0), proposed)));  // awaiting the arbiter's ruling
  auto games = games_of(r);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].result, "*");
  // The time control is written in its text form at this edge.
  EXPECT_EQ(*games[0].tag("TimeControl"), "40/5400+30:1800+30");
  proposed.finality = Finality::kFinal;
  EXPECT_TRUE(r.apply(GameEvent(Millis(0), proposed)));
  EXPECT_EQ(games_of(r)[0].result, "1-0");
}

TEST(PgnRecorder, AMoveNotLegalInThePositionHeldStartsANewRecord) {
  PgnRecorder r;
  r.start({}, "", kStart);
  // A change we were not shown: Black's move from a position with White's knight on f3.
  r.move("e7e5", "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2",
         milliseconds(1000));
  const auto games = games_of(r);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_NE(games[0].leading_comment.find("changed position"), std::string::npos);
  EXPECT_EQ(*games[1].tag("FEN"), "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2");
}

TEST(PgnRecorder, NothingBeforeStartAndNoRecordForAnUnchangedPosition) {
  PgnRecorder r;
  EXPECT_FALSE(r.move("e2e4", "", std::nullopt));
  EXPECT_EQ(r.text(), "");
  r.start({}, "", kStart);
  EXPECT_FALSE(r.position_changed(kStart, "same position"));
  EXPECT_EQ(games_of(r).size(), 1u);
}

}  // namespace
}  // namespace eboard::engine
