// A `white=auto` board keeps the clock side it learned through a kill -9 (BoardSession::resume,
// BoardState::learned_white_side): White sits on the right, as the first running clock
// said; the daemon is killed in the middle of the game and restarted at once, and it must
// not take the left clock (Black's) for White's when the next reading comes. Real processes
// over a real pty: the DGT emulator plays the short mate game with White's clock on the
// right.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

using namespace testing_support;

int count(const std::vector<v1::Event>& events, bool (v1::Event::*has)() const) {
  int n = 0;
  for (const auto& e : events) n += (e.*has)() ? 1 : 0;
  return n;
}

TEST(AutoSideRecoveryE2e, KillNineKeepsTheLearnedClockSide) {
  const std::string dir = temp_dir();
  Child sim({kBin + "/eboard-sim", "dgt", "--link", dir + "/board.pty", "--white", "right",
             "--speed", "0.5", kScript});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  const auto args = daemon_args(dir, "e2e=dgt:" + dir + "/board.pty,white=auto");

  std::vector<v1::Event> first_life;
  {
    Child daemon(args);
    ASSERT_TRUE(ready(daemon)) << daemon.err();
    ASSERT_TRUE(daemon.wait_for_stdout("\"ply\":3", 30s)) << daemon.out() << daemon.err();
    daemon.kill(SIGKILL);
    daemon.wait(10s);
    first_life = parse_events(daemon.out());
  }
  ASSERT_EQ(count(first_life, &v1::Event::has_clock_side_learned), 1);

  Child again(args);
  ASSERT_TRUE(ready(again)) << again.err();
  ASSERT_TRUE(again.wait_for_stdout("gameEnded", 40s)) << again.out() << again.err();
  Child consumer({kBin + "/eboard-events", "--connect", "unix:" + dir + "/events.sock",
                  "--from-seq", "1", "--format", "json", "--until-game-end", "--timeout", "30"});
  EXPECT_EQ(consumer.wait(40s), 0) << consumer.err();
  const auto whole = parse_events(consumer.out());
  expect_gap_free(whole);
  // Every move once, each completed by its own player's press: a side taken for the other
  // would turn Black's press into a press without a move and leave a move pending.
  EXPECT_EQ(moves_of(whole), kMoves);
  EXPECT_EQ(count(whole, &v1::Event::has_clock_press_without_move), 0);
  EXPECT_EQ(count(whole, &v1::Event::has_illegal_move_completed), 0);
  EXPECT_EQ(count(whole, &v1::Event::has_restore_requested), 0);
  for (const auto& e : whole) {
    if (e.has_clock_side_learned()) {
      EXPECT_EQ(e.clock_side_learned().white_side(), v1::CLOCK_SIDE_RIGHT);
    }
  }
  const v1::Event* end = game_end(whole);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->game_ended().result(), "1-0");
  EXPECT_EQ(end->game_ended().termination(), v1::TERMINATION_CHECKMATE);
  again.kill(SIGTERM);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon
