#include "simulators/script/script_header.h"

#include <gtest/gtest.h>

#include <sstream>

namespace eboard::script {
namespace {

Header header(const std::string& text) {
  std::istringstream in(text);
  const ScriptFile file = read_script(in, "t.ebs");
  EXPECT_TRUE(file.ok()) << file.error;
  return header_of(file);
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(ScriptHeader, FoldsEveryHeaderLine) {
  const Header h = header(
      "board b7\n"
      "rules fide-rapid\n"
      "clock 900+10\n"
      "start fen 8/8/8/8/8/8/8/K6k w - - 0 1\n"
      "tag White \"Carlsen, Magnus\"\n"
      "tag Black \"Ding, Liren\"\n"
      "param illegal_move.ladder 60,loss\n"
      "0 lift e2\n");
  EXPECT_EQ(h.board_id, "b7");
  EXPECT_EQ(h.rules, "fide-rapid");
  EXPECT_EQ(h.clock, "900+10");
  EXPECT_EQ(h.start_fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
  EXPECT_EQ(h.tags, (Pairs{{"White", "Carlsen, Magnus"}, {"Black", "Ding, Liren"}}));
  EXPECT_EQ(h.params, (Pairs{{"illegal_move.ladder", "60,loss"}}));
}

// What a header leaves unsaid stays empty, for the caller's default; the standard start
// position is "" as a FEN.
TEST(ScriptHeader, SaysNothingOfWhatItDoesNotName) {
  const Header h = header("start startpos\n0 lift e2\n");
  EXPECT_EQ(h.board_id, "");
  EXPECT_EQ(h.rules, "");
  EXPECT_EQ(h.clock, "");
  EXPECT_EQ(h.start, "startpos");
  EXPECT_EQ(h.start_fen(), "");
  EXPECT_TRUE(h.tags.empty());
  EXPECT_TRUE(h.params.empty());
}

TEST(ScriptHeader, ALaterLineOfAKindReplacesAnEarlierOne) {
  const Header h = header("clock 300+2\nrules fide-blitz\nclock 180+2\n");
  EXPECT_EQ(h.clock, "180+2");
  EXPECT_EQ(h.rules, "fide-blitz");
}

// Lines that are not header lines do not change it.
TEST(ScriptHeader, OtherBodiesAreLeftAlone) {
  Header h;
  h.add(Lift{12});
  h.add(Lever{Side::kBlack});
  EXPECT_EQ(h.rules, "");
  EXPECT_EQ(h.start, "startpos");
  h.add(RulesName{"fide-standard"});
  EXPECT_EQ(h.rules, "fide-standard");
}

}  // namespace
}  // namespace eboard::script
