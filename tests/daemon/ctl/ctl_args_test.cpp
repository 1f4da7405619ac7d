#include "daemon/programs/eboard_ctl/ctl_args.h"

#include <gtest/gtest.h>

#include "eboard/v1/json.h"

namespace eboard::daemon::ctl {
namespace {

namespace v1 = eboard::v1;

Result<CtlRequest> parse(std::vector<std::string> args) { return parse_ctl_args(args); }

// The one command the arguments make, as JSON (compact to compare).
std::string command_of(std::vector<std::string> args) {
  auto request = parse(std::move(args));
  if (!request) return "error: " + request.error();
  if (request->commands.size() != 1) return "commands: " + std::to_string(request->commands.size());
  return proto::to_json_line(request->commands.front());
}

std::string error_of(std::vector<std::string> args) {
  auto request = parse(std::move(args));
  return request ? std::string("(no error)") : request.error();
}

TEST(CtlArgs, GlobalOptionsThenSubcommand) {
  auto r = parse({"--connect", "tcp:127.0.0.1:7341", "--token-file=/t", "--format", "json",
                  "--timeout", "2.5", "status", "b1"});
  ASSERT_FALSE(!r) << r.error();
  EXPECT_EQ(r->global.connect, "tcp:127.0.0.1:7341");
  EXPECT_EQ(r->global.token_file, "/t");
  EXPECT_EQ(r->global.format, Format::kJson);
  EXPECT_EQ(r->global.timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(r->action, Action::kStatus);
  EXPECT_EQ(r->boards, std::vector<std::string>{"b1"});
  EXPECT_EQ(parse({"proposals"})->action, Action::kProposals);
}

TEST(CtlArgs, EveryCommandOfTheSchema) {
  EXPECT_EQ(
      command_of({"accept", "b1", "41"}),
      R"({"commandId":0,"boardId":"b1","token":"","ruling":{"decision":"RULING_DECISION_ACCEPT","seq":41}})");
  EXPECT_EQ(
      command_of({"reject", "b1", "7"}),
      R"({"commandId":0,"boardId":"b1","token":"","ruling":{"decision":"RULING_DECISION_REJECT","seq":7}})");
  EXPECT_EQ(
      command_of({"add-time", "b2", "black", "-30"}),
      R"({"commandId":0,"boardId":"b2","token":"","addTime":{"side":"SIDE_BLACK","deltaMs":-30000}})");
  EXPECT_EQ(
      command_of({"add-time", "b2", "white", "1.5"}),
      R"({"commandId":0,"boardId":"b2","token":"","addTime":{"side":"SIDE_WHITE","deltaMs":1500}})");
  EXPECT_EQ(command_of({"pause", "b1"}), R"({"commandId":0,"boardId":"b1","token":"","pause":{}})");
  EXPECT_EQ(command_of({"resume", "b1"}),
            R"({"commandId":0,"boardId":"b1","token":"","resume":{}})");
  EXPECT_EQ(
      command_of({"set-clock", "b1", "600", "540.5"}),
      R"({"commandId":0,"boardId":"b1","token":"","setClock":{"whiteMs":600000,"blackMs":540500}})");
  EXPECT_EQ(
      command_of({"result", "b1", "1/2-1/2", "--reason", "agreed by phone"}),
      R"({"commandId":0,"boardId":"b1","token":"","setResult":{"result":"1/2-1/2","termination":"TERMINATION_UNSPECIFIED","description":"agreed by phone"}})");
  EXPECT_EQ(
      command_of({"result", "b1", "-/+"}),
      R"({"commandId":0,"boardId":"b1","token":"","setResult":{"result":"0-1","termination":"TERMINATION_UNSPECIFIED","description":"forfeit -/+: White did not play"}})");
  EXPECT_EQ(
      command_of({"claim", "b1", "white", "threefold", "g1f3"}),
      R"({"commandId":0,"boardId":"b1","token":"","claim":{"side":"SIDE_WHITE","kind":"CLAIM_KIND_THREEFOLD","intendedUci":"g1f3"}})");
  EXPECT_EQ(command_of({"resign", "b1", "black"}),
            R"({"commandId":0,"boardId":"b1","token":"","resign":{"side":"SIDE_BLACK"}})");
  EXPECT_EQ(command_of({"draw", "b1"}),
            R"({"commandId":0,"boardId":"b1","token":"","drawAgreed":{}})");
  EXPECT_EQ(command_of({"two-hands", "b1", "white"}),
            R"({"commandId":0,"boardId":"b1","token":"","twoHands":{"side":"SIDE_WHITE"}})");
  EXPECT_EQ(
      command_of({"infraction", "b1", "black", "phone", "rang"}),
      R"({"commandId":0,"boardId":"b1","token":"","infraction":{"side":"SIDE_BLACK","description":"phone rang"}})");
  EXPECT_EQ(
      command_of({"promote", "b1", "n"}),
      R"({"commandId":0,"boardId":"b1","token":"","promotionChoice":{"piece":"PROMOTION_PIECE_KNIGHT"}})");
  EXPECT_EQ(
      command_of({"restore", "b1", "8/8/8/8/8/8/8/K1k5", "w", "-", "-", "0", "1"}),
      R"({"commandId":0,"boardId":"b1","token":"","restorePosition":{"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1"}})");
  EXPECT_EQ(command_of({"recalibrate", "b1"}),
            R"({"commandId":0,"boardId":"b1","token":"","recalibrate":{}})");
}

TEST(CtlArgs, NewGameWithPlayersTagsAndSetUp) {
  EXPECT_EQ(
      command_of({"new-game", "b1", "--white", "Carlsen, Magnus", "--black=Ding, Liren", "--tag",
                  "Event=Test", "--rules", "fide-blitz", "--clock", "180+2", "--param",
                  "auto_apply_penalties=true", "--white-side", "right"}),
      R"({"commandId":0,"boardId":"b1","token":"","newGame":{"rules":"fide-blitz","timeControl":"180+2","params":[{"name":"auto_apply_penalties","value":"true"}],"tags":[{"name":"White","value":"Carlsen, Magnus"},{"name":"Black","value":"Ding, Liren"},{"name":"Event","value":"Test"}],"startFen":"","whiteSide":"CLOCK_SIDE_RIGHT","boardOrientation":"BOARD_ORIENTATION_UNSPECIFIED"}})");
}

TEST(CtlArgs, SetClockRunning) {
  auto none = parse({"set-clock", "b1", "60", "60", "--running", "none"});
  ASSERT_FALSE(!none) << none.error();
  ASSERT_EQ(none->commands.size(), 2u);
  EXPECT_TRUE(none->commands[1].has_pause());
  EXPECT_FALSE(none->running);
  auto black = parse({"set-clock", "b1", "60", "60", "--running", "black"});
  ASSERT_FALSE(!black) << black.error();
  EXPECT_TRUE(black->commands[1].has_resume());
  EXPECT_EQ(black->running, v1::SIDE_BLACK);
}

TEST(CtlArgs, RoundOptions) {
  auto r = parse({"round", "r3.trf", "--round", "3", "--event", "Open", "--date", "2026.03.14",
                  "--board-map", "map.csv", "--clock", "5400+30", "--force"});
  ASSERT_FALSE(!r) << r.error();
  EXPECT_EQ(r->action, Action::kRound);
  EXPECT_EQ(r->round.file, "r3.trf");
  EXPECT_EQ(r->round.options.round, 3);
  EXPECT_EQ(r->round.options.event, "Open");
  EXPECT_FALSE(r->round.options.site);
  EXPECT_EQ(r->round.options.date, "2026.03.14");
  EXPECT_EQ(r->round.options.board_map, "map.csv");
  EXPECT_EQ(r->round.clock, "5400+30");
  EXPECT_TRUE(r->round.force);
}

TEST(CtlArgs, BadArgumentsSayWhat) {
  EXPECT_EQ(error_of({}), "no subcommand (eboard-ctl --help)");
  EXPECT_EQ(error_of({"frobnicate"}), "unknown subcommand 'frobnicate' (eboard-ctl --help)");
  EXPECT_EQ(error_of({"--colour", "x", "status"}), "unknown option --colour (eboard-ctl --help)");
  EXPECT_EQ(error_of({"--format", "xml", "status"}), "--format: 'xml' is not text or json");
  EXPECT_EQ(error_of({"accept", "b1"}),
            "accept: expected accept BOARD SEQ (eboard-ctl accept --help)");
  EXPECT_EQ(error_of({"accept", "b1", "x"}),
            "accept: SEQ: 'x' is not an event seq (a number from 1)");
  EXPECT_EQ(error_of({"add-time", "b1", "blue", "5"}),
            "add-time: SIDE: 'blue' is not white or black");
  EXPECT_EQ(error_of({"add-time", "b1", "white", "5m"}),
            "add-time: SECONDS: '5m' is not a number of seconds (at most 100 hours)");
  EXPECT_EQ(error_of({"set-clock", "b1", "-5", "5"}),
            "set-clock: WHITE_SECONDS: '-5' is not a number of seconds from 0 (at most 100 hours)");
  EXPECT_EQ(error_of({"result", "b1", "2-0"}),
            "result: RESULT: '2-0' is not 1-0, 0-1, 1/2-1/2, *, +/-, -/+ or =/=");
  EXPECT_EQ(error_of({"claim", "b1", "white", "boredom"}),
            "claim: KIND: 'boredom' is not illegal-move, threefold, fifty, flag, qpf, setup, "
            "orientation or clock-setting");
  EXPECT_EQ(error_of({"claim", "b1", "white", "flag", "e2e4"}),
            "claim: MOVE: only a threefold or fifty claim names the intended move");
  EXPECT_EQ(error_of({"claim", "b1", "white", "fifty", "e2e9"}),
            "claim: MOVE: 'e2e9' is not a move in UCI form (e2e4, e7e8q)");
  EXPECT_EQ(error_of({"promote", "b1", "k"}), "promote: PIECE: 'k' is not q, r, b or n");
  EXPECT_EQ(error_of({"new-game", "b1", "--rules", "fide-bullet"}).substr(0, 17),
            "new-game: --rules");
  EXPECT_EQ(error_of({"new-game", "b1", "--clock", "3 min"}).substr(0, 17), "new-game: --clock");
  EXPECT_EQ(error_of({"new-game", "b1", "--fen", "8/8/8"}).substr(0, 15), "new-game: --fen");
  EXPECT_EQ(error_of({"new-game", "b1", "--tag", "White Name=x"}),
            "new-game: --tag 'White Name=x': expected NAME=VALUE, NAME of letters, digits and '_'");
  EXPECT_EQ(error_of({"new-game", "b1", "--white", "A", "--tag", "White=B"}),
            "new-game: --tag 'White=B': tag White given twice");
  EXPECT_EQ(error_of({"new-game", "b1", "--colour"}), "new-game: unknown option --colour");
  EXPECT_EQ(error_of({"new-game", "b1", "--white"}), "new-game: --white needs a value");
  EXPECT_EQ(error_of({"pause", "b 1"}),
            "pause: BOARD: 'b 1' is not a board name (1 to 32 letters, digits, '-' or '_')");
  EXPECT_EQ(error_of({"round", "r.csv", "--round", "0"}),
            "round: --round: '0' is not a round number from 1 to 999");
  EXPECT_EQ(error_of({"round", "r.csv", "--date", "14.3.2026"}),
            "round: --date: '14.3.2026' is not a PGN date YYYY.MM.DD");
  EXPECT_EQ(error_of({"set-clock", "b1", "1", "1", "--running", "both"}),
            "set-clock: --running: 'both' is not white, black or none");
}

TEST(CtlArgs, Version) {
  const auto version = parse({"--version"});
  ASSERT_FALSE(!version);
  EXPECT_EQ(version->action, Action::kHelp);
  EXPECT_EQ(version->help.rfind("eboard-ctl ", 0), 0u);
}

TEST(CtlArgs, HelpForEverySubcommand) {
  const auto general = parse({"--help"});
  ASSERT_FALSE(!general);
  EXPECT_EQ(general->action, Action::kHelp);
  for (const char* sub : {"status", "proposals", "accept", "reject", "new-game", "round", "result",
                          "add-time", "pause", "resume", "set-clock", "claim", "resign", "draw",
                          "two-hands", "infraction", "promote", "restore", "recalibrate"}) {
    EXPECT_NE(general->help.find(std::string("  ") + sub), std::string::npos) << sub;
    const auto help = parse({sub, "--help"});
    ASSERT_FALSE(!help) << sub;
    EXPECT_EQ(help->action, Action::kHelp) << sub;
    EXPECT_EQ(help->help.rfind(std::string("usage: eboard-ctl [GLOBAL OPTIONS] ") + sub, 0), 0u)
        << help->help;
  }
}

}  // namespace
}  // namespace eboard::daemon::ctl
