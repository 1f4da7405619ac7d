// Golden files (style.md "Tests"): tests/golden/recognize/NAME.ebs is a sensor script,
// NAME.jsonl the event lines eboard-replay must print for it. Each script runs twice: in
// process through the replay session, and through the real eboard-replay program.
// Nothing in a replay is volatile (time comes from the script), so lines are compared
// whole. EBOARD_UPDATE_GOLDEN=1 rewrites the .jsonl files (a reviewed change).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/event_mapping.h"
#include "daemon/programs/eboard_replay/replay_session.h"
#include "eboard/v1/json.h"
#include "simulators/script/script_reader.h"

namespace eboard {
namespace {

const std::filesystem::path kGoldenDir = std::filesystem::path(EBOARD_SOURCE_DIR) / "tests/golden/recognize";

std::vector<std::filesystem::path> golden_scripts() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(kGoldenDir))
    if (e.path().extension() == ".ebs") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string replay_in_process(const std::filesystem::path& script_path) {
  const script::ScriptFile file = script::read_script_file(script_path.string());
  EXPECT_TRUE(file.ok()) << file.error;
  daemon::ReplaySession session({});
  engine::GameEvents events;
  daemon::EventEnvelope envelope;
  std::string out;
  const auto print = [&] {
    for (const auto& e : events) {
      envelope.board_id = session.board_id();
      envelope.rules = session.tracker() ? session.tracker()->rules().name : "";
      ++envelope.seq;
      out += proto::to_json_line(daemon::to_proto(e, envelope)) + "\n";
    }
    events.clear();
  };
  for (const auto& s : file.statements) {
    const auto error = session.feed(s, events);
    EXPECT_FALSE(error) << script_path << ":" << s.line << ": " << error.value_or("");
    print();
  }
  session.finish(events);
  print();
  return out;
}

std::string replay_program(const std::filesystem::path& script_path) {
  const std::string command = std::string(EBOARD_BIN_DIR) + "/eboard-replay " + script_path.string();
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return "popen failed";
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
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

TEST(ReplayGolden, MalformedScriptExitsWithTwoAndNamesTheLine) {
  const auto path = std::filesystem::temp_directory_path() / "eboard_replay_bad.ebs";
  std::ofstream(path) << "start startpos\n0.0 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n1.0 lift z9\n";
  const std::string command = std::string(EBOARD_BIN_DIR) + "/eboard-replay " + path.string() + " 2>&1";
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
