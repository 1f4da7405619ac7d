// `eboard-sim certabo --link PATH | --serial-bus DIR [options] SCRIPT`: a Certabo RFID
// board (or the occupancy-only Tabutronic Sentio) on a pseudo-terminal
// (certabo_emulator.h), linked at PATH or plugged in as an emulated USB-serial port
// (serial_bus.h).
#include <fstream>
#include <iostream>

#include "simulators/certabo/certabo_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/emulator/run_options.h"
#include "simulators/emulator/serial_bus.h"
#include "simulators/sim_main/subcommands.h"

namespace eboard::sim {
namespace {

constexpr const char* kUsage =
    "usage: eboard-sim certabo --link PATH | --serial-bus DIR [--serial N] [--usb-id VVVV:PPPP]\n"
    "                          [--calibration-out FILE] [--sentio] [--no-noise]\n"
    "                          [--swap SQUARE,SQUARE] [--speed X] [--garbage N] [--drop N]\n"
    "                          [--split] [--delay MS] [--hangup-at SECONDS [--hangup-for S]]\n"
    "                          [--seed S] [--linger SECONDS] [--verbose] SCRIPT\n"
    "Emulates a Certabo RFID board (38400 baud, docs/protocols.md §7) on a pseudo-terminal linked\n"
    "at PATH, playing the sensor script SCRIPT ('-' for standard input). --serial-bus plugs it\n"
    "in as an emulated USB-serial port in DIR instead (eboardd --serial-emulator DIR), with\n"
    "the adapter's serial number N (default 0001) and USB id (default 10c4:ea60).\n"
    "--calibration-out writes the set's tags as a calibration (what a board calibrated with\n"
    "its spare pieces knows; eboardd keeps one as JOURNAL/BOARD.calibration). --sentio sends\n"
    "occupancy only. --no-noise keeps empty squares silent. --swap a,b sets the pieces on two\n"
    "squares up on each other's squares. --speed 0 plays as fast as the host reads.\n";

std::optional<int> square_of(const std::string& name) {
  if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8') {
    return std::nullopt;
  }
  return (name[1] - '1') * 8 + (name[0] - 'a');
}

}  // namespace

int run_certabo(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  RunOptions run;
  run.name = "eboard-sim certabo";
  CertaboOptions board_options;
  std::string link_path, script_path, calibration_out;
  std::vector<std::pair<int, int>> swaps;
  SerialBus bus{"", "0001", 0x10C4, 0xEA60, false};  // a CP210x, docs/protocols.md §7
  const auto own = [&](int argc2, char** args, int i, std::string& error) -> int {
    if (const int taken = take_serial_bus_option(argc2, args, i, bus, error)) return taken;
    const std::string arg = args[i];
    if (arg == "--sentio" || arg == "--no-noise") {
      (arg == "--sentio" ? board_options.occupancy_only : board_options.noise) = arg == "--sentio";
      return 1;
    }
    if (arg != "--link" && arg != "--calibration-out" && arg != "--swap") return 0;
    if (i + 1 >= argc2) {
      error = arg + " needs a value";
      return -1;
    }
    const std::string value = args[i + 1];
    if (arg == "--link") link_path = value;
    if (arg == "--calibration-out") calibration_out = value;
    if (arg == "--swap") {
      const auto a = square_of(value.substr(0, value.find(',')));
      const auto b = square_of(value.substr(value.find(',') + 1));
      if (!a || !b || value.find(',') == std::string::npos) {
        error = "--swap needs two squares, e.g. d1,d8";
        return -1;
      }
      swaps.emplace_back(*a, *b);
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
  board_options.seed = run.faults.seed;
  CertaboEmulator board(board_options);
  board.set_placement(header_placement(file));
  for (const auto& [a, b] : swaps) board.swap_squares(a, b);
  if (!calibration_out.empty() && !(std::ofstream(calibration_out) << board.calibration_text())) {
    std::cerr << run.name << ": " << calibration_out << ": cannot write\n";
    return 2;
  }
  PtyLink link(link_path);
  if (auto opened = link.open(); std::holds_alternative<PtyError>(opened)) {
    std::cerr << run.name << ": " << std::get<PtyError>(opened).message << "\n";
    return 1;
  }
  std::cerr << run.name << ": " << link_path << " -> " << link.slave_path() << "\n";
  return run_emulator(run, board, link, timed_sensor_lines(file));
}

}  // namespace eboard::sim
