// Crash recovery keeps what the game has counted (issue 6 item 8; recovery.h replay_game):
// the DGT emulator plays a game in which White has completed one illegal move (a press
// without a move, rules.md D6) before the daemon is killed with SIGKILL; restarted at once,
// the daemon must count White's next one as the second - which loses under fide-standard
// (+2:00, loss) - exactly as if it had never stopped. Real processes over a real pty.
#include <filesystem>

#include <gtest/gtest.h>

#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

using namespace testing_support;

const std::string kTwoPresses =
    std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/two_presses_game.ebs";

std::vector<const v1::IllegalMoveCompleted*> illegal_moves(const std::vector<v1::Event>& events) {
  std::vector<const v1::IllegalMoveCompleted*> out;
  for (const auto& e : events) {
    if (e.has_illegal_move_completed()) out.push_back(&e.illegal_move_completed());
  }
  return out;
}

TEST(RecoveryE2e, KillNineKeepsTheIllegalMoveCounts) {
  const std::string dir = temp_dir();
  Child sim({kBin + "/eboard-sim", "dgt", "--link", dir + "/board.pty", "--speed", "1", kTwoPresses});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  const std::vector<std::string> args = {
      kBin + "/eboardd", "--board", "b1=dgt:" + dir + "/board.pty", "--listen", "unix:" + dir + "/events.sock",
      "--journal", dir + "/journal", "--journal-fsync", "never", "--runtime-dir", dir,
      "--print", "json", "--rules", "fide-standard", "--clock", "5400+30"};
  std::vector<v1::Event> first_life;
  {
    Child daemon(args);
    ASSERT_TRUE(ready(daemon)) << daemon.err();
    ASSERT_TRUE(daemon.wait_for_stdout("\"ply\":4", 30s)) << daemon.err();
    daemon.kill(SIGKILL);
    daemon.wait(10s);
    first_life = parse_events(daemon.out());
  }
  const auto before = illegal_moves(first_life);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0]->count(), 1u);

  Child again(args);
  ASSERT_TRUE(ready(again)) << again.err();
  ASSERT_TRUE(again.wait_for_stdout("gameEnded", 30s))
      << "White's second illegal move did not end the game\n" << again.out() << again.err();
  const auto second_life = parse_events(again.out());
  const auto after = illegal_moves(second_life);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0]->side(), v1::SIDE_WHITE);
  EXPECT_EQ(after[0]->count(), 2u);
  const v1::Event* end = game_end(second_life);
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->game_ended().result(), "0-1");
  EXPECT_EQ(end->game_ended().termination(), v1::TERMINATION_ILLEGAL_MOVE);
  for (const auto& e : second_life) {
    EXPECT_FALSE(e.has_game_started()) << "the game continues";
    EXPECT_FALSE(e.has_restore_requested()) << proto::to_json_line(e);
    EXPECT_FALSE(e.has_move_completed()) << "no move is completed twice";
  }
  // A consumer from seq 1 sees one game, its four moves once each, gap-free.
  Child consumer({kBin + "/eboard-events", "--connect", "unix:" + dir + "/events.sock", "--from-seq", "1",
                  "--format", "json", "--until-game-end", "--timeout", "30"});
  ASSERT_EQ(consumer.wait(40s), 0) << consumer.err();
  const auto whole = parse_events(consumer.out());
  expect_gap_free(whole);
  EXPECT_EQ(moves_of(whole), (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6"}));
  again.kill(SIGTERM);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon
