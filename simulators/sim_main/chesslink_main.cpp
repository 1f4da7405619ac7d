// `eboard-sim chesslink --link PATH | --serial-bus DIR [options] SCRIPT`: a Millennium
// ChessLink board on a pseudo-terminal (chesslink_emulator.h), playing the script's sensor
// lines; linked at PATH, or plugged in as an emulated USB-serial port (serial_bus.h).
#include <iostream>

#include "simulators/chesslink/chesslink_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/emulator/run_options.h"
#include "simulators/emulator/serial_bus.h"
#include "simulators/sim_main/subcommands.h"

namespace eboard::sim {
namespace {

constexpr const char* kUsage =
    "usage: eboard-sim chesslink --link PATH | --serial-bus DIR [--serial N] [--usb-id VVVV:PPPP]\n"
    "                            [--cable usual|other] [--version MAJOR.MINOR]\n"
    "                            [--speed X] [--garbage N] [--drop N] [--split] [--delay MS]\n"
    "                            [--hangup-at SECONDS [--hangup-for SECONDS]] [--seed S]\n"
    "                            [--linger SECONDS] [--verbose] SCRIPT\n"
    "Emulates a Millennium ChessLink board (38400 7O1, docs/protocols.md §5) on a pseudo-terminal\n"
    "linked at PATH, playing the sensor script SCRIPT ('-' for standard input). --serial-bus\n"
    "plugs it in as an emulated USB-serial port in DIR instead (eboardd --serial-emulator DIR),\n"
    "with the adapter's serial number N (default 0001) and USB id (default 0403:6001).\n"
    "--cable other sends the status in the other physical order (the cable on the other\n"
    "side). --version sets the answer to V (0.x Exclusive, 1.x Performance, 2.x eONE;\n"
    "default 1.4). --speed 0 plays as fast as the host reads. Clock lines of the script are\n"
    "not board data.\n";

}  // namespace

int run_chesslink(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  RunOptions run;
  run.name = "eboard-sim chesslink";
  ChessLinkOptions board_options;
  std::string link_path;
  std::string script_path;
  // With --serial-bus: the ChessLink has no USB id of its own (docs/protocols.md §5, the
  // daemon probes every USB-serial port for it): an FTDI FT232R adapter's by default.
  SerialBus bus{"", "0001", 0x0403, 0x6001, false};
  const auto own = [&](int argc2, char** args, int i, std::string& error) -> int {
    if (const int taken = take_serial_bus_option(argc2, args, i, bus, error)) return taken;
    const std::string arg = args[i];
    if (arg != "--link" && arg != "--cable" && arg != "--version") return 0;
    if (i + 1 >= argc2) {
      error = arg + " needs a value";
      return -1;
    }
    const std::string value = args[i + 1];
    if (arg == "--link") {
      link_path = value;
    } else if (arg == "--cable") {
      if (value != "usual" && value != "other") {
        error = "--cable takes usual or other";
        return -1;
      }
      board_options.cable_other_side = value == "other";
    } else if (std::sscanf(value.c_str(), "%d.%d", &board_options.version_major,
                           &board_options.version_minor) != 2) {
      error = "--version needs MAJOR.MINOR";
      return -1;
    }
    return 2;
  };
  std::string error = parse_run_options(argc, argv, run, script_path, own);
  if (error.empty()) link_path = pty_link_path(link_path, bus, error);
  if (!error.empty()) {
    std::cerr << run.name << ": " << error << "\n";
    return 2;
  }
  const script::ScriptFile file = script::read_script_file(script_path);
  if (!file.ok()) {
    std::cerr << file.error << "\n";
    return 2;
  }
  ChessLinkEmulator board(board_options);
  board.set_placement(header_placement(file));
  PtyLink link(link_path);
  if (auto opened = link.open(); std::holds_alternative<PtyError>(opened)) {
    std::cerr << run.name << ": " << std::get<PtyError>(opened).message << "\n";
    return 1;
  }
  std::cerr << run.name << ": " << link_path << " -> " << link.slave_path() << "\n";
  return run_emulator(run, board, link, timed_sensor_lines(file));
}

}  // namespace eboard::sim
