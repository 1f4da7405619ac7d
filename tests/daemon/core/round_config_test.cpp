// eboardd --round-file (docs/interfaces.md §6.2): the round is read, checked and put on the
// configured boards while the options are parsed, so a bad file stops the start with one
// line and no board is touched.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "daemon/core/config.h"

namespace eboard::daemon {
namespace {

Result<ParsedConfig> parse(std::vector<std::string> args) {
  args.insert(args.begin(),
              {"eboardd", "--board", "b1=dgt:/dev/ttyACM0", "--board", "b2=dgt:/dev/ttyACM1"});
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_config(static_cast<int>(argv.size()), argv.data());
}

std::string round_csv(const std::string& text) {
  const std::string path = testing::TempDir() + "round.csv";
  std::ofstream(path) << text;
  return path;
}

TEST(RoundConfig, EachBoardGetsItsPairingsTags) {
  const std::string file = round_csv("board,white,black,eboard\n1,A,B,b2\n2,C,D,b1\n3,E,F,\n");
  auto parsed =
      parse({"--round-file", file, "--round", "4", "--event", "Club", "--date", "2026.05.01"});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const auto& tags = parsed->config.round_tags;
  ASSERT_EQ(tags.size(), 2u);
  const std::vector<std::pair<std::string, std::string>> b2 = {
      {"Event", "Club"}, {"Date", "2026.05.01"}, {"Round", "4.1"},
      {"Board", "1"},    {"White", "A"},         {"Black", "B"}};
  EXPECT_EQ(tags.at("b2"), b2);
  EXPECT_EQ(tags.at("b1").at(2).second, "4.2");
  ASSERT_EQ(parsed->config.round_log.size(), 2u);
  EXPECT_EQ(parsed->config.round_log[0], "board b2: round 4 board 1: A - B");
}

TEST(RoundConfig, MistakesAreOneLine) {
  auto unknown =
      parse({"--round-file", round_csv("board,white,black,eboard\n1,A,B,b7\n"), "--round", "1"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error(), "--round-file: " + testing::TempDir() +
                                 "round.csv:2: eboard 'b7' is not a board of the daemon (its "
                                 "boards: b1, b2)");
  auto alone = parse({"--round", "1"});
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.error(), "--round needs --round-file");
  auto date = parse({"--round-file", round_csv("board,white,black\n1,A,B\n"), "--round", "1",
                     "--date", "1.5.2026"});
  ASSERT_FALSE(date.ok());
  EXPECT_EQ(date.error(), "--round-file: --date: '1.5.2026' is not a PGN date YYYY.MM.DD");
}

}  // namespace
}  // namespace eboard::daemon
