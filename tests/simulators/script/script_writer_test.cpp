#include "simulators/script/script_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "simulators/script/script_reader.h"

namespace eboard::script {
namespace {

// Every statement kind: reading the written text gives the same text back.
TEST(ScriptWriter, RoundTripsEveryStatementKind) {
  const std::string text =
      "board b1\n"
      "rules fide-blitz\n"
      "clock 40/5400+30:1800+30\n"
      "start fen 8/8/8/8/8/8/8/K6k w - - 0 1\n"
      "tag White \"Carlsen, Magnus\"\n"
      "tag Round 3\n"
      "param increment_credit press_only\n"
      "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
      "0.000 placement ?\?\?\?\?\?\?\?/8/8/8/3?4/8/8/K6k\n"
      "1.200 lift e2\n"
      "1.650 put e4 P\n"
      "1.700 put d5 2\n"
      "1.800 put d4 ?\n"
      "2.100 lever white\n"
      "2.300 clocktime 178.9 180.0\n"
      "2.400 clocktime 0.125 3.0 12 11\n"
      "40.000 claim black illegal-move\n"
      "40.000 claim white threefold g1f3\n"
      "40.000 resign white\n"
      "40.000 draw-agreed\n"
      "40.000 pause\n"
      "40.000 resume\n"
      "40.000 arbiter add-time black 60.0\n"
      "40.000 arbiter add-time white -2.5\n"
      "40.000 arbiter two-hands white\n"
      "40.000 arbiter ruling accept\n"
      "40.000 arbiter ruling reject 12\n"
      "40.000 arbiter infraction black\n"
      "40.000 promote b\n"
      "95.000 flag both\n";
  std::istringstream in(text);
  const ScriptFile file = read_script(in, "t");
  ASSERT_TRUE(file.ok()) << file.error;
  std::ostringstream out;
  for (const Statement& s : file.statements) write_statement(out, s);
  EXPECT_EQ(out.str(), text);
}

TEST(ScriptWriter, FormatsSeconds) {
  EXPECT_EQ(format_seconds(Millis(178900)), "178.9");
  EXPECT_EQ(format_seconds(Millis(180000)), "180.0");
  EXPECT_EQ(format_seconds(Millis(125)), "0.125");
  EXPECT_EQ(format_seconds(Millis(0)), "0.0");
}

TEST(ScriptWriter, QuotesTagValuesThatNeedIt) {
  Statement s{0, std::nullopt, Tag{"Event", "a \"b\" # c\\"}};
  const std::string line = format_statement(s);
  EXPECT_EQ(line, R"(tag Event "a \"b\" # c\\")");
  LineResult back = parse_line(line);
  ASSERT_TRUE(std::holds_alternative<Statement>(back));
  EXPECT_EQ(std::get<Tag>(std::get<Statement>(back).body).value, "a \"b\" # c\\");
  EXPECT_EQ(format_statement(Statement{0, std::nullopt, Tag{"Event", ""}}), "tag Event \"\"");
}

}  // namespace
}  // namespace eboard::script
