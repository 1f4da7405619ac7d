// eboard-dump's loop: one device, opened the way the daemon opens it - the same
// DeviceLink (daemon/core/device_link.h) with the family's decoder from the factory, the
// same reconnects and hot-plug - with everything it reports printed as sensor-script lines
// (docs/interfaces.md §2 eboard-dump, §3) and its identity on stderr.
//
// Exit status: 0 when it ran until --seconds or a signal with the device working; 2, with
// one line naming the device, when the device never worked - a fixed path that fails at
// the first attempt (cannot be opened, or does not answer), or an `auto`/`usb` board not
// found within --seconds.
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>

#include "drivers/board_spec.h"

namespace eboard::daemon {

struct DumpOptions {
  drivers::BoardSpec spec;
  std::optional<std::chrono::milliseconds> duration;  // --seconds
  std::string usb_emulator;                           // --usb-emulator DIR
  std::string serial_emulator;                        // --serial-emulator DIR
  std::string state_dir;                              // --state-dir DIR (calibrations)
  bool recalibrate = false;                           // --recalibrate (Certabo)
};

// Runs until the duration ends or SIGINT/SIGTERM. Returns the exit status.
int run_dump(const DumpOptions& options, std::ostream& lines, std::ostream& log);

// `eboard-dump --list`: every board found, one line each (dump_list.cpp).
int run_list(const DumpOptions& options, std::ostream& lines, std::ostream& log);

}  // namespace eboard::daemon
