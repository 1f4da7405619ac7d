// `eboard-sim chessnut --usb-bus DIR [--serial N] [options] SCRIPT`: a Chessnut Air plugged
// into the emulated USB bus in DIR (hid_socket_link.h), which eboardd and eboard-dump read
// with --usb-emulator DIR. --hangup-at unplugs it and plugs it in again.
#include <iostream>

#include "simulators/chessnut/chessnut_emulator.h"
#include "simulators/chessnut/hid_socket_link.h"
#include "simulators/emulator/run_options.h"
#include "simulators/sim_main/subcommands.h"

namespace eboard::sim {
namespace {

constexpr const char* kUsage =
    "usage: eboard-sim chessnut --usb-bus DIR [--serial N] [--product 0xPID] [--speed X]\n"
    "                           [--garbage N] [--drop N] [--delay MS]\n"
    "                           [--hangup-at SECONDS [--hangup-for SECONDS]] [--seed S]\n"
    "                           [--linger SECONDS] [--verbose] SCRIPT\n"
    "Emulates a Chessnut Air (USB HID, docs/protocols.md §6) on the emulated USB bus in DIR,\n"
    "playing the sensor script SCRIPT ('-' for standard input): the device is plugged in\n"
    "at start, unplugged at --hangup-at for --hangup-for seconds. --serial sets its USB\n"
    "serial number (default 0001), --product its product id (default 0x8001). --speed 0\n"
    "plays as fast as the host reads.\n";

}  // namespace

int run_chessnut(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  RunOptions run;
  run.name = "eboard-sim chessnut";
  std::string bus, serial = "0001", script_path;
  unsigned product = 0x8001;
  const auto own = [&](int argc2, char** args, int i, std::string& error) -> int {
    const std::string arg = args[i];
    if (arg != "--usb-bus" && arg != "--serial" && arg != "--product") return 0;
    if (i + 1 >= argc2) {
      error = arg + " needs a value";
      return -1;
    }
    const std::string value = args[i + 1];
    if (arg == "--usb-bus") bus = value;
    if (arg == "--serial") serial = value;
    if (arg == "--product" &&
        (std::sscanf(value.c_str(), "%x", &product) != 1 || product > 0xFFFF)) {
      error = "--product needs a hex product id";
      return -1;
    }
    return 2;
  };
  std::string error = parse_run_options(argc, argv, run, script_path, own);
  if (error.empty() && bus.empty()) error = "--usb-bus DIR is required";
  if (error.empty() && run.split) error = "--split does not apply to USB reports";
  if (error.empty() && serial.find_first_of("/.") != std::string::npos) {
    error = "--serial must not contain '/' or '.'";
  }
  if (!error.empty()) {
    std::cerr << run.name << ": " << error << "\n";
    return 2;
  }
  const script::ScriptFile file = script::read_script_file(script_path);
  if (!file.ok()) {
    std::cerr << file.error << "\n";
    return 2;
  }
  ChessnutEmulator board;
  board.set_placement(header_placement(file));
  HidSocketLink link(bus, 0x2D80, static_cast<std::uint16_t>(product), serial);
  if (auto opened = link.open(); std::holds_alternative<PtyError>(opened)) {
    std::cerr << run.name << ": " << std::get<PtyError>(opened).message << "\n";
    return 1;
  }
  std::cerr << run.name << ": plugged in at " << link.describe() << "\n";
  return run_emulator(run, board, link, timed_sensor_lines(file));
}

}  // namespace eboard::sim
