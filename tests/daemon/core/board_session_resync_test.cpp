// BoardSession after a line fault (board_session_sync.cpp). On a line that keeps losing
// bytes, resyncs that follow one another faster than the session's wait for an
// explanation (kDumpJudgeWait) do not start that wait over, so a board that cannot be
// explained still gets its one restore request, and the wait, once run out, is not a
// deadline that stays due. A board unplugged while a player moved, and plugged in again
// before the press, shows that move standing with the mover's clock still running: a
// move waiting for its press, not a board to restore.
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
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::SessionFixture;

using drivers::Piece;
using testing_support::play_move;
using testing_support::sq;

using ResyncTest = SessionFixture;

class ReplugTest : public SessionFixture {
 protected:
  // A game under way: the start position, White's clock running, e2e4 and e7e5 played.
  void start(BoardSession& s) {
    s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    s.on_sensor(testing_support::running_reading(ClockSide::kLeft, 5430, 5430),
                milliseconds(t_ += 100));
    play_move(s, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    play_move(s, sq('e', 7), sq('e', 5), Piece::kBlackPawn, ClockSide::kRight, t_);
  }
  // The completed moves, each with how it was completed.
  std::vector<std::pair<std::string, v1::Completion>> moves() const {
    std::vector<std::pair<std::string, v1::Completion>> out;
    for (const auto& e : published_.events) {
      if (e.has_move_completed())
        out.emplace_back(e.move_completed().uci(), e.move_completed().completion());
    }
    return out;
  }
  void expect_no_charge() const {
    EXPECT_EQ(count(&v1::Event::has_restore_requested), 0);
    EXPECT_EQ(count(&v1::Event::has_illegal_move_completed), 0);
    EXPECT_EQ(count(&v1::Event::has_clock_press_without_move), 0);
  }
};

constexpr v1::Completion kPress = v1::COMPLETION_CLOCK_PRESS;
constexpr v1::Completion kRecovered = v1::COMPLETION_RECOVERED;

// Measured on the DGT emulator on a USB-serial port (four_families_e2e_test.cpp): the board
// unplugged, Black's 1...d5 made meanwhile, the board plugged in again, the press ten
// seconds later. The dump showed d5 with Black's clock still running, which no sequence
// the clock confirms explains: a restore request (d5, d7) after 3 s, and d5 completed as
// recovered at the press. An arbiter sees a move waiting for its press.
TEST_F(ReplugTest, AMoveMadeWhileUnpluggedWaitsForItsPress) {
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 published_.publish());
  start(s);
  s.on_link_up();
  s.on_sensor(drivers::PlacementSeen{placement_of(
                  "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")},
              milliseconds(t_ += 50));
  s.on_sensor(testing_support::running_reading(ClockSide::kLeft, 5400, 5430),
              milliseconds(t_ += 100));
  s.advance(milliseconds(t_ += 10000));
  EXPECT_EQ(count(&v1::Event::has_move_tentative), 3) << "e4, e5 and Nf3 as it stands";
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 200));
  s.advance(milliseconds(t_ += 1000));
  EXPECT_EQ(moves(), (decltype(moves()){{"e2e4", kPress}, {"e7e5", kPress}, {"g1f3", kPress}}));
  expect_no_charge();
  // Play goes on, judged as usual.
  play_move(s, sq('b', 8), sq('c', 6), Piece::kBlackKnight, ClockSide::kRight, t_);
  EXPECT_EQ(moves().size(), 4u);
  expect_no_charge();
}

// Nf3 made and pressed while unplugged, and Black's reply standing when the board comes
// back, Black's clock running: Nf3 is recovered (the clock confirms its press), Nc6 waits
// for its own press.
TEST_F(ReplugTest, TheMovesBeforeTheOneStandingAreRecovered) {
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 published_.publish());
  start(s);
  s.on_link_up();
  s.on_sensor(drivers::PlacementSeen{placement_of(
                  "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")},
              milliseconds(t_ += 50));
  s.on_sensor(testing_support::running_reading(ClockSide::kRight, 5400, 5420),
              milliseconds(t_ += 100));
  s.advance(milliseconds(t_ += 10000));
  EXPECT_EQ(moves().size(), 3u);
  s.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(t_ += 200));
  s.advance(milliseconds(t_ += 1000));
  EXPECT_EQ(moves(),
            (decltype(moves()){
                {"e2e4", kPress}, {"e7e5", kPress}, {"g1f3", kRecovered}, {"b8c6", kPress}}));
  expect_no_charge();
}

// Bytes lost while White pressed for Nf3 (the press was heard, held for the dump) and Black
// already replying when the dump came: Nf3 completes at its press, Nc6 stands.
TEST_F(ReplugTest, AfterLostBytesTheReplyStandingWaitsForItsPress) {
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 published_.publish());
  start(s);
  s.on_sensor(drivers::SquareChanged{sq('g', 1), Piece::kEmpty}, milliseconds(t_ += 500));
  s.on_resync();  // the put on f3 was lost
  s.on_sensor(drivers::LeverPressed{ClockSide::kLeft}, milliseconds(t_ += 500));
  s.on_sensor(drivers::PlacementSeen{placement_of(
                  "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")},
              milliseconds(t_ += 1500));
  s.on_sensor(testing_support::running_reading(ClockSide::kRight, 5420, 5428),
              milliseconds(t_ += 10));
  s.advance(milliseconds(t_ += 10000));
  s.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(t_ += 200));
  s.advance(milliseconds(t_ += 1000));
  EXPECT_EQ(moves(),
            (decltype(moves()){
                {"e2e4", kPress}, {"e7e5", kPress}, {"g1f3", kRecovered}, {"b8c6", kPress}}));
  expect_no_charge();
}

// Measured on the DGT emulator dropping a byte of every third message: the players went
// on while the dump was pending, 1. e4 c5 2. Nf3 stood on the board when it came, which
// two orders of moves explain (so it is no recovery), and a resync came every few hundred
// milliseconds, each with a new dump that set the wait going again: no restore request in
// 55 s, and no move completed.
TEST_F(ResyncTest, ResyncsInARowStillLeadToTheRestoreRequest) {
  BoardSession s("b1", testing_support::standard_setup(), drivers::WhiteSetting::kLeft,
                 published_.publish());
  int t = 0;
  s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t));
  s.on_sensor(testing_support::running_reading(ClockSide::kLeft, 5400, 5400),
              milliseconds(t += 100));
  s.advance(milliseconds(t += 1000));
  s.on_resync();
  s.on_sensor(drivers::LeverPressed{ClockSide::kRight}, milliseconds(t += 500));
  const auto board = placement_of("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
  const int first_dump = t += 50;
  for (int i = 0; i < 20; ++i) {  // 6 s of resyncs, each answered by its dump
    s.on_sensor(drivers::PlacementSeen{board}, milliseconds(t));
    s.on_sensor(testing_support::running_reading(ClockSide::kRight, 5390, 5395),
                milliseconds(t += 10));
    s.advance(milliseconds(t += 140));
    s.on_resync();
    s.advance(milliseconds(t += 150));
  }
  EXPECT_GE(t - first_dump, 6000);
  EXPECT_EQ(count(&v1::Event::has_restore_requested), 1);
  EXPECT_EQ(count(&v1::Event::has_illegal_move_completed), 0);
  EXPECT_EQ(count(&v1::Event::has_clock_press_without_move), 0);
  EXPECT_EQ(count(&v1::Event::has_move_completed), 0);
  // The run-out wait is no deadline in the past (a timer that would fire for good).
  const auto deadline = s.next_deadline();
  EXPECT_TRUE(!deadline || *deadline > milliseconds(t)) << deadline->count() << " at " << t;
}

}  // namespace
}  // namespace eboard::daemon
