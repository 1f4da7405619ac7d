// eboard-dump's loop: one device, opened the way the daemon opens it (tty transport, DGT
// driver, reconnect with capped backoff), everything it reports printed as sensor-script
// lines (interfaces.md §2 eboard-dump, §3). The loop is the only place that reads the
// clock; the driver gets `now` passed in.
#pragma once

#include <chrono>
#include <optional>
#include <ostream>

#include "drivers/board_spec.h"

namespace eboard::daemon {

struct DumpOptions {
  drivers::BoardSpec spec;
  std::optional<std::chrono::milliseconds> duration;  // --seconds
};

// Runs until the duration ends or SIGINT/SIGTERM. Returns the exit status.
int run_dump(const DumpOptions& options, std::ostream& lines, std::ostream& log);

}  // namespace eboard::daemon
