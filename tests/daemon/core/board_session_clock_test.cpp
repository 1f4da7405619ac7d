// A time forfeit the clock model contradicts is a proposal (board_session_clock.cpp): a
// reading that says a side's time is up while the model gives it hours is not taken.
#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "tests/daemon/clock_reading.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/play_move.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using drivers::Piece;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::play_move;
using testing_support::SessionFixture;
using testing_support::sq;

drivers::ClockReading reading(ClockSide turn, int left_s, int right_s) {
  return testing_support::running_reading(turn, left_s, right_s);
}

class ForfeitTest : public SessionFixture {
 protected:
  // White's clock runs after 1. e4 e5; the clock shows 8020 s for White (left).
  void start(BoardSession& s) {
    s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    s.on_sensor(reading(ClockSide::kLeft, 5430, 5430), milliseconds(t_ += 100));
    play_move(s, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    play_move(s, sq('e', 7), sq('e', 5), Piece::kBlackPawn, ClockSide::kRight, t_);
  }

  GameSetup setup_ = testing_support::standard_setup();
};

// The measured fault, past the driver: White's flag with White's time at zero while the
// model gives White some 5400 s. Proposed once, the model keeps its time, and the game
// goes on when the clock agrees again.
TEST_F(ForfeitTest, AFlagTheModelContradictsIsProposedOnce) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  drivers::ClockReading zero = reading(ClockSide::kLeft, 0, 5420);
  zero.left_flag = true;
  s.on_sensor(drivers::FlagShown{ClockSide::kLeft}, milliseconds(t_ += 1000));
  s.on_sensor(zero, milliseconds(t_));
  s.on_sensor(zero, milliseconds(t_ += 1000));
  EXPECT_TRUE(of(&v1::Event::has_flag_fell).empty());
  const auto ended = of(&v1::Event::has_game_ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_TRUE(ended[0]->game_ended().proposed());
  EXPECT_EQ(ended[0]->game_ended().result(), "0-1");
  EXPECT_EQ(ended[0]->game_ended().termination(), v1::TERMINATION_TIME_FORFEIT);
  EXPECT_FALSE(s.game_ended());
  s.on_sensor(reading(ClockSide::kLeft, 5380, 5420), milliseconds(t_ += 1000));
  play_move(s, sq('g', 1), sq('f', 3), Piece::kWhiteKnight, ClockSide::kLeft, t_);
  EXPECT_EQ(of(&v1::Event::has_move_completed).size(), 3u);
  EXPECT_EQ(of(&v1::Event::has_game_ended).size(), 1u);
}

// Zero on the running side without a flag bit: the model would flag at once. The same.
TEST_F(ForfeitTest, ZeroOnTheRunningSideIsProposedNotFlagged) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_sensor(reading(ClockSide::kLeft, 0, 5420), milliseconds(t_ += 1000));
  EXPECT_TRUE(of(&v1::Event::has_flag_fell).empty());
  const auto ended = of(&v1::Event::has_game_ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_TRUE(ended[0]->game_ended().proposed());
}

// A flag the model agrees with (the clock ran down with it) ends the game as before.
TEST_F(ForfeitTest, AFlagTheModelAgreesWithIsFinal) {
  setup_.clock = "60";
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
  s.on_sensor(reading(ClockSide::kLeft, 60, 60), milliseconds(t_ += 100));
  s.on_sensor(reading(ClockSide::kLeft, 1, 60), milliseconds(t_ += 59000));
  drivers::ClockReading zero = reading(ClockSide::kLeft, 0, 60);
  zero.left_flag = true;
  s.on_sensor(drivers::FlagShown{ClockSide::kLeft}, milliseconds(t_ += 1000));
  s.on_sensor(zero, milliseconds(t_));
  EXPECT_EQ(of(&v1::Event::has_flag_fell).size(), 1u);
  const auto ended = of(&v1::Event::has_game_ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_FALSE(ended[0]->game_ended().proposed());
  EXPECT_TRUE(s.game_ended());
}

// A flag with time on the clock: in the last period no next period began, so the clock's
// flag contradicts the model too.
TEST_F(ForfeitTest, AFlagWithTimeOnTheClockInTheLastPeriodIsProposed) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  drivers::ClockReading shown = reading(ClockSide::kLeft, 5420, 5420);
  shown.left_flag = true;
  s.on_sensor(drivers::FlagShown{ClockSide::kLeft}, milliseconds(t_ += 1000));
  s.on_sensor(shown, milliseconds(t_));
  EXPECT_TRUE(of(&v1::Event::has_flag_fell).empty());
  const auto ended = of(&v1::Event::has_game_ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_TRUE(ended[0]->game_ended().proposed());
}

// 6.9 holds for a proposed forfeit too: White has a bare king, so Black's time running
// out is proposed as a draw, not as a win White could never have made.
TEST_F(ForfeitTest, AProposedForfeitAgainstABareKingIsADraw) {
  setup_.start_fen = "r3k3/8/8/8/8/8/8/4K3 w - - 0 1";
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  s.on_sensor(drivers::PlacementSeen{placement_of(setup_.start_fen)}, milliseconds(t_));
  s.on_sensor(reading(ClockSide::kLeft, 5430, 5430), milliseconds(t_ += 100));
  play_move(s, sq('e', 1), sq('e', 2), Piece::kWhiteKing, ClockSide::kLeft, t_);
  s.on_sensor(reading(ClockSide::kRight, 5428, 0), milliseconds(t_ += 1000));
  EXPECT_TRUE(of(&v1::Event::has_flag_fell).empty());
  const auto ended = of(&v1::Event::has_game_ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_TRUE(ended[0]->game_ended().proposed());
  EXPECT_EQ(ended[0]->game_ended().result(), "1/2-1/2");
  EXPECT_EQ(ended[0]->game_ended().termination(), v1::TERMINATION_TIMEOUT_VS_INSUFFICIENT);
}

// The side with the rook can mate: White's time at zero is proposed as Black's win.
TEST_F(ForfeitTest, AProposedForfeitAgainstARookIsALoss) {
  setup_.start_fen = "r3k3/8/8/8/8/8/8/4K3 w - - 0 1";
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  s.on_sensor(drivers::PlacementSeen{placement_of(setup_.start_fen)}, milliseconds(t_));
  s.on_sensor(reading(ClockSide::kLeft, 5430, 5430), milliseconds(t_ += 100));
  s.on_sensor(reading(ClockSide::kLeft, 0, 5430), milliseconds(t_ += 1000));
  const auto ended = of(&v1::Event::has_game_ended);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_TRUE(ended[0]->game_ended().proposed());
  EXPECT_EQ(ended[0]->game_ended().result(), "0-1");
  EXPECT_EQ(ended[0]->game_ended().termination(), v1::TERMINATION_TIME_FORFEIT);
}

}  // namespace
}  // namespace eboard::daemon
