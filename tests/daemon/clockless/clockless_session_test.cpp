// BoardSession on a board without a clock, with chosen timestamps: a clock=none board drops
// what the device says of a clock; an auto board follows the device's report of the clock
// going away and coming back (docs/clockless.md).
#include <gtest/gtest.h>

#include <memory>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"
#include "engine/board/fen.h"
#include "tests/daemon/clock_reading.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/published_events.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using drivers::Piece;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::PublishedEvents;
using testing_support::sq;

drivers::ClockReading reading(ClockSide turn, int left_s, int right_s) {
  return testing_support::running_reading(turn, left_s, right_s);
}

class ClocklessSession : public testing::Test {
 protected:
  BoardState state_{"b1"};
  PublishedEvents published_{"b1", &state_};
  BoardSession session_{"b1", GameSetup{"fide-blitz", "180+2", {}, {}, ""},
                        drivers::WhiteSetting::kLeft, published_.publish()};

  void move(int from, int to, Piece piece, int at) {
    session_.on_sensor(drivers::SquareChanged{from, Piece::kEmpty}, milliseconds(at));
    session_.on_sensor(drivers::SquareChanged{to, piece}, milliseconds(at + 200));
  }
  std::vector<std::pair<std::string, v1::Completion>> completed() const {
    std::vector<std::pair<std::string, v1::Completion>> out;
    for (const auto& e : published_.events)
      if (e.has_move_completed())
        out.emplace_back(e.move_completed().uci(), e.move_completed().completion());
    return out;
  }
  using Completed = std::vector<std::pair<std::string, v1::Completion>>;
  // The daemon restarted: a new session resumes the game the journal holds (state_), on
  // the same clock=none board, and the board's link comes up.
  std::unique_ptr<BoardSession> restarted() {
    const BoardState journal = state_;
    published_.events.clear();
    auto second =
        std::make_unique<BoardSession>("b1", GameSetup{"fide-blitz", "180+2", {}, {}, ""},
                                       drivers::WhiteSetting::kLeft, published_.publish());
    second->set_clock_setting(drivers::ClockSetting::kNone, milliseconds(0));
    EXPECT_FALSE(second->resume(journal).has_value());
    second->on_link_up();
    return second;
  }
  int count_of(bool (v1::Event::*has)() const) const {
    int n = 0;
    for (const auto& e : published_.events) n += (e.*has)();
    return n;
  }
};

TEST_F(ClocklessSession, AClockNoneBoardDropsTheClockAndCompletesByTheBoard) {
  session_.set_clock_setting(drivers::ClockSetting::kNone, milliseconds(0));
  session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  session_.on_sensor(reading(ClockSide::kLeft, 180, 180), milliseconds(100));
  move(sq('e', 2), sq('e', 4), Piece::kWhitePawn, 1000);
  session_.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(1500));
  EXPECT_TRUE(completed().empty());  // the press is not the board's
  session_.advance(milliseconds(4200));
  EXPECT_EQ(completed(), (Completed{{"e2e4", v1::COMPLETION_SETTLED}}));
  for (const auto& e : published_.events) EXPECT_FALSE(e.has_clock_press_without_move());
}

TEST_F(ClocklessSession, AnAutoBoardFollowsTheClockGoingAndComing) {
  session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  session_.on_sensor(drivers::ClockAbsent{}, milliseconds(50));
  move(sq('e', 2), sq('e', 4), Piece::kWhitePawn, 1000);
  move(sq('e', 7), sq('e', 5), Piece::kBlackPawn, 2500);  // completes e4: Black moved on it
  EXPECT_EQ(completed(), (Completed{{"e2e4", v1::COMPLETION_OPPONENT_BEGAN}}));
  // A clock plugged in while e5 stands: from now on presses complete.
  session_.on_sensor(reading(ClockSide::kRight, 175, 178), milliseconds(3000));
  session_.advance(milliseconds(20000));
  EXPECT_EQ(completed().size(), 1u);
  session_.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(20100));
  EXPECT_EQ(completed(), (Completed{{"e2e4", v1::COMPLETION_OPPONENT_BEGAN},
                                    {"e7e5", v1::COMPLETION_CLOCK_PRESS}}));
  // And away again: a move left standing settles.
  session_.on_sensor(drivers::ClockAbsent{}, milliseconds(21000));
  move(sq('g', 1), sq('f', 3), Piece::kWhiteKnight, 22000);
  session_.advance(milliseconds(25200));
  EXPECT_EQ(completed().back(),
            (std::pair<std::string, v1::Completion>{"g1f3", v1::COMPLETION_SETTLED}));
}

// A restarted daemon plays the journal's game again with presses (recovery.h), then goes
// on without a clock: no warning, and the next move settles.
TEST_F(ClocklessSession, AResumedClocklessGameGoesOnWithoutAClock) {
  session_.set_clock_setting(drivers::ClockSetting::kNone, milliseconds(0));
  session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  move(sq('e', 2), sq('e', 4), Piece::kWhitePawn, 1000);
  move(sq('e', 7), sq('e', 5), Piece::kBlackPawn, 2500);
  session_.advance(milliseconds(6000));
  ASSERT_EQ(completed().size(), 2u);
  const auto second = restarted();
  EXPECT_EQ(second->resume_warning(), "");
  const milliseconds r = second->resume_at();  // the board's time line goes on from there
  second->on_sensor(drivers::PlacementSeen{placement_of(
                        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")},
                    r);
  second->advance(r + milliseconds(3100));  // judged at once: no clock report is awaited
  second->on_sensor(drivers::SquareChanged{sq('g', 1), Piece::kEmpty}, r + milliseconds(4000));
  second->on_sensor(drivers::SquareChanged{sq('f', 3), Piece::kWhiteKnight},
                    r + milliseconds(4200));
  second->advance(r + milliseconds(7200));
  EXPECT_EQ(completed(), (Completed{{"g1f3", v1::COMPLETION_SETTLED}}));
  for (const auto& e : published_.events) {
    if (e.has_move_completed()) {
      EXPECT_EQ(e.move_completed().ply(), 3u);
    }
  }
}

// Bytes lost on a board without a clock while the players went on: one sequence of legal
// moves explains the dump, so the moves the opponent answered are completed (recovered)
// and the last one stands on the board, completed when the opponent begins.
TEST_F(ClocklessSession, MovesMadeBehindLostBytesAreCompletedAndTheLastOneStands) {
  session_.set_clock_setting(drivers::ClockSetting::kNone, milliseconds(0));
  session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  move(sq('e', 2), sq('e', 4), Piece::kWhitePawn, 1000);
  move(sq('e', 7), sq('e', 5), Piece::kBlackPawn, 2500);
  ASSERT_EQ(completed(), (Completed{{"e2e4", v1::COMPLETION_OPPONENT_BEGAN}}));
  session_.on_resync();
  // e5 stood, then Nf3 and Bc5 (which only e5 lets out) were made behind the lost bytes.
  session_.on_sensor(drivers::PlacementSeen{placement_of(
                         "rnbqk1nr/pppp1ppp/8/2b1p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")},
                     milliseconds(3000));
  EXPECT_EQ(completed(), (Completed{{"e2e4", v1::COMPLETION_OPPONENT_BEGAN},
                                    {"e7e5", v1::COMPLETION_RECOVERED},
                                    {"g1f3", v1::COMPLETION_RECOVERED}}));
  move(sq('f', 1), sq('c', 4), Piece::kWhiteBishop, 3500);  // White begins: Bc5 completes
  EXPECT_EQ(completed().back(),
            (std::pair<std::string, v1::Completion>{"f8c5", v1::COMPLETION_OPPONENT_BEGAN}));
  EXPECT_EQ(count_of(&v1::Event::has_restore_requested), 0);
  EXPECT_EQ(count_of(&v1::Event::has_illegal_move_pending), 0);
}

// A dump that two orders of moves explain (1. e4 e5 2. d4 or 1. d4 e5 2. e4) is not
// guessed: it is shown to the tracker as the board stands, which cannot explain it either,
// and nothing is completed.
TEST_F(ClocklessSession, ADumpTwoOrdersOfMovesExplainCompletesNothing) {
  session_.set_clock_setting(drivers::ClockSetting::kNone, milliseconds(0));
  session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  session_.on_resync();
  session_.on_sensor(drivers::PlacementSeen{placement_of(
                         "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2")},
                     milliseconds(1000));
  session_.advance(milliseconds(8000));
  EXPECT_TRUE(completed().empty());
  EXPECT_EQ(count_of(&v1::Event::has_move_tentative), 0);
}

// After a restart the board is judged at once, with no clock report to wait for, and a move
// made while the daemon was down stands on the board like any other.
TEST_F(ClocklessSession, AMoveMadeWhileTheDaemonWasDownStandsWithoutARestore) {
  session_.set_clock_setting(drivers::ClockSetting::kNone, milliseconds(0));
  session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  move(sq('e', 2), sq('e', 4), Piece::kWhitePawn, 1000);
  move(sq('e', 7), sq('e', 5), Piece::kBlackPawn, 2500);
  ASSERT_EQ(completed().size(), 1u);
  const auto second = restarted();
  const milliseconds r = second->resume_at();
  // e5 (left standing before the stop) and Nf3 were made meanwhile.
  second->on_sensor(drivers::PlacementSeen{placement_of(
                        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")},
                    r);
  EXPECT_EQ(completed(), (Completed{{"e7e5", v1::COMPLETION_RECOVERED}}));
  EXPECT_EQ(count_of(&v1::Event::has_move_tentative), 1);  // Nf3, standing
  second->on_sensor(drivers::SquareChanged{sq('b', 8), Piece::kEmpty}, r + milliseconds(1000));
  second->advance(r + milliseconds(1500));
  EXPECT_EQ(completed().back(),
            (std::pair<std::string, v1::Completion>{"g1f3", v1::COMPLETION_OPPONENT_BEGAN}));
  second->advance(r + milliseconds(10000));
  EXPECT_EQ(count_of(&v1::Event::has_restore_requested), 0);
}

}  // namespace
}  // namespace eboard::daemon
