// eboard-dump DRIVER:DEVICE[,KEY=VALUE...] [--seconds N] | --list  (docs/interfaces.md §2)
#include <cstdlib>
#include <iostream>
#include <string>

#include "daemon/programs/eboard_dump/dump_session.h"
#include "drivers/factory.h"
#include "eboard/version.h"

namespace {
constexpr const char* kUsage =
    "usage: eboard-dump DRIVER:DEVICE[,KEY=VALUE...] [--seconds N] [--usb-emulator DIR]\n"
    "                   [--serial-emulator DIR] [--state-dir DIR] [--recalibrate]\n"
    "       eboard-dump --list [--usb-emulator DIR] [--serial-emulator DIR]\n"
    "Opens one board (e.g. dgt:/dev/ttyACM0, dgt:auto,serial=24680, chesslink:auto,\n"
    "chessnut:usb, certabo:/dev/ttyUSB0) the way eboardd does, prints its identity on stderr\n"
    "and what it reports as sensor-script lines on stdout (seconds since start). Reconnects\n"
    "when the device goes away. Exits 2 when the device never worked.\n"
    "  --list              print every board found: family, port, serial number\n"
    "  --seconds N         stop after N seconds\n"
    "  --usb-emulator DIR  read the emulated USB bus of `eboard-sim chessnut` instead of libusb\n"
    "  --serial-emulator DIR  find serial ports among the emulated ones of\n"
    "                      `eboard-sim dgt|chesslink|certabo --serial-bus DIR`\n"
    "  --state-dir DIR     keep a Certabo board's calibration (DIR/dump.calibration)\n"
    "  --recalibrate       learn the calibration again from the next start position\n"
    "  --version           print the version and exit\n";

int bad(const std::string& message) {
  std::cerr << "eboard-dump: " << message << "\n";
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  eboard::daemon::DumpOptions options;
  std::string spec_text;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
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
      const double seconds = has_value ? std::strtod(argv[i + 1], &end) : -1;
      if (!has_value || end == argv[i + 1] || *end != '\0' || seconds <= 0) {
        return bad("--seconds needs a positive number");
      }
      options.duration = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
      ++i;
    } else if (arg == "--usb-emulator" || arg == "--serial-emulator" || arg == "--state-dir") {
      if (!has_value) return bad(arg + " needs a directory");
      (arg == "--usb-emulator"      ? options.usb_emulator
       : arg == "--serial-emulator" ? options.serial_emulator
                                    : options.state_dir) = argv[++i];
    } else if (arg == "--list") {
      list = true;
    } else if (arg == "--recalibrate") {
      options.recalibrate = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return bad("unknown option '" + arg + "'");
    } else if (spec_text.empty()) {
      spec_text = arg;
    } else {
      return bad("only one device");
    }
  }
  if (list) {
    if (!spec_text.empty()) return bad("--list takes no device");
    return eboard::daemon::run_list(options, std::cout, std::cerr);
  }
  if (spec_text.empty()) return bad("a device is needed (e.g. dgt:/dev/ttyACM0), or --list");
  auto parsed = eboard::drivers::parse_board_spec(spec_text);
  if (auto* error = std::get_if<eboard::drivers::SpecError>(&parsed)) return bad(error->message);
  options.spec = std::get<eboard::drivers::BoardSpec>(parsed);
  const auto* driver = eboard::drivers::find_driver(options.spec.driver);
  if (driver == nullptr) {
    return bad("unknown driver '" + options.spec.driver +
               "' (known: " + eboard::drivers::driver_names() + ")");
  }
  const bool usb = driver->transport == eboard::drivers::TransportKind::kUsbHid;
  if (usb != (options.spec.device == "usb")) {
    return bad(usb ? options.spec.driver + " boards are reached over USB: the device is `usb`"
                   : options.spec.driver + " boards are serial devices: a path or `auto`");
  }
  return eboard::daemon::run_dump(options, std::cout, std::cerr);
}
