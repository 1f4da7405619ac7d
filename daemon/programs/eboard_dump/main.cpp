// eboard-dump DRIVER:DEVICE[,KEY=VALUE...] [--seconds N]  (interfaces.md §2)
#include <cstdlib>
#include <iostream>
#include <string>

#include "daemon/programs/eboard_dump/dump_session.h"
#include "eboard/version.h"

namespace {
constexpr const char* kUsage =
    "usage: eboard-dump DRIVER:DEVICE[,KEY=VALUE...] [--seconds N]\n"
    "Opens one board (e.g. dgt:/dev/ttyACM0, dgt:auto,serial=24680, dgt:/dev/ttyACM0,white=right)\n"
    "the way eboardd does, prints its identity on stderr and what it reports as sensor-script\n"
    "lines on stdout (seconds since start). Reconnects when the device goes away.\n"
    "  --seconds N  stop after N seconds\n"
    "  --version    print the version and exit\n";
}

int main(int argc, char** argv) {
  eboard::daemon::DumpOptions options;
  std::string spec_text;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--version") {
      std::cout << "eboard-dump " << eboard::kVersion << "\n";
      return 0;
    }
    if (arg == "--seconds") {
      char* end = nullptr;
      const double seconds = i + 1 < argc ? std::strtod(argv[i + 1], &end) : -1;
      if (i + 1 >= argc || end == argv[i + 1] || *end != '\0' || seconds <= 0) {
        std::cerr << "eboard-dump: --seconds needs a positive number\n";
        return 2;
      }
      options.duration = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
      ++i;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "eboard-dump: unknown option '" << arg << "'\n";
      return 2;
    } else if (spec_text.empty()) {
      spec_text = arg;
    } else {
      std::cerr << "eboard-dump: only one device\n";
      return 2;
    }
  }
  if (spec_text.empty()) {
    std::cerr << "eboard-dump: a device is needed (e.g. dgt:/dev/ttyACM0)\n";
    return 2;
  }
  auto parsed = eboard::drivers::parse_board_spec(spec_text);
  if (auto* error = std::get_if<eboard::drivers::SpecError>(&parsed)) {
    std::cerr << "eboard-dump: " << error->message << "\n";
    return 2;
  }
  options.spec = std::get<eboard::drivers::BoardSpec>(parsed);
  if (options.spec.driver != "dgt") {
    std::cerr << "eboard-dump: unknown driver '" << options.spec.driver << "' (known: dgt)\n";
    return 2;
  }
  return eboard::daemon::run_dump(options, std::cout, std::cerr);
}
