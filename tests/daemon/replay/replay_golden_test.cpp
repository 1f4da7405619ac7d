// Golden files (style.md "Tests"): tests/golden/recognize/NAME.ebs is a sensor script,
// NAME.jsonl the event lines eboard-replay must print for it. Each script runs twice: in
// process through the replay session, and through the real eboard-replay program.
// Nothing in a replay is volatile (time comes from the script), so lines are compared
// whole. EBOARD_UPDATE_GOLDEN=1 rewrites the .jsonl files (a reviewed change).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/daemon/golden_runner.h"

namespace eboard {
namespace {

using golden::replay_in_process;
using golden::replay_program;
using golden::slurp;

const std::filesystem::path kGoldenDir =
    std::filesystem::path(EBOARD_SOURCE_DIR) / "tests/golden/recognize";

std::vector<std::filesystem::path> golden_scripts() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(kGoldenDir))
    if (e.path().extension() == ".ebs") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ReplayGolden, EveryScriptPrintsItsExpectedEvents) {
  const auto scripts = golden_scripts();
  ASSERT_FALSE(scripts.empty());
  const bool update = std::getenv("EBOARD_UPDATE_GOLDEN") != nullptr;
  for (const auto& script_path : scripts) {
    SCOPED_TRACE(script_path.filename().string());
    auto expected_path = script_path;
    expected_path.replace_extension(".jsonl");
    const std::string actual = replay_in_process(script_path);
    if (update) std::ofstream(expected_path, std::ios::binary) << actual;
    EXPECT_EQ(actual, slurp(expected_path));
    EXPECT_EQ(replay_program(script_path), actual);
  }
}

// docs/rules.md D5: an illegal move that stood (scenario 68, fide-blitz: the pawn
// left on e8 unpromoted) cannot be written in SAN. The record ends with a comment naming
// it, and a second record with the same tags plus SetUp/FEN of the position after it
// carries the game on.
TEST(ReplayGolden, PgnOutWritesAnIllegalMoveThatStoodAsANewRecord) {
  const auto script = std::filesystem::path(EBOARD_SOURCE_DIR) /
                      "tests/golden/rules/68_blitz_illegal_position_draw.ebs";
  const auto pgn_path = std::filesystem::temp_directory_path() / "eboard_replay_stood.pgn";
  std::filesystem::remove(pgn_path);
  const std::string command = testing_support::program_command("eboard-replay") + " --pgn-out " +
                              pgn_path.string() + " " + script.string() + " > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  // The second record's FEN has the pawn on e8, which the PGN reader (strict FEN) refuses:
  // the text is checked as text.
  const std::string text = slurp(pgn_path);
  const std::size_t second = text.find("[Event ", 1);
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_EQ(text.find("[Event ", second + 1), std::string::npos) << text;  // two records
  const std::string first_record = text.substr(0, second);
  const std::string second_record = text.substr(second);
  EXPECT_NE(first_record.find("{White's illegal move e7e8 stands on the board"), std::string::npos)
      << text;
  EXPECT_NE(first_record.find("} *\n"), std::string::npos) << text;  // no result: the game goes on
  EXPECT_NE(first_record.find("[TimeControl \"180+2\"]"), std::string::npos) << text;
  EXPECT_NE(second_record.find("[TimeControl \"180+2\"]"), std::string::npos) << text;
  EXPECT_NE(second_record.find("[SetUp \"1\"]"), std::string::npos) << text;
  EXPECT_NE(second_record.find("[FEN \"4P3/8/8/8/8/k7/8/4K3 b - - 0 50\"]"), std::string::npos)
      << text;
  EXPECT_NE(second_record.find("50... Ka4 {[%clk 0:03:03]}"), std::string::npos) << text;
}

TEST(ReplayGolden, MalformedScriptExitsWithTwoAndNamesTheLine) {
  const auto path = std::filesystem::temp_directory_path() / "eboard_replay_bad.ebs";
  std::ofstream(path)
      << "start startpos\n0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n1.0 lift z9\n";
  const std::string command =
      testing_support::program_command("eboard-replay") + " " + path.string() + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(out.find(path.string() + ":3:"), std::string::npos) << out;
}

}  // namespace
}  // namespace eboard
