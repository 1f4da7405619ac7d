// eboard-ctl end to end (docs/interfaces.md §6.1): every subcommand against a running eboardd
// whose board is the DGT emulator on a pseudo-terminal, each command seen reaching the
// game as the event it causes and as its commandApplied record; the exit statuses (0
// acknowledged, 1 refused with the daemon's reason, 2 bad arguments, 3 no daemon);
// control over TCP with the token and over TLS through a relay that presents a test
// certificate (the client's checks of the certificate and the host name).
#include "tests/daemon/ctl/ctl_e2e_helpers.h"

namespace eboard::daemon::ctl_test {
namespace {

// The seq a text answer "b1: ok (seq N)" names.
std::uint32_t seq_of(const CtlRun& run) {
  const auto at = run.out.find("(seq ");
  return at == std::string::npos ? 0 : std::uint32_t(std::stoul(run.out.substr(at + 5)));
}

class CtlE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir("ctl");
    daemon_ = std::make_unique<Child>(
        ctl_daemon_args(dir_, {"b1=sim:" + idle_script(dir_, "b1", kTwoMoves)}));
    ASSERT_TRUE(ready(*daemon_)) << daemon_->err();
    ASSERT_TRUE(wait_event(*daemon_, 0, [](const v1::Event& e) {
      return e.has_move_completed() && e.move_completed().ply() == 2;
    })) << daemon_->err();
  }
  void TearDown() override {
    daemon_->kill(SIGTERM);
    daemon_->wait(10s);
    std::filesystem::remove_all(dir_);
  }
  CtlRun run(std::vector<std::string> args) {
    args.insert(args.begin(), {"--connect", "unix:" + dir_ + "/events.sock"});
    return ctl(args);
  }
  // Runs the command, expects it acknowledged, and returns the event it caused that
  // `match` accepts (at or after the ack's seq).
  v1::Event acked(const std::vector<std::string>& args,
                  const std::function<bool(const v1::Event&)>& match) {
    const CtlRun r = run(args);
    EXPECT_EQ(r.status, 0) << args[0] << ": " << r.err;
    const std::uint32_t seq = seq_of(r);
    EXPECT_GT(seq, 0u) << args[0] << ": " << r.out;
    auto event = wait_event(*daemon_, seq - 1, match);
    EXPECT_TRUE(event) << args[0] << " caused no such event after seq " << seq;
    return event.value_or(v1::Event());
  }

  std::string dir_;
  std::unique_ptr<Child> daemon_;
};

TEST_F(CtlE2e, EverySubcommandReachesTheGame) {
  CtlRun status = run({"status"});
  ASSERT_EQ(status.status, 0) << status.err;
  EXPECT_NE(status.out.find("b1: ? - ?"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("game: in progress, move 2 (white to move)"), std::string::npos)
      << status.out;

  // Clock corrections reach the model at once and the emulated DGT 3000 (SETNRUN), so
  // its next report keeps them.
  const v1::Event added = acked({"add-time", "b1", "black", "60"}, [](const v1::Event& e) {
    return e.has_clock() && e.clock().black_ms() > 5500000;
  });
  EXPECT_TRUE(wait_event(*daemon_, added.seq(), [](const v1::Event& e) {
    return e.has_clock() && e.clock().black_ms() > 5500000 && e.clock().white_ms() < 5460000;
  })) << "the clock's own report does not keep the added minute";
  acked({"pause", "b1"}, [](const v1::Event& e) { return e.has_clock() && e.clock().paused(); });
  acked({"resume", "b1"}, [](const v1::Event& e) { return e.has_clock() && !e.clock().paused(); });
  acked({"set-clock", "b1", "3000", "2900"}, [](const v1::Event& e) {
    return e.has_clock() && e.clock().white_ms() <= 3000000 && e.clock().black_ms() == 2900000;
  });

  // A two-hands move is a completed illegal move: +2 minutes proposed to the arbiter,
  // listed under its seq and accepted by it.
  acked({"two-hands", "b1", "black"}, [](const v1::Event& e) {
    return e.has_illegal_move_completed() &&
           e.illegal_move_completed().reason() == v1::REASON_TWO_HANDS;
  });
  const CtlRun proposals = run({"proposals", "b1"});
  ASSERT_EQ(proposals.status, 0) << proposals.err;
  const auto penalty = proposals.out.find(" penalty black ");
  ASSERT_NE(penalty, std::string::npos) << proposals.out;
  const std::string seq = proposals.out.substr(3, penalty - 3);
  const v1::Event applied = acked({"accept", "b1", seq}, [](const v1::Event& e) {
    return e.has_penalty() && e.penalty().applied();
  });
  EXPECT_EQ(std::to_string(applied.penalty().proposal_seq()), seq);
  const CtlRun again = run({"accept", "b1", seq});
  EXPECT_EQ(again.status, 1);
  EXPECT_NE(again.err.find("already settled"), std::string::npos) << again.err;
  EXPECT_EQ(run({"proposals", "b1"}).out.find(" penalty "), std::string::npos);

  acked({"claim", "b1", "white", "threefold"}, [](const v1::Event& e) {
    return e.has_claim_received() && e.claim_received().kind() == v1::CLAIM_KIND_THREEFOLD;
  });
  EXPECT_NE(run({"proposals"}).out.find(" claim white threefold claim: incorrect"),
            std::string::npos);
  acked({"infraction", "b1", "white", "phone", "rang"},
        [](const v1::Event& e) { return e.has_penalty() && e.penalty().side() == v1::SIDE_WHITE; });
  acked({"restore", "b1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "b", "KQkq", "-", "0",
         "1"},
        [](const v1::Event& e) { return e.has_position_changed(); });
  acked({"draw", "b1"}, [](const v1::Event& e) {
    return e.has_game_ended() && e.game_ended().result() == "1/2-1/2" &&
           e.game_ended().termination() == v1::TERMINATION_AGREEMENT;
  });
  const v1::Event started = acked({"new-game", "b1", "--white", "Carlsen, Magnus", "--black",
                                   "Ding, Liren", "--clock", "600+5"},
                                  [](const v1::Event& e) { return e.has_game_started(); });
  EXPECT_EQ(started.game_started().time_control(), "600+5");
  ASSERT_EQ(started.game_started().tags_size(), 2);
  EXPECT_EQ(started.game_started().tags(0).value(), "Carlsen, Magnus");
  acked({"resign", "b1", "white"}, [](const v1::Event& e) {
    return e.has_game_ended() && e.game_ended().result() == "0-1" &&
           e.game_ended().termination() == v1::TERMINATION_RESIGNATION;
  });
  acked({"result", "b1", "-/+"}, [](const v1::Event& e) {
    return e.has_game_ended() && e.game_ended().result() == "0-1" &&
           e.game_ended().description() == "forfeit -/+: White did not play";
  });

  // Every command left its record: what, by whom (the kernel's word for the Unix
  // socket's peer), the answer and the events it caused.
  ASSERT_TRUE(wait_event(*daemon_, 0, [](const v1::Event& e) {
    return e.has_command_applied() && e.command_applied().command().has_set_result();
  }));
  int records = 0;
  for (const v1::Event& e : events_of(*daemon_)) {
    if (!e.has_command_applied()) continue;
    ++records;
    EXPECT_EQ(e.visibility(), v1::VISIBILITY_ARBITER);
    EXPECT_EQ(e.command_applied().client().rfind("unix:uid=", 0), 0u)
        << e.command_applied().client();
    EXPECT_TRUE(e.command_applied().command().token().empty());
    if (e.command_applied().outcome().ok()) {
      EXPECT_GE(e.command_applied().last_seq(), e.command_applied().outcome().seq());
      EXPECT_LT(e.command_applied().last_seq(), e.seq());
    }
  }
  EXPECT_EQ(records, 14);  // the commands above, the refused second accept included
}

TEST_F(CtlE2e, RefusalsExitOneWithTheDaemonsReason) {
  const CtlRun promote = run({"promote", "b1", "q"});
  EXPECT_EQ(promote.status, 1);
  EXPECT_EQ(promote.err,
            "eboard-ctl: b1: refused: promotion_choice: board b1 senses the pieces; the board "
            "shows the promoted piece\n");
  const CtlRun nobody = run({"accept", "b1", "99999"});
  EXPECT_EQ(nobody.status, 1);
  EXPECT_NE(nobody.err.find("names no proposal"), std::string::npos) << nobody.err;
  const CtlRun unknown = run({"pause", "b9"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_EQ(unknown.err, "eboard-ctl: b9: refused: command.board_id: no board 'b9'\n");
  const CtlRun status = run({"status", "b9"});
  EXPECT_EQ(status.status, 1);
  EXPECT_NE(status.err.find("no board 'b9'"), std::string::npos) << status.err;
  const CtlRun running = run({"set-clock", "b1", "60", "60", "--running", "black"});
  EXPECT_EQ(running.status, 1);
  EXPECT_NE(running.err.find("white is to move on b1"), std::string::npos) << running.err;
  // --format json: the ack as a JSON line, the reason still on stderr.
  const CtlRun json = run({"--format", "json", "pause", "b9"});
  EXPECT_EQ(json.status, 1);
  auto frame = proto::frame_from_json("{\"ack\":" + json.out.substr(0, json.out.find('\n')) + "}");
  ASSERT_TRUE(frame.ok()) << json.out;
  EXPECT_EQ(frame->ack().code(), v1::ACK_ERROR_UNKNOWN_BOARD);
}

// eboard-ctl.bash-completion's words for the command line `words`, the last one
// being completed (plain bash: COMP_WORDS and COMP_CWORD as readline sets them).
std::string completions(const std::vector<std::string>& words) {
  std::string quoted;
  std::string line;
  for (const auto& w : words) {
    quoted += " '" + w + "'";
    line += (line.empty() ? "" : " ") + w;
  }
  const std::string script =
      "PATH=" + kBin + ":$PATH; source " + std::string(EBOARD_SOURCE_DIR) +
      "/daemon/programs/eboard_ctl/eboard-ctl.bash-completion; COMP_WORDS=(" + quoted +
      "); COMP_CWORD=" + std::to_string(words.size() - 1) + "; COMP_LINE='" + line +
      "'; COMP_POINT=" + std::to_string(line.size()) +
      "; _eboard_ctl; printf '%s\\n' \"${COMPREPLY[@]}\"";
  Child bash({"/bin/bash", "-c", script});
  bash.wait(20s);
  return bash.out();
}

TEST_F(CtlE2e, BashCompletionKnowsTheSubcommandsAndAsksTheDaemonForBoards) {
  EXPECT_EQ(completions({"eboard-ctl", "pr"}), "proposals\npromote\n");
  EXPECT_EQ(completions({"eboard-ctl", "add-time", "b1", "w"}), "white\n");
  EXPECT_EQ(completions({"eboard-ctl", "claim", "b1", "black", "th"}), "threefold\n");
  EXPECT_EQ(completions({"eboard-ctl", "set-clock", "b1", "--r"}), "--running\n");
  EXPECT_EQ(completions({"eboard-ctl", "--connect", "unix:" + dir_ + "/events.sock", "pause", ""}),
            "b1\n");
}

TEST(CtlExit, BadArgumentsExitTwoAndNoDaemonExitsThree) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{},
                                             {"frobnicate"},
                                             {"add-time", "b1", "blue", "5"},
                                             {"--format", "xml", "status"},
                                             {"--connect", "ftp:x", "status"},
                                             {"round", "/nonexistent.trf", "--round", "1"}}) {
    const CtlRun r = ctl(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const CtlRun help = ctl({"round", "--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.rfind("usage: eboard-ctl [GLOBAL OPTIONS] round FILE", 0), 0u) << help.out;
  const CtlRun none = ctl({"--connect", "unix:/nonexistent/events.sock", "status"});
  EXPECT_EQ(none.status, 3);
  EXPECT_NE(none.err.find("cannot reach the daemon"), std::string::npos) << none.err;
  const CtlRun refused =
      ctl({"--connect", "tcp:127.0.0.1:" + std::to_string(free_tcp_port()), "pause", "b1"});
  EXPECT_EQ(refused.status, 3) << refused.err;
}

}  // namespace
}  // namespace eboard::daemon::ctl_test
