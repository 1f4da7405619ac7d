// BoardSession with chosen timestamps and driver-level sensor events: what the daemon
// publishes for a board, including recovery after a restart.
#include "daemon/core/board_session.h"

#include <gtest/gtest.h>

#include "daemon/core/board_state.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "tests/daemon/clock_reading.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/play_move.h"
#include "tests/daemon/published_events.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::play_move;
using testing_support::PublishedEvents;
using testing_support::sq;

drivers::ClockReading reading(ClockSide turn, int left_s, int right_s) {
  return testing_support::running_reading(turn, left_s, right_s);
}

class SessionTest : public testing::Test {
 protected:
  BoardState state_{"b1"};
  PublishedEvents published_{"b1", &state_};
  BoardSession::Publish publish() { return published_.publish(); }
  GameSetup setup() {
    GameSetup s;
    s.rules = "fide-blitz";
    s.clock = "180+2";
    return s;
  }
  std::vector<std::string> completed() const {
    std::vector<std::string> out;
    for (const auto& e : published_.events) {
      if (e.has_move_completed()) {
        out.push_back(std::to_string(e.move_completed().ply()) + ":" + e.move_completed().uci() +
                      (e.move_completed().recovered() ? "R" : ""));
      }
    }
    return out;
  }
};

TEST_F(SessionTest, MovesFromTheDriverBecomeCompletedMoves) {
  BoardSession session("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  int t = 0;
  session.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t));
  session.on_sensor(reading(ClockSide::kLeft, 180, 180), milliseconds(t += 100));
  play_move(session, sq('e', 2), sq('e', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t);
  play_move(session, sq('e', 7), sq('e', 5), drivers::Piece::kBlackPawn, ClockSide::kRight, t);
  EXPECT_EQ(completed(), (std::vector<std::string>{"1:e2e4", "2:e7e5"}));
  ASSERT_FALSE(published_.events.empty());
  EXPECT_TRUE(published_.events.front().has_game_started());
  EXPECT_EQ(published_.events.front().game_id(), 1u);
  EXPECT_EQ(published_.events.front().rules(), "fide-blitz");
}

TEST_F(SessionTest, ResumesAtTheLastMoveAndRecoversMovesMadeWhileDown) {
  // The journal of the first life: two completed moves.
  {
    BoardSession first("b1", setup(), drivers::WhiteSetting::kLeft, publish());
    int t = 0;
    first.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t));
    play_move(first, sq('e', 2), sq('e', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t);
    play_move(first, sq('e', 7), sq('e', 5), drivers::Piece::kBlackPawn, ClockSide::kRight, t);
  }
  const std::uint32_t seq_before = published_.seq();
  const BoardState journal = state_;
  ASSERT_TRUE(journal.game_in_progress());
  published_.events.clear();
  // Restarted: White played Nf3 meanwhile and Black's clock runs.
  BoardSession second("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  ASSERT_FALSE(second.resume(journal).has_value());
  second.on_link_up();
  second.on_sensor(drivers::PlacementSeen{placement_of(
                       "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")},
                   milliseconds(0));
  EXPECT_TRUE(completed().empty());  // not judged before the clock has spoken
  second.on_sensor(reading(ClockSide::kRight, 170, 175), milliseconds(100));
  EXPECT_EQ(completed(), (std::vector<std::string>{"3:g1f3R"}));
  for (const auto& e : published_.events) {
    EXPECT_FALSE(e.has_game_started()) << "the game continues, it does not start again";
    EXPECT_FALSE(e.has_restore_requested());
    EXPECT_GT(e.seq(), seq_before);
  }
  // And it goes on normally.
  int t = 200;
  play_move(second, sq('b', 8), sq('c', 6), drivers::Piece::kBlackKnight, ClockSide::kRight, t);
  EXPECT_EQ(completed(), (std::vector<std::string>{"3:g1f3R", "4:b8c6"}));
}

// Once the resumed clock model started from the time control again (180 s plus a
// start increment); it continues from the journal's times.
TEST_F(SessionTest, ResumedClocksContinueFromTheJournal) {
  {
    BoardSession first("b1", setup(), drivers::WhiteSetting::kLeft, publish());
    int t = 0;
    first.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t));
    first.advance(milliseconds(t += 20000));  // White thinks for 20 s
    play_move(first, sq('e', 2), sq('e', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t);
    play_move(first, sq('e', 7), sq('e', 5), drivers::Piece::kBlackPawn, ClockSide::kRight, t);
  }
  const BoardState journal = state_;
  const std::int64_t white_before = journal.snapshot().white_ms();
  ASSERT_LT(white_before, 170000);
  published_.events.clear();
  BoardSession second("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  ASSERT_FALSE(second.resume(journal).has_value());
  EXPECT_TRUE(published_.events.empty()) << "restoring the clocks is not news";
  // The board's time line goes on from the journal's last atMs.
  const int resumed = int(second.resume_at().count());
  EXPECT_EQ(resumed, journal.snapshot().at_ms());
  second.on_link_up();
  second.on_sensor(drivers::PlacementSeen{placement_of(
                       "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")},
                   milliseconds(resumed));
  // No clock report comes: the dump is judged after its wait (a board reporting no clock
  // would play on without a clock, docs/clockless.md).
  int t = resumed + 3000;
  second.advance(milliseconds(t));
  play_move(second, sq('g', 1), sq('f', 3), drivers::Piece::kWhiteKnight, ClockSide::kLeft, t);
  const v1::Event* move = nullptr;
  for (const auto& e : published_.events) {
    EXPECT_FALSE(e.has_increment_credited() && move == nullptr) << "start increment credited again";
    if (e.has_move_completed()) move = &e;
  }
  ASSERT_NE(move, nullptr);
  // White's clock ran from the journal's time for the 5.2 s until the press (its increment
  // may be included): not from 182 s.
  EXPECT_NEAR(static_cast<double>(move->move_completed().white_ms()),
              static_cast<double>(white_before - 5200), 2100.0);
  EXPECT_EQ(move->move_completed().black_ms(), journal.snapshot().black_ms());
}

TEST_F(SessionTest, UnexplainedDifferenceAfterRestartAsksForARestore) {
  BoardState journal("b1");
  {
    BoardSession first("b1", setup(), drivers::WhiteSetting::kLeft, publish());
    int t = 0;
    first.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t));
    play_move(first, sq('d', 2), sq('d', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t);
  }
  journal = state_;
  published_.events.clear();
  BoardSession second("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  ASSERT_FALSE(second.resume(journal).has_value());
  second.on_link_up();
  auto board = placement_of("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
  board[sq('a', 1)] = drivers::Piece::kEmpty;  // a rook is gone
  second.on_sensor(drivers::PlacementSeen{board}, milliseconds(0));
  second.on_sensor(reading(ClockSide::kRight, 170, 175), milliseconds(100));
  // The board may be mid-move: nothing is said before the judging time is over.
  for (const auto& e : published_.events) EXPECT_FALSE(e.has_restore_requested());
  ASSERT_TRUE(second.next_deadline().has_value());
  second.advance(*second.next_deadline());
  bool restore = false;
  for (const auto& e : published_.events) {
    if (e.has_restore_requested()) {
      restore = true;
      EXPECT_EQ(e.restore_requested().fen(),
                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    }
  }
  EXPECT_TRUE(restore);
  EXPECT_TRUE(completed().empty());
}

TEST_F(SessionTest, CommandsAreCheckedAndAnswered) {
  BoardSession session("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  v1::Command command;
  command.mutable_add_time()->set_delta_ms(60000);
  EXPECT_EQ(session.command(command, milliseconds(0)).code(), v1::ACK_ERROR_REJECTED);  // no game
  session.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  int t = 0;
  play_move(session, sq('e', 2), sq('e', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t);
  EXPECT_EQ(session.command(command, milliseconds(t)).code(),
            v1::ACK_ERROR_INVALID_ARGUMENT);  // no side
  command.mutable_add_time()->set_side(v1::SIDE_BLACK);
  const v1::Ack ok = session.command(command, milliseconds(t));
  EXPECT_TRUE(ok.ok()) << ok.error();
  v1::Command result;
  result.mutable_set_result()->set_result("2-0");
  EXPECT_EQ(session.command(result, milliseconds(t)).code(), v1::ACK_ERROR_INVALID_ARGUMENT);
  result.mutable_set_result()->set_result("1/2-1/2");
  const v1::Ack ended = session.command(result, milliseconds(t));
  ASSERT_TRUE(ended.ok()) << ended.error();
  EXPECT_GT(ended.seq(), 0u);
  EXPECT_TRUE(published_.events.back().has_game_ended() || state_.snapshot().result() == "1/2-1/2");
  v1::Command game;
  game.mutable_new_game()->set_time_control("nonsense");
  EXPECT_EQ(session.command(game, milliseconds(t)).code(), v1::ACK_ERROR_INVALID_ARGUMENT);
  game.mutable_new_game()->set_time_control("300+3");
  const v1::Ack started = session.command(game, milliseconds(t));
  ASSERT_TRUE(started.ok()) << started.error();
  EXPECT_EQ(state_.snapshot().game_id(), 2u);
  EXPECT_EQ(state_.snapshot().time_control(), "300+3");
}

}  // namespace
}  // namespace eboard::daemon
