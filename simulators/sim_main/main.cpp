// eboard-sim: device emulators and script generation (docs/interfaces.md §2). main() only
// dispatches to the subcommand.
#include <iostream>
#include <string>

#include "eboard/version.h"
#include "simulators/sim_main/subcommands.h"

namespace {

constexpr const char* kUsage =
    "usage: eboard-sim script --pgn FILE [options]   write a sensor script for a PGN game\n"
    "       eboard-sim dgt --link PATH [options] SCRIPT   emulate a DGT board + DGT 3000\n"
    "       eboard-sim chesslink --link PATH [options] SCRIPT   a Millennium ChessLink board\n"
    "       eboard-sim certabo --link PATH [options] SCRIPT     a Certabo RFID board\n"
    "       eboard-sim chessnut --usb-bus DIR [options] SCRIPT  a Chessnut Air on the\n"
    "                                                  emulated USB bus (eboardd --usb-emulator)\n"
    "Run 'eboard-sim SUBCOMMAND --help' for the options; 'eboard-sim --version' prints the\n"
    "version.\n";

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "--help" || command == "-h") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "eboard-sim " << eboard::kVersion << "\n";
    return 0;
  }
  if (command == "dgt") return eboard::sim::run_dgt(argc - 1, argv + 1);
  if (command == "chesslink") return eboard::sim::run_chesslink(argc - 1, argv + 1);
  if (command == "certabo") return eboard::sim::run_certabo(argc - 1, argv + 1);
  if (command == "chessnut") return eboard::sim::run_chessnut(argc - 1, argv + 1);
  if (command == "script") {
    if (eboard::sim::run_script == nullptr) {
      std::cerr << "eboard-sim script: not built yet (PGN -> sensor script is not part of "
                   "this build)\n";
      return 2;
    }
    return eboard::sim::run_script(argc - 1, argv + 1);
  }
  std::cerr << (command.empty() ? std::string("eboard-sim: a subcommand is needed")
                                : "eboard-sim: unknown subcommand '" + command + "'")
            << "\n"
            << kUsage;
  return 2;
}
