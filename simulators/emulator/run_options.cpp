#include "simulators/emulator/run_options.h"

#include <cstdlib>

namespace eboard::sim {
namespace {

bool parse_number(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0' && out >= 0;
}

}  // namespace

std::string parse_run_options(int argc, char** argv, RunOptions& o, std::string& script,
                              const OwnOption& own) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string error;
    if (const int taken = own ? own(argc, argv, i, error) : 0; taken != 0) {
      if (taken < 0) return error;
      i += taken - 1;
      continue;
    }
    double number = 0;
    const auto value = [&](double& out) {
      if (i + 1 >= argc || !parse_number(argv[i + 1], out)) return false;
      ++i;
      return true;
    };
    if (arg == "--speed") {
      if (!value(o.speed)) return "--speed needs a number >= 0";
    } else if (arg == "--garbage" || arg == "--drop") {
      if (!value(number) || number < 1) return arg + " needs a count >= 1";
      (arg == "--garbage" ? o.faults.garbage_every : o.faults.drop_every) =
          static_cast<int>(number);
    } else if (arg == "--split") {
      o.split = true;
    } else if (arg == "--delay") {
      if (!value(number)) return "--delay needs milliseconds";
      o.delay = std::chrono::milliseconds(static_cast<long>(number));
    } else if (arg == "--hangup-at") {
      if (!value(number)) return "--hangup-at needs seconds";
      o.hangup_at = script::Millis(static_cast<long>(number * 1000));
    } else if (arg == "--hangup-for") {
      if (!value(o.hangup_seconds)) return "--hangup-for needs seconds";
    } else if (arg == "--seed") {
      if (!value(number)) return "--seed needs a number";
      o.faults.seed = static_cast<std::uint32_t>(number);
    } else if (arg == "--linger") {
      double seconds = 0;
      if (!value(seconds)) return "--linger needs seconds";
      o.linger_seconds = seconds;
    } else if (arg == "--verbose") {
      o.verbose = true;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return "unknown option '" + arg + "'";
    } else if (script.empty()) {
      script = arg;
    } else {
      return "only one SCRIPT";
    }
  }
  if (script.empty()) return "a SCRIPT is required";
  return "";
}

std::vector<script::Statement> timed_sensor_lines(const script::ScriptFile& file) {
  std::vector<script::Statement> timed;
  for (const auto& s : file.statements) {
    if (s.at && script::is_sensor(s.body)) timed.push_back(s);
  }
  return timed;
}

script::Placement header_placement(const script::ScriptFile& file) {
  for (const auto& s : file.statements) {
    if (const auto* start = std::get_if<script::Start>(&s.body)) {
      if (start->fen == "startpos") return script::start_placement();
      if (const auto p = script::parse_placement(start->fen.substr(0, start->fen.find(' '))))
        return *p;
    }
  }
  return script::start_placement();
}

}  // namespace eboard::sim
