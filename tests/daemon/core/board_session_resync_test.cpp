// BoardSession on a line that keeps losing bytes (board_session_sync.cpp): resyncs that
// follow one another faster than the session's wait for an explanation (kDumpJudgeWait) do
// not start that wait over, so a board that cannot be explained still gets its one
// restore request, and the wait, once run out, is not a deadline that stays due.
#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "tests/daemon/clock_reading.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::SessionFixture;

using ResyncTest = SessionFixture;

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
