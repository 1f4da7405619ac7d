// The arbiter's rulings end to end (docs/rules.md §0; docs/interfaces.md §6.1): a result signalled
// on an emulated DGT board with the result pieces is an open proposal that `eboard-ctl
// accept` turns into the game's result and `reject` leaves the game going; and what the
// arbiter did survives a kill -9 of eboardd (the journal's commandApplied records played
// again on recovery): the same open proposal under the same seq, the clocks with the time
// added, the players, and atMs that goes on; and one voice per decision after it (a
// penalty ladder's loss is one proposal). Real processes over real ptys.
#include "tests/daemon/ctl/ctl_e2e_helpers.h"

namespace eboard::daemon::ctl_test {
namespace {

// 1.e4 e5, then a result piece put on d4 and left there (`piece`: 1 draw, 2 White wins,
// 3 Black wins).
std::string result_piece_script(const std::string& dir, const std::string& name, char piece) {
  return idle_script(dir, name, kTwoMoves + "3.000 put d4 " + std::string(1, piece) + "\n");
}

bool proposed_end(const v1::Event& e, const std::string& board) {
  return e.board_id() == board && e.has_game_ended() && e.game_ended().proposed();
}

// The open proposals' lines of `board` ("b1 SEQ KIND SIDE DESCRIPTION").
std::vector<std::string> proposal_lines(const CtlRun& run, const std::string& board) {
  std::vector<std::string> lines;
  std::istringstream in(run.out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(board + " ", 0) == 0) lines.push_back(line);
  return lines;
}

TEST(RulingsE2e, ResultPiecesAreAcceptedOrRejectedByTheArbiter) {
  const std::string dir = temp_dir("rulings");
  Child daemon(ctl_daemon_args(dir, {"b1=sim:" + result_piece_script(dir, "b1", '2'),
                                     "b2=sim:" + result_piece_script(dir, "b2", '3')}));
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  const auto b1 = wait_event(daemon, 0, [](const v1::Event& e) { return proposed_end(e, "b1"); });
  const auto b2 = wait_event(daemon, 0, [](const v1::Event& e) { return proposed_end(e, "b2"); });
  ASSERT_TRUE(b1 && b2) << daemon.err();
  EXPECT_EQ(b1->game_ended().result(), "1-0");
  EXPECT_EQ(b2->game_ended().result(), "0-1");
  const auto at = [&dir](std::vector<std::string> args) {
    args.insert(args.begin(), {"--connect", "unix:" + dir + "/events.sock"});
    return ctl(args);
  };
  const std::vector<std::string> listed = proposal_lines(at({"proposals"}), "b1");
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].rfind("b1 " + std::to_string(b1->seq()) + " result white 1-0", 0), 0u)
      << listed[0];

  const CtlRun accept = at({"accept", "b1", std::to_string(b1->seq())});
  ASSERT_EQ(accept.status, 0) << accept.err;
  const auto ended = wait_event(daemon, b1->seq(), [](const v1::Event& e) {
    return e.board_id() == "b1" && e.has_game_ended() && !e.game_ended().proposed();
  });
  ASSERT_TRUE(ended) << daemon.err();
  EXPECT_EQ(ended->game_ended().result(), "1-0");
  EXPECT_EQ(ended->game_ended().proposal_seq(), b1->seq());

  const CtlRun reject = at({"reject", "b2", std::to_string(b2->seq())});
  ASSERT_EQ(reject.status, 0) << reject.err;
  const CtlRun status = at({"status", "b2"});
  EXPECT_NE(status.out.find("game: in progress, move 2 (white to move)"), std::string::npos)
      << status.out;
  EXPECT_EQ(status.out.find("open proposal"), std::string::npos) << status.out;
  const CtlRun again = at({"accept", "b2", std::to_string(b2->seq())});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("already settled"), std::string::npos) << again.err;
  // The game on b2 goes on: the arbiter's commands still reach it.
  EXPECT_EQ(at({"add-time", "b2", "white", "30"}).status, 0);
  for (const v1::Event& e : events_of(daemon)) {
    EXPECT_FALSE(e.board_id() == "b2" && e.has_game_ended() && !e.game_ended().proposed())
        << proto::to_json_line(e);
  }
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  std::filesystem::remove_all(dir);
}

TEST(RulingsE2e, KillNineKeepsTheOpenProposalTheAddedTimeAndThePlayers) {
  const std::string dir = temp_dir("rulings-kill");
  // The board outlives the daemon: an emulator of its own on a pty.
  Child sim({kBin + "/eboard-sim", "dgt", "--link", dir + "/board.pty", "--speed", "1",
             idle_script(dir, "b1", kTwoMoves)});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  std::vector<std::string> args = ctl_daemon_args(dir, {"b1=dgt:" + dir + "/board.pty"});
  args.insert(args.end(), {"--rules", "fide-standard", "--clock", "5400+30"});
  const auto at = [&dir](std::vector<std::string> more) {
    more.insert(more.begin(), {"--connect", "unix:" + dir + "/events.sock"});
    return ctl(more);
  };
  std::uint32_t penalty = 0;
  std::int32_t last_at = 0;
  std::uint32_t last_seq = 0;
  {
    Child daemon(args);
    ASSERT_TRUE(ready(daemon)) << daemon.err();
    ASSERT_TRUE(wait_event(daemon, 0, [](const v1::Event& e) {
      return e.has_move_completed() && e.move_completed().ply() == 2;
    })) << daemon.err();
    // A new game with its players from the position on the board, time added, and a
    // two-hands move whose +2 minutes wait for the arbiter.
    ASSERT_EQ(at({"new-game", "b1", "--white", "Carlsen, Magnus", "--black", "Ding, Liren", "--fen",
                  "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"})
                  .status,
              0);
    ASSERT_EQ(at({"add-time", "b1", "black", "60"}).status, 0);
    ASSERT_EQ(at({"two-hands", "b1", "white"}).status, 0);
    const auto open = proposal_lines(at({"proposals", "b1"}), "b1");
    ASSERT_EQ(open.size(), 1u);
    penalty = std::uint32_t(std::stoul(open[0].substr(3)));
    ASSERT_TRUE(wait_event(daemon, 0, [](const v1::Event& e) {
      return e.has_command_applied() && e.command_applied().command().has_two_hands();
    }));
    daemon.kill(SIGKILL);
    daemon.wait(10s);
    for (const v1::Event& e : complete_events(daemon.out())) {
      last_at = std::max(last_at, e.at_ms());
      last_seq = std::max(last_seq, e.seq());
    }
  }
  Child again(args);
  ASSERT_TRUE(ready(again)) << again.err();
  // The board is judged again (its dump) before the game goes on.
  ASSERT_TRUE(wait_event(again, last_seq, [](const v1::Event& e) { return e.has_clock(); }))
      << again.err();
  const auto second_life = events_of(again);
  for (const v1::Event& e : second_life) {
    EXPECT_GE(e.at_ms(), last_at) << "atMs went back: " << proto::to_json_line(e);
    EXPECT_FALSE(e.has_game_started()) << "the game continues";
    EXPECT_FALSE(e.has_restore_requested()) << proto::to_json_line(e);
    if (e.has_clock()) {
      EXPECT_GT(e.clock().black_ms(), 5400000) << "the added minute";
    }
  }
  const CtlRun status = at({"status", "b1"});
  EXPECT_NE(status.out.find("b1: Carlsen, Magnus - Ding, Liren"), std::string::npos) << status.out;
  const auto open = proposal_lines(at({"proposals", "b1"}), "b1");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].rfind("b1 " + std::to_string(penalty) + " penalty white", 0), 0u) << open[0];
  // White's second two-hands move: its loss is one proposal with its result (one voice),
  // listed under the proposed gameEnded; rejected under the penalty event's seq, the game
  // goes on as status says (the record names every seq of the proposal).
  ASSERT_EQ(at({"two-hands", "b1", "white"}).status, 0);
  const auto lost = wait_event(again, last_seq, [](const v1::Event& e) {
    return e.has_penalty() && e.penalty().kind() == v1::PENALTY_GAME_LOST;
  });
  ASSERT_TRUE(lost) << again.err();
  const auto both = proposal_lines(at({"proposals", "b1"}), "b1");
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[1].rfind("b1 " + std::to_string(lost->seq() + 1) + " result black 0-1", 0), 0u)
      << both[1];
  ASSERT_EQ(at({"reject", "b1", std::to_string(lost->seq())}).status, 0);
  const CtlRun going = at({"status", "b1"});
  EXPECT_NE(going.out.find("game: in progress"), std::string::npos) << going.out;
  ASSERT_EQ(proposal_lines(at({"proposals", "b1"}), "b1").size(), 1u);

  const CtlRun accept = at({"accept", "b1", std::to_string(penalty)});
  ASSERT_EQ(accept.status, 0) << accept.err;
  const auto applied = wait_event(
      again, last_seq, [](const v1::Event& e) { return e.has_penalty() && e.penalty().applied(); });
  ASSERT_TRUE(applied) << again.err();
  EXPECT_EQ(applied->penalty().proposal_seq(), penalty);
  again.kill(SIGTERM);
  again.wait(10s);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon::ctl_test
