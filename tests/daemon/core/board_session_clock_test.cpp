// A time forfeit the clock model contradicts is a proposal (board_session_clock.cpp): a
// reading that says a side's time is up while the model gives it hours is not taken. And
// a press and its reading that the driver reports a round trip after the reading came are
// judged at the reading (BoardSession::on_sensor_read).
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
using testing_support::PublishedEvents;
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

// 1. e4 stands on the board, White's clock (left) runs since the reading at 100 ms: White's
// press is next.
void before_the_press(BoardSession& s) {
  s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  s.on_sensor(reading(ClockSide::kLeft, 5430, 5430), milliseconds(100));
  s.on_sensor(drivers::SquareChanged{sq('e', 2), Piece::kEmpty}, milliseconds(600));
  s.on_sensor(drivers::SquareChanged{sq('e', 4), Piece::kWhitePawn}, milliseconds(1100));
  s.advance(milliseconds(2100));
}

const v1::MoveCompleted& only_move(const PublishedEvents& published) {
  const v1::MoveCompleted* found = nullptr;
  for (const auto& e : published.events) {
    if (!e.has_move_completed()) continue;
    EXPECT_EQ(found, nullptr) << "a second moveCompleted";
    found = &e.move_completed();
  }
  EXPECT_NE(found, nullptr) << "no moveCompleted";
  static const v1::MoveCompleted none;
  return found ? *found : none;
}

int move_at_ms(const PublishedEvents& published) {
  for (const auto& e : published.events) {
    if (e.has_move_completed()) return e.at_ms();
  }
  return -1;
}

// The reading that showed White's press came at 3000 ms, its confirmation at 3200 ms:
// White is charged up to 3000, as by a press reported at once.
TEST(PressDate, TheMoverIsChargedUpToTheReadingThatShowedThePress) {
  PublishedEvents reported_late;
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 reported_late.publish());
  before_the_press(s);
  s.on_sensor_read(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(3000), milliseconds(3200));
  PublishedEvents reported_at_once;
  BoardSession at_once("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                       reported_at_once.publish());
  before_the_press(at_once);
  at_once.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(3000));
  EXPECT_EQ(move_at_ms(reported_late), 3000);
  EXPECT_EQ(only_move(reported_late).white_ms(), only_move(reported_at_once).white_ms());
  EXPECT_EQ(only_move(reported_late).black_ms(), only_move(reported_at_once).black_ms());
}

// A timer moved the session on to 3150 ms between the reading (3000) and its confirmation
// (3200): the press is judged at 3150, never before what the tracker was given.
TEST(PressDate, APressIsNeverDatedBeforeTheSessionsLastInput) {
  PublishedEvents reported_late;
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 reported_late.publish());
  before_the_press(s);
  s.advance(milliseconds(3150));
  s.on_sensor_read(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(3000), milliseconds(3200));
  PublishedEvents reported_at_once;
  BoardSession at_once("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                       reported_at_once.publish());
  before_the_press(at_once);
  at_once.advance(milliseconds(3150));
  at_once.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(3150));
  EXPECT_EQ(move_at_ms(reported_late), 3150);
  EXPECT_EQ(only_move(reported_late).white_ms(), only_move(reported_at_once).white_ms());
}

// The clock's reading that showed the press (White's time with the increment, Black's
// unchanged) and the one that confirmed it 2 s later, both reported then: the model runs
// Black's clock from the first, so neither disagrees with it.
TEST(PressDate, TheReadingThatShowedAPressIsTakenWhenItCame) {
  PublishedEvents published;
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 published.publish());
  before_the_press(s);
  const auto read_at = milliseconds(3000);
  const auto confirmed_at = milliseconds(5000);
  s.on_sensor_read(drivers::LeverPressed{ClockSide::kLeft}, read_at, confirmed_at);
  s.on_sensor_read(reading(ClockSide::kRight, 5457, 5430), read_at, confirmed_at);
  s.on_sensor(reading(ClockSide::kRight, 5457, 5428), confirmed_at);
  EXPECT_EQ(move_at_ms(published), 3000);
  for (const auto& e : published.events) {
    EXPECT_FALSE(e.has_clock_mismatch()) << e.ShortDebugString();
  }
}

}  // namespace
}  // namespace eboard::daemon
