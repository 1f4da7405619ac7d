// eboardd's top level: builds every object from the configuration and runs the one
// event-loop thread (style.md "Event loop and I/O"). main() only parses options and calls
// run_daemon(). Order of start-up: journals are read (recovery), board sessions resume,
// emulators of `sim:` boards start, links open (or start retrying), listeners bind, and
// only then READY=1 is sent.
#pragma once

#include <ostream>

#include "daemon/core/clock.h"
#include "daemon/core/config.h"
#include "eboard/version.h"

namespace eboard::daemon {

inline constexpr const char* kDaemonVersion = eboard::kVersion;

// Runs until SIGINT/SIGTERM (or, in the demo, the end of the game). Returns the exit
// status: 0, or 1 when start-up failed (the reason is logged on `log`). --print writes
// the events to `events_fd` (stdout), never blocking on it (print_out.h).
int run_daemon(const DaemonConfig& config, const Clock& clock, int events_fd, std::ostream& log);

}  // namespace eboard::daemon
