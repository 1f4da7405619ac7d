// A `sim:SCRIPT` board's emulator: `eboard-sim dgt --link PATH --speed X SCRIPT` as a
// child process (docs/interfaces.md §2). The daemon then opens PATH like any tty and drives it
// through the real DGT driver. The child gets SIGTERM when the daemon dies (even by
// SIGKILL, through PR_SET_PDEATHSIG), so no emulator outlives its daemon.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "util/result.h"

namespace eboard::daemon {

class SimProcess {
 public:
  // Starts the emulator; its stderr goes to ours, its stdout to /dev/null.
  static Result<SimProcess> start(const std::string& program, const std::vector<std::string>& args);

  SimProcess(SimProcess&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }
  SimProcess& operator=(SimProcess&&) = delete;
  SimProcess(const SimProcess&) = delete;
  ~SimProcess() { stop(); }

  // SIGTERM, then reaps it (the emulator exits at once on SIGTERM).
  void stop();
  // Non-blocking: true once the child has exited (reaped).
  bool exited();
  pid_t pid() const { return pid_; }

 private:
  explicit SimProcess(pid_t pid) : pid_(pid) {}
  pid_t pid_ = -1;
};

// The directory of the running program (to find eboard-sim next to eboardd).
std::string program_directory();

}  // namespace eboard::daemon
