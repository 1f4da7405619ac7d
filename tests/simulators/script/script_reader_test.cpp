#include "simulators/script/script_reader.h"

#include <gtest/gtest.h>

#include <sstream>

namespace eboard::script {
namespace {

ScriptFile read(const std::string& text) {
  std::istringstream in(text);
  return read_script(in, "t.ebs");
}

Statement one(const std::string& line) {
  LineResult result = parse_line(line);
  EXPECT_TRUE(std::holds_alternative<Statement>(result))
      << line << " -> "
      << (std::holds_alternative<LineError>(result) ? std::get<LineError>(result).message : "");
  return std::holds_alternative<Statement>(result) ? std::get<Statement>(result) : Statement{};
}

std::string error_of(const std::string& line) {
  LineResult result = parse_line(line);
  return std::holds_alternative<LineError>(result) ? std::get<LineError>(result).message : "";
}

TEST(ScriptReader, HowLongAScriptPlaysIsItsLastTimedStatement) {
  EXPECT_EQ(last_statement_time(read("board b1\n")), Millis{0});
  // Untimed lines (the header, operator lines without a time) do not count.
  EXPECT_EQ(last_statement_time(
                read("board b1\nclock 180+2\n0.000 placement 8/8/8/8/8/8/4P3/4K2k\n1.500 lift e2\n"
                     "2.250 put e4 P\n2.750 lever white\n")),
            Millis{2750});
}

TEST(ScriptReader, ReadsTheInterfacesExample) {
  const ScriptFile file = read(
      "board b1                      # board id\n"
      "rules fide-blitz\n"
      "clock 180+2\n"
      "start startpos\n"
      "tag White \"Carlsen, Magnus\"\n"
      "param illegal_move.ladder 60,loss\n"
      "\n"
      "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
      "1.200 lift e2\n"
      "1.650 put e4 P\n"
      "2.100 lever white\n"
      "2.300 clocktime 178.9 180.0\n"
      "95.00 flag white\n");
  ASSERT_TRUE(file.ok()) << file.error;
  ASSERT_EQ(file.statements.size(), 12u);
  EXPECT_EQ(std::get<BoardId>(file.statements[0].body).id, "b1");
  EXPECT_EQ(std::get<RulesName>(file.statements[1].body).name, "fide-blitz");
  EXPECT_EQ(std::get<TimeControl>(file.statements[2].body).text, "180+2");
  EXPECT_EQ(std::get<Start>(file.statements[3].body).fen, "startpos");
  EXPECT_EQ(std::get<Tag>(file.statements[4].body).value, "Carlsen, Magnus");
  EXPECT_EQ(std::get<Param>(file.statements[5].body).value, "60,loss");
  const auto& placement = std::get<Placement>(file.statements[6].body);
  EXPECT_EQ(placement.squares[0], 'R');
  EXPECT_EQ(placement.squares[60], 'k');
  EXPECT_EQ(placement.squares[28], kEmptySquare);
  EXPECT_EQ(file.statements[6].line, 8);
  EXPECT_EQ(std::get<Lift>(file.statements[7].body).square, 12);
  EXPECT_EQ(*file.statements[7].at, Millis(1200));
  const auto& put = std::get<Put>(file.statements[8].body);
  EXPECT_EQ(put.square, 28);
  EXPECT_EQ(put.piece, 'P');
  EXPECT_EQ(std::get<Lever>(file.statements[9].body).side, Side::kWhite);
  const auto& clock = std::get<ClockTime>(file.statements[10].body);
  EXPECT_EQ(clock.white, Millis(178900));
  EXPECT_EQ(clock.black, Millis(180000));
  EXPECT_FALSE(clock.white_moves);
  EXPECT_EQ(std::get<Flag>(file.statements[11].body).side, FlagSide::kWhite);
  EXPECT_EQ(*file.statements[11].at, Millis(95000));
}

TEST(ScriptReader, ParsesOperatorLines) {
  auto claim = std::get<Claim>(one("40.0 claim black illegal-move").body);
  EXPECT_EQ(claim.side, Side::kBlack);
  EXPECT_EQ(claim.kind, ClaimKind::kIllegalMove);
  claim = std::get<Claim>(one("40.0 claim white threefold g1f3").body);
  EXPECT_EQ(claim.kind, ClaimKind::kThreefold);
  EXPECT_EQ(claim.uci, "g1f3");
  EXPECT_EQ(std::get<Claim>(one("1 claim black setup").body).kind, ClaimKind::kSetup);
  EXPECT_EQ(std::get<Claim>(one("1 claim black orientation").body).kind, ClaimKind::kOrientation);
  EXPECT_EQ(std::get<Claim>(one("1 claim white clock-setting").body).kind,
            ClaimKind::kClockSetting);
  EXPECT_EQ(std::get<Claim>(one("1 claim white qpf").body).kind, ClaimKind::kQpf);
  EXPECT_EQ(std::get<Claim>(one("1 claim white fifty e7e8q").body).uci, "e7e8q");
  EXPECT_EQ(std::get<Claim>(one("1 claim white flag").body).kind, ClaimKind::kFlag);
  EXPECT_EQ(std::get<Resign>(one("40.0 resign white").body).side, Side::kWhite);
  EXPECT_TRUE(std::holds_alternative<DrawAgreed>(one("40 draw-agreed").body));
  EXPECT_TRUE(std::holds_alternative<Pause>(one("40 pause").body));
  EXPECT_TRUE(std::holds_alternative<Resume>(one("41 resume").body));
  const auto add = std::get<AddTime>(one("40.0 arbiter add-time black 60").body);
  EXPECT_EQ(add.side, Side::kBlack);
  EXPECT_EQ(add.amount, Millis(60000));
  EXPECT_EQ(std::get<AddTime>(one("40 arbiter add-time white -2.5").body).amount, Millis(-2500));
  EXPECT_EQ(std::get<TwoHands>(one("40 arbiter two-hands white").body).side, Side::kWhite);
  auto ruling = std::get<Ruling>(one("40 arbiter ruling accept").body);
  EXPECT_EQ(ruling.kind, RulingKind::kAccept);
  EXPECT_FALSE(ruling.seq);
  ruling = std::get<Ruling>(one("40 arbiter ruling reject 17").body);
  EXPECT_EQ(ruling.kind, RulingKind::kReject);
  EXPECT_EQ(*ruling.seq, 17u);
  EXPECT_EQ(std::get<Infraction>(one("40 arbiter infraction white").body).side, Side::kWhite);
  EXPECT_EQ(std::get<Flag>(one("40.0 flag both").body).side, FlagSide::kBoth);
  EXPECT_EQ(std::get<Promote>(one("40 promote n").body).piece, 'n');
  EXPECT_EQ(std::get<Promote>(one("40 promote q").body).piece, 'q');
  EXPECT_FALSE(is_sensor(one("40 promote r").body));  // not board data: emulators skip it
}

TEST(ScriptReader, ParsesSensorVariants) {
  const auto placement =
      std::get<Placement>(one("0 placement ?\?\?\?\?\?\?\?/8/8/8/8/8/8/4K2?").body);
  EXPECT_EQ(placement.squares[56], '?');
  EXPECT_EQ(placement.squares[4], 'K');
  EXPECT_EQ(placement.squares[7], '?');
  EXPECT_EQ(std::get<Put>(one("3 put d4 ?").body).piece, '?');
  EXPECT_EQ(std::get<Put>(one("3 put d4 1").body).piece, '1');
  EXPECT_EQ(std::get<Put>(one("3 put e5 3").body).piece, '3');
  const auto clock = std::get<ClockTime>(one("2.3 clocktime 0.5 7 12 11").body);
  EXPECT_EQ(clock.white, Millis(500));
  EXPECT_EQ(*clock.white_moves, 12);
  EXPECT_EQ(*clock.black_moves, 11);
  EXPECT_EQ(*one("0.0005 lift a1").at, Millis(1));  // rounded to the millisecond
  const auto start = std::get<Start>(one("start fen 8/8/8/8/8/8/8/K6k w - - 0 1").body);
  EXPECT_EQ(start.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(std::get<Start>(one("start fen 8/8/8/8/8/8/8/K6k b").body).fen, "8/8/8/8/8/8/8/K6k b");
  EXPECT_EQ(std::get<Tag>(one(R"(tag Event "a \"quoted\" # not a comment")").body).value,
            "a \"quoted\" # not a comment");
}

TEST(ScriptReader, RejectsBadLines) {
  EXPECT_EQ(error_of("1.2 lift e9"), "bad square 'e9'");
  EXPECT_EQ(error_of("1.2 put e4 X"), "bad piece 'X'");
  EXPECT_EQ(error_of("1.2 put e4"), "'put' takes a square and a piece");
  EXPECT_EQ(error_of("1.2 lever left"), "expected white or black, got 'left'");
  EXPECT_EQ(error_of("lift e2"), "'lift' needs a time first");
  EXPECT_EQ(error_of("3 board b1"), "'board' is a header line and takes no time");
  EXPECT_EQ(error_of("1.2. lift e2"), "bad time '1.2.'");
  EXPECT_EQ(error_of("1. lift e2"), "bad time '1.'");
  EXPECT_EQ(error_of("1 hop e2"), "unknown statement 'hop'");
  EXPECT_EQ(error_of("colour white"), "unknown statement 'colour'");
  EXPECT_EQ(error_of("1 placement rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR"),
            "bad placement 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR'");
  EXPECT_EQ(error_of("1 placement 8/8/8/8/8/8/8"), "bad placement '8/8/8/8/8/8/8'");
  EXPECT_EQ(error_of("1 placement 8/8/8/8/8/8/8/7"), "bad placement '8/8/8/8/8/8/8/7'");
  EXPECT_EQ(error_of("1 claim white resign"), "unknown claim 'resign'");
  EXPECT_EQ(error_of("1 claim white flag e2e4"), "only threefold and fifty claims name a move");
  EXPECT_EQ(error_of("1 claim white threefold e2"), "bad move 'e2' (expected UCI like g1f3)");
  EXPECT_EQ(error_of("1 arbiter ruling maybe"), "'arbiter ruling' takes accept|reject [SEQ]");
  EXPECT_EQ(error_of("1 arbiter add-time white"), "'arbiter add-time' takes SIDE SECONDS");
  EXPECT_EQ(error_of("1 arbiter dance"), "unknown arbiter action 'dance'");
  EXPECT_EQ(error_of("1 clocktime 10 -3"), "bad clock time in '10 -3'");
  EXPECT_EQ(error_of("1 clocktime 10 3 1"), "'clocktime' takes W B [MW MB]");
  EXPECT_EQ(error_of("1 pause now"), "'pause' takes no arguments");
  EXPECT_EQ(error_of("tag Event \"open"), "unterminated quoted string");
  EXPECT_EQ(error_of("start fen"), "expected 'start startpos' or 'start fen <FEN>'");
  EXPECT_EQ(error_of("1.5"), "a time with no statement");
  EXPECT_EQ(error_of("1 promote"), "'promote' takes q, r, b or n");
  EXPECT_EQ(error_of("1 promote k"), "'promote' takes q, r, b or n");
  EXPECT_EQ(error_of("1 promote N"), "'promote' takes q, r, b or n");
  EXPECT_EQ(error_of("1 promote n b"), "'promote' takes q, r, b or n");
  EXPECT_EQ(error_of("promote n"), "'promote' needs a time first");
}

TEST(ScriptReader, ChecksOrderAndNamesTheLine) {
  ScriptFile file = read("board b1\n1.0 lift e2\n0.5 put e4 P\n");
  EXPECT_EQ(file.error, "t.ebs:3: time goes backwards (0.5)");
  EXPECT_EQ(file.statements.size(), 2u);
  file = read("# comment\n1.0 lift e2\nrules fide-blitz\n");
  EXPECT_EQ(file.error, "t.ebs:3: header line after timed lines");
  file = read("board b1\n\n   # x\n2 lift e2\n2 put e4 P\n");
  EXPECT_TRUE(file.ok());
  EXPECT_EQ(file.statements.back().line, 5);
  file = read("1 lift z9\n");
  EXPECT_EQ(file.error, "t.ebs:1: bad square 'z9'");
}

TEST(ScriptReader, StopsAtTheFirstError) {
  std::istringstream in("1 lift e2\n2 lift q\n3 lift e3\n");
  Reader reader(in, "-");
  Statement statement;
  EXPECT_TRUE(reader.next(statement));
  EXPECT_FALSE(reader.next(statement));
  EXPECT_EQ(reader.error(), "-:2: bad square 'q'");
  EXPECT_FALSE(reader.next(statement));
}

TEST(ScriptReader, ClassifiesStatements) {
  EXPECT_TRUE(is_header(one("board x").body));
  EXPECT_FALSE(is_sensor(one("board x").body));
  EXPECT_TRUE(is_sensor(one("1 lever black").body));
  EXPECT_FALSE(is_sensor(one("1 resign black").body));
  EXPECT_FALSE(is_header(one("1 resign black").body));
}

}  // namespace
}  // namespace eboard::script

namespace eboard::script {
namespace {
// Found by fuzz_script: a quoted tag name with a blank did not survive writing back.
TEST(ScriptReader, HeaderWordsMustBePlain) {
  EXPECT_EQ(std::get<LineError>(parse_line("tag \"a b\" c")).message, "bad word in 'tag' line");
  EXPECT_EQ(std::get<LineError>(parse_line("board \"x#\"")).message, "bad word in 'board' line");
  EXPECT_TRUE(std::holds_alternative<Statement>(parse_line("tag Event \"a b\"")));
}
}  // namespace
}  // namespace eboard::script
