// eboard-replay [--rules NAME] [--clock TC] [--no-clock] [--pgn-out FILE] [--raw] SCRIPT
// (docs/interfaces.md §2): a sensor script through the engine offline, one JSON event a line.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "daemon/event_mapping.h"
#include "daemon/programs/eboard_replay/replay_output.h"
#include "daemon/programs/eboard_replay/replay_session.h"
#include "eboard/v1/json.h"
#include "eboard/version.h"
#include "engine/game/pgn_recorder.h"
#include "simulators/script/script_reader.h"

namespace {

using eboard::daemon::ReplayOptions;
using eboard::daemon::ReplaySession;

constexpr const char* kUsage =
    "usage: eboard-replay [--rules NAME] [--clock TC] [--no-clock] [--pgn-out FILE] [--raw]\n"
    "                     SCRIPT\n"
    "Runs a sensor script ('-' for standard input) through the engine and prints one JSON\n"
    "event a line. --rules/--clock override the script's header; --no-clock plays it as a\n"
    "board without a clock (moves complete when the opponent begins or after a settle time;\n"
    "its lever, clocktime and flag lines are ignored); --pgn-out writes the game as PGN with\n"
    "clock comments; --raw also prints each sensor change (squareChanged).\n"
    "--version prints the version.\n";

int usage_error(const std::string& message) {
  std::cerr << "eboard-replay: " << message << "\n";
  return 2;
}

// The game as PGN (docs/interfaces.md §5): the records the live broadcast writes too
// (engine/game/pgn_recorder.h: an illegal move that stood ends a record, docs/rules.md D5).
bool write_pgn_file(const std::string& path, const eboard::engine::PgnRecorder& pgn) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << pgn.text();
  out.flush();
  if (!out) {
    std::cerr << "eboard-replay: " << path << ": cannot write\n";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  ReplayOptions options;
  std::string pgn_out;
  std::string script_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--version") {
      std::cout << "eboard-replay " << eboard::kVersion << "\n";
      return 0;
    }
    const bool takes_value = arg == "--rules" || arg == "--clock" || arg == "--pgn-out";
    if (takes_value && i + 1 >= argc) return usage_error("option '" + arg + "' needs a value");
    if (arg == "--rules")
      options.rules = argv[++i];
    else if (arg == "--clock")
      options.clock = argv[++i];
    else if (arg == "--pgn-out")
      pgn_out = argv[++i];
    else if (arg == "--raw")
      options.raw = true;
    else if (arg == "--no-clock")
      options.clock_presence = eboard::engine::ClockPresence::kNone;
    else if (arg.size() > 1 && arg[0] == '-')
      return usage_error("unknown option '" + arg + "' (see --help)");
    else if (!script_path.empty())
      return usage_error("only one SCRIPT may be given");
    else
      script_path = arg;
  }
  if (script_path.empty()) return usage_error("a SCRIPT is needed (see --help)");

  std::ifstream file;
  if (script_path != "-") {
    std::error_code ignored;
    if (std::filesystem::is_directory(script_path, ignored)) {
      return usage_error(script_path + ": is a directory");
    }
    file.open(script_path);
    if (!file) return usage_error(script_path + ": cannot open");
  }
  std::istream& in = script_path == "-" ? std::cin : file;
  eboard::script::Reader reader(in, script_path);
  ReplaySession session(options);
  eboard::engine::GameEvents events;
  eboard::daemon::EventNumbering numbering;
  eboard::engine::PgnRecorder pgn;
  const auto print = [&]() {
    eboard::daemon::publish_replayed(
        session, events, numbering,
        [&](const eboard::v1::Event& event, const eboard::engine::GameEvent* from) {
          if (from) pgn.apply(*from);
          std::cout << eboard::proto::to_json_line(event) << "\n";
        });
  };
  eboard::script::Statement statement;
  while (reader.next(statement)) {
    if (auto error = session.feed(statement, events)) {
      print();
      std::cout.flush();
      std::cerr << script_path << ":" << statement.line << ": " << *error << "\n";
      return 2;
    }
    print();
  }
  if (!reader.error().empty()) {
    std::cout.flush();
    std::cerr << reader.error() << "\n";
    return 2;
  }
  session.finish(events);
  print();
  std::cout.flush();
  if (!pgn_out.empty() && !write_pgn_file(pgn_out, pgn)) return 2;
  return 0;
}
