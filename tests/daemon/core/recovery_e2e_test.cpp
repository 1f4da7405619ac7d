// Crash recovery keeps what the game has counted (recovery.h replay_game):
// the DGT emulator plays a game in which White has completed one illegal move (a press
// without a move, docs/rules.md D6) before the daemon is killed with SIGKILL; restarted at once,
// the daemon must count White's next one as the second - which loses under fide-standard
// (+2:00, loss) - exactly as if it had never stopped. Real processes over a real pty.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "daemon/core/seq_reservation.h"
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

// The scenario under `fsync` (--journal-fsync); `boot_ids`, when given, are written to a
// --boot-id-file before the first and the second life ("rebooted" in between when they
// differ). Returns the whole stream a consumer from seq 1 gets.
std::vector<v1::Event> kill_nine_scenario(
    const std::string& fsync, const std::pair<std::string, std::string>& boot_ids = {}) {
  const std::string dir = temp_dir();
  Child sim(
      {kBin + "/eboard-sim", "dgt", "--link", dir + "/board.pty", "--speed", "1", kTwoPresses});
  if (!sim.wait_for_stderr("->", 10s)) {
    ADD_FAILURE() << sim.err();
    return {};
  }
  const std::vector<std::string> base_args = {kBin + "/eboardd",
                                              "--board",
                                              "b1=dgt:" + dir + "/board.pty",
                                              "--listen",
                                              "unix:" + dir + "/events.sock",
                                              "--journal",
                                              dir + "/journal",
                                              "--journal-fsync",
                                              fsync,
                                              "--runtime-dir",
                                              dir,
                                              "--print",
                                              "json",
                                              "--rules",
                                              "fide-standard",
                                              "--clock",
                                              "5400+30"};
  std::vector<std::string> args = base_args;
  const std::string boot_file = dir + "/boot_id";
  if (!boot_ids.first.empty()) {
    args.insert(args.end(), {"--boot-id-file", boot_file});
    std::ofstream(boot_file) << boot_ids.first << "\n";
  }
  std::vector<v1::Event> first_life;
  {
    Child daemon(args);
    EXPECT_TRUE(ready(daemon)) << daemon.err();
    if (!daemon.wait_for_stdout("\"ply\":4", 30s)) {
      ADD_FAILURE() << daemon.err();
      return {};
    }
    daemon.kill(SIGKILL);
    daemon.wait(10s);
    first_life = parse_events(daemon.out());
  }
  const auto before = illegal_moves(first_life);
  EXPECT_EQ(before.size(), 1u);
  if (before.size() != 1) return {};
  EXPECT_EQ(before[0]->count(), 1u);

  if (!boot_ids.second.empty()) std::ofstream(boot_file) << boot_ids.second << "\n";
  Child again(args);
  EXPECT_TRUE(ready(again)) << again.err();
  if (!again.wait_for_stdout("gameEnded", 30s)) {
    ADD_FAILURE() << "White's second illegal move did not end the game\n"
                  << again.out() << again.err();
    return {};
  }
  const auto second_life = parse_events(again.out());
  const auto after = illegal_moves(second_life);
  EXPECT_EQ(after.size(), 1u);
  if (after.size() != 1) return {};
  EXPECT_EQ(after[0]->side(), v1::SIDE_WHITE);
  EXPECT_EQ(after[0]->count(), 2u);
  const v1::Event* end = game_end(second_life);
  EXPECT_NE(end, nullptr);
  if (end == nullptr) return {};
  EXPECT_EQ(end->game_ended().result(), "0-1");
  EXPECT_EQ(end->game_ended().termination(), v1::TERMINATION_ILLEGAL_MOVE);
  for (const auto& e : second_life) {
    EXPECT_FALSE(e.has_game_started()) << "the game continues";
    EXPECT_FALSE(e.has_restore_requested()) << proto::to_json_line(e);
    EXPECT_FALSE(e.has_move_completed()) << "no move is completed twice";
  }
  // A consumer from seq 1 sees one game, its four moves once each, gap-free.
  Child consumer({kBin + "/eboard-events", "--connect", "unix:" + dir + "/events.sock",
                  "--from-seq", "1", "--format", "json", "--until-game-end", "--timeout", "30"});
  EXPECT_EQ(consumer.wait(40s), 0) << consumer.err();
  const auto whole = parse_events(consumer.out());
  EXPECT_EQ(moves_of(whole), (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6"}));
  // The second life's events up to the game's end are the consumer's too, same seqs.
  for (const auto& e : second_life) {
    const bool found = std::any_of(whole.begin(), whole.end(), [&](const v1::Event& w) {
      return w.seq() == e.seq() && w.kind_case() == e.kind_case();
    });
    EXPECT_TRUE(found || e.seq() > end->seq()) << proto::to_json_line(e);
  }
  again.kill(SIGTERM);
  std::filesystem::remove_all(dir);
  return whole;
}

TEST(RecoveryE2e, KillNineKeepsTheIllegalMoveCounts) {
  const auto whole = kill_nine_scenario("never");
  ASSERT_FALSE(whole.empty());
  expect_gap_free(whole);
}

// Publish first, sync right after: a kill -9 loses nothing (the page cache keeps the
// records) and, the kernel being the same, numbering continues with no gap.
TEST(RecoveryE2e, KillNineUnderAfterPublishLosesNothing) {
  const auto whole = kill_nine_scenario("after-publish");
  ASSERT_FALSE(whole.empty());
  expect_gap_free(whole);
  for (const auto& e : whole) EXPECT_FALSE(e.has_seqs_lost()) << e.seq();
}

// The same kill -9, but the boot id changes in between, as after a power cut: the daemon
// cannot know the records reached the disk, so it skips the reserved seqs and says so with
// one seqsLost event; nothing else about the game changes.
TEST(RecoveryE2e, UncleanStopAndAnotherBootIdSkipsTheReservedSeqs) {
  const auto whole = kill_nine_scenario("after-publish", {"boot-a", "boot-b"});
  ASSERT_FALSE(whole.empty());
  std::size_t gaps = 0;
  for (std::size_t i = 1; i < whole.size(); ++i) {
    if (whole[i].seq() == whole[i - 1].seq() + 1) continue;
    ++gaps;
    ASSERT_TRUE(whole[i].has_seqs_lost()) << proto::to_json_line(whole[i]);
    EXPECT_EQ(whole[i].seqs_lost().first_seq(), whole[i - 1].seq() + 1);
    EXPECT_EQ(whole[i].seqs_lost().last_seq(), whole[i].seq() - 1);
    // At least the reservation's margin: it was raised whenever it came that close.
    EXPECT_GT(whole[i].seq(), whole[i - 1].seq() + kRaiseMargin);
  }
  EXPECT_EQ(gaps, 1u);
}

}  // namespace
}  // namespace eboard::daemon
