// What the golden tests of tests/daemon (replay/replay_golden_test.cpp: recognizer goldens
// compared whole; rules/rules_golden_test.cpp: the docs/rules.md §4 scenarios matched against
// expectations) share: a sensor script run through eboard-replay's session in process,
// printed as eboard-replay prints it (one JSON event a line, seq from 1), and the same
// script through the real eboard-replay program.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "daemon/event_mapping.h"
#include "daemon/programs/eboard_replay/replay_output.h"
#include "daemon/programs/eboard_replay/replay_session.h"
#include "eboard/v1/json.h"
#include "simulators/script/script_reader.h"
#include "tests/program_command.h"

namespace eboard::golden {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The session numbers the events it appends (rulings name them by seq); the printed seq
// must be the same number, or a ruling in a script would name another event.
inline std::string replay_in_process(const std::filesystem::path& script_path) {
  const script::ScriptFile file = script::read_script_file(script_path.string());
  EXPECT_TRUE(file.ok()) << file.error;
  daemon::ReplaySession session({});
  engine::GameEvents events;
  daemon::EventNumbering numbering;
  std::string out;
  const auto print = [&] {
    daemon::publish_replayed(session, events, numbering,
                             [&](const eboard::v1::Event& event, const engine::GameEvent*) {
                               out += proto::to_json_line(event) + "\n";
                             });
    EXPECT_EQ(numbering.seq(), session.last_seq()) << script_path;
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

// stdout of `eboard-replay SCRIPT`; the exit status must be 0.
inline std::string replay_program(const std::filesystem::path& script_path) {
  const std::string command =
      testing_support::program_command("eboard-replay") + " " + script_path.string();
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "popen failed: " << command;
    return out;
  }
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  return out;
}

}  // namespace eboard::golden
