// BoardSession judges only a synchronised board (board_session_sync.cpp): while the dump
// a resync or a (re)connect asked for is pending, presses and placements wait, and a
// difference that is not exactly the legal moves made meanwhile is a restore request
// that charges nobody.
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

class SyncTest : public SessionFixture {
 protected:
  // A game under way: the start position, White's clock running, e2e4 and e7e5 played.
  void start(BoardSession& s) {
    s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    s.on_sensor(reading(ClockSide::kLeft, 5430, 5430), milliseconds(t_ += 100));
    play_move(s, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    play_move(s, sq('e', 7), sq('e', 5), Piece::kBlackPawn, ClockSide::kRight, t_);
  }
  std::vector<std::string> moves() const {
    std::vector<std::string> out;
    for (const auto& e : published_.events) {
      if (e.has_move_completed()) out.push_back(e.move_completed().uci());
    }
    return out;
  }
  void expect_no_charge() const {
    EXPECT_EQ(count(&v1::Event::has_illegal_move_completed), 0);
    EXPECT_EQ(count(&v1::Event::has_clock_press_without_move), 0);
    EXPECT_EQ(count(&v1::Event::has_game_ended), 0);
  }

  GameSetup setup_ = testing_support::standard_setup();
};

const char* kAfterNf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

// The measured fault: a field update lost, the dump asked for, and White's press arriving
// before it. Judged against the stale board it was a press without a move; judged
// against the dump it is Nf3, completed once.
TEST_F(SyncTest, APressWhileTheDumpIsPendingIsJudgedAgainstTheDump) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_sensor(drivers::SquareChanged{sq('g', 1), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_resync();  // the put on f3 was lost
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 500));
  s.on_sensor(reading(ClockSide::kRight, 5420, 5430), milliseconds(t_ += 10));
  EXPECT_EQ(moves().size(), 2u) << "nothing is judged before the dump";
  s.on_sensor(drivers::PlacementSeen{placement_of(kAfterNf3)}, milliseconds(t_ += 50));
  EXPECT_EQ(moves(), (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
  expect_no_charge();
  // Play goes on, judged as usual.
  play_move(s, sq('b', 8), sq('c', 6), Piece::kBlackKnight, ClockSide::kRight, t_);
  EXPECT_EQ(moves().size(), 4u);
  expect_no_charge();
}

// The same press reported a round trip after the reading that showed it (the DGT clock
// gate's confirmation): Nf3 is completed at that reading, where White's clock stopped.
TEST_F(SyncTest, AHeldPressIsCompletedAtTheReadingThatShowedIt) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_sensor(drivers::SquareChanged{sq('g', 1), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_resync();
  const int read_at = t_ + 300;
  s.on_sensor_read(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(read_at),
                   milliseconds(t_ += 500));
  s.on_sensor(reading(ClockSide::kRight, 5420, 5430), milliseconds(t_ += 10));
  s.on_sensor(drivers::PlacementSeen{placement_of(kAfterNf3)}, milliseconds(t_ += 50));
  EXPECT_EQ(moves(), (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
  for (const auto& e : published_.events) {
    if (e.has_move_completed() && e.move_completed().uci() == "g1f3") {
      EXPECT_EQ(e.at_ms(), read_at);
    }
  }
}

// A press the dump does not explain (the board shows the committed position) is not
// charged: the fault may have invented it.
TEST_F(SyncTest, APressAgainstAnUnchangedDumpChargesNobody) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_resync();
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 500));
  s.on_sensor(drivers::PlacementSeen{placement_of(
                  "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")},
              milliseconds(t_ += 50));
  expect_no_charge();
  EXPECT_EQ(moves().size(), 2u);
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 0);
}

// A resync with no press meanwhile: once the clock reports after the dump (the driver asks
// for its state at every resync) every press was heard, the dump is the board as it
// stands (mid-move here), and the move completes normally at its press.
TEST_F(SyncTest, AResyncWithoutAPressTakesTheDumpAsTheBoard) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_resync();
  auto lifted = placement_of("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  lifted[sq('g', 1)] = Piece::kEmpty;
  s.on_sensor(drivers::PlacementSeen{lifted}, milliseconds(t_ += 50));
  s.on_sensor(reading(ClockSide::kLeft, 5420, 5430), milliseconds(t_ += 10));
  s.on_sensor(drivers::SquareChanged{sq('f', 3), Piece::kWhiteKnight}, milliseconds(t_ += 500));
  s.advance(milliseconds(t_ += 1000));
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 200));
  EXPECT_EQ(moves(), (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
  ASSERT_FALSE(published_.events.empty());
  for (const auto& e : published_.events) {
    if (e.has_move_completed()) {
      EXPECT_FALSE(e.move_completed().recovered());
    }
  }
  expect_no_charge();
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 0);
}

// Measured on the DGT emulator losing a byte of every third message: a dump taken while
// White castled (the rook on f1, the king still on e1), then bytes lost again, so the
// driver asked for a newer dump and held the king's field updates back; White's press,
// judged against the older dump, completed Rf1 as recovered. The older dump is not judged
// while the newer one is awaited: the newer one shows O-O. (Here Black's press comes after
// the second loss: judged when it came with the press, the older dump is Bc5 and the
// rook's half of O-O standing for White's press, which is right too.)
TEST_F(SyncTest, AStaleDumpIsNotJudgedWhileANewerOneIsAwaited) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  play_move(s, sq('g', 1), sq('f', 3), Piece::kWhiteKnight, ClockSide::kLeft, t_);
  play_move(s, sq('b', 8), sq('c', 6), Piece::kBlackKnight, ClockSide::kRight, t_);
  play_move(s, sq('f', 1), sq('c', 4), Piece::kWhiteBishop, ClockSide::kLeft, t_);
  s.on_sensor(drivers::SquareChanged{sq('f', 8), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_resync();  // the put on c5 was lost
  auto rook_first =
      placement_of("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
  rook_first[sq('h', 1)] = Piece::kEmpty;
  rook_first[sq('f', 1)] = Piece::kWhiteRook;
  s.on_sensor(drivers::PlacementSeen{rook_first}, milliseconds(t_ += 50));
  s.on_resync();  // bytes lost again: the king's field updates are held back
  s.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(t_ += 500));
  s.on_sensor(reading(ClockSide::kLeft, 5420, 5440), milliseconds(t_ += 10));
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 500));
  s.on_sensor(reading(ClockSide::kRight, 5450, 5440), milliseconds(t_ += 10));
  EXPECT_EQ(moves().size(), 5u) << "nothing is judged against the older dump";
  s.on_sensor(drivers::PlacementSeen{placement_of(
                  "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4")},
              milliseconds(t_ += 50));
  s.on_sensor(reading(ClockSide::kRight, 5450, 5440), milliseconds(t_ += 10));
  EXPECT_EQ(moves(),
            (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1"}));
  expect_no_charge();
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 0);
}

// Measured on the DGT emulator losing a byte of one message in thirty: White's press was
// still held by the driver (its reading waits for a second, clock_gate.h) when bytes were
// lost and the dump came, and the dump already showed Black's knight lifted and set down
// on its way. Taken as the board, it made White's press a completed illegal move. A press
// may be on its way until the clock reports after the dump, so the dump waits for that.
TEST_F(SyncTest, APressReportedAfterTheDumpIsJudgedAgainstIt) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_sensor(drivers::SquareChanged{sq('g', 1), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_sensor(drivers::SquareChanged{sq('f', 3), Piece::kWhiteKnight}, milliseconds(t_ += 500));
  s.advance(milliseconds(t_ += 1000));
  s.on_resync();  // White's press is held in the driver, Black's hand already moves
  auto knight_on_its_way = placement_of(kAfterNf3);
  knight_on_its_way[sq('b', 8)] = Piece::kEmpty;
  knight_on_its_way[sq('b', 6)] = Piece::kBlackKnight;
  s.on_sensor(drivers::PlacementSeen{knight_on_its_way}, milliseconds(t_ += 50));
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 20));
  s.on_sensor(reading(ClockSide::kRight, 5420, 5430), milliseconds(t_ += 10));
  s.advance(milliseconds(t_ += 500));
  s.on_sensor(drivers::SquareChanged{sq('b', 6), Piece::kEmpty}, milliseconds(t_ += 300));
  s.on_sensor(drivers::SquareChanged{sq('c', 6), Piece::kBlackKnight}, milliseconds(t_ += 300));
  s.advance(milliseconds(t_ += 1000));
  s.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(t_ += 200));
  s.on_sensor(reading(ClockSide::kLeft, 5450, 5420), milliseconds(t_ += 10));
  s.advance(milliseconds(t_ += 1000));
  EXPECT_EQ(moves(), (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6"}));
  expect_no_charge();
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 0);
}

// Measured on the DGT emulator with one clock message in three damaged: White moved and
// pressed 105 ms into the game, before the driver had confirmed its first clock reading,
// so the first running clock a `white=auto` board saw was Black's, taken for White's:
// each later press was the other player's, a press without a move. The clock that runs
// is the side to move's, so after 1. e4 it is Black's.
TEST_F(SyncTest, AnAutoBoardsFirstReadingAfterAPressShowsBlacksClock) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kAuto, published_.publish());
  s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
  play_move(s, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
  s.on_sensor(reading(ClockSide::kRight, 5430, 5400), milliseconds(t_ += 10));
  ASSERT_EQ(count(&v1::Event::has_clock_side_learned), 1);
  EXPECT_EQ(of(&v1::Event::has_clock_side_learned)[0]->clock_side_learned().white_side(),
            v1::CLOCK_SIDE_LEFT);
  play_move(s, sq('c', 7), sq('c', 5), Piece::kBlackPawn, ClockSide::kRight, t_);
  play_move(s, sq('g', 1), sq('f', 3), Piece::kWhiteKnight, ClockSide::kLeft, t_);
  EXPECT_EQ(moves(), (std::vector<std::string>{"e2e4", "c7c5", "g1f3"}));
  expect_no_charge();
}

// After a reconnect whose difference nothing explains: one restore request, and no
// press charges anyone until the board is back; then play goes on.
TEST_F(SyncTest, AfterARestoreRequestNothingIsChargedUntilTheBoardIsBack) {
  BoardSession s("b1", setup_, drivers::WhiteSetting::kLeft, published_.publish());
  start(s);
  s.on_link_up();
  auto wrong = placement_of("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  wrong[sq('a', 1)] = Piece::kEmpty;  // a rook is gone
  s.on_sensor(drivers::PlacementSeen{wrong}, milliseconds(t_ += 50));
  s.on_sensor(reading(ClockSide::kLeft, 5400, 5420), milliseconds(t_ += 100));
  ASSERT_TRUE(s.next_deadline().has_value());
  s.advance(milliseconds(t_ += 3000));
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 1);
  // White presses twice, moves a piece, presses: nothing is judged on this board.
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 500));
  s.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(t_ += 500));
  s.on_sensor(drivers::SquareChanged{sq('b', 1), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_sensor(drivers::SquareChanged{sq('b', 3), Piece::kWhiteKnight}, milliseconds(t_ += 500));
  s.advance(milliseconds(t_ += 1000));
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 500));
  s.advance(milliseconds(t_ += 5000));
  expect_no_charge();
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 1) << "asked once";
  // Restored: the knight back, the rook back; Black's clock runs after White's last press,
  // and the board shows the committed position, so nothing is recovered or charged.
  s.on_sensor(drivers::SquareChanged{sq('b', 3), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_sensor(drivers::SquareChanged{sq('b', 1), Piece::kWhiteKnight}, milliseconds(t_ += 500));
  s.on_sensor(drivers::SquareChanged{sq('a', 1), Piece::kWhiteRook}, milliseconds(t_ += 500));
  s.on_sensor(reading(ClockSide::kLeft, 5390, 5420), milliseconds(t_ += 100));
  play_move(s, sq('g', 1), sq('f', 3), Piece::kWhiteKnight, ClockSide::kLeft, t_);
  EXPECT_EQ(moves(), (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
  expect_no_charge();
}

}  // namespace
}  // namespace eboard::daemon
