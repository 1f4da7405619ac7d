// The loop every `eboard-sim BOARD` subcommand runs (docs/interfaces.md §2): one poll over the
// link, a signalfd and timers computed from the script. With --speed X > 0 script time
// runs X times wall time from the moment the host first talks to the board; with
// --speed 0 the next statement is played only when the host has read everything sent so
// far ("as fast as the daemon reads"), and only once it has the whole board (after
// power-up and after every plug-in). Faults (fault_injector.h) are applied per message.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "simulators/dgt/fault_injector.h"
#include "simulators/emulator/board_emulator.h"
#include "simulators/emulator/emulator_link.h"

namespace eboard::sim {

struct RunOptions {
  std::string name;  // "eboard-sim dgt", for messages
  double speed = 1.0;
  FaultOptions faults;
  bool split = false;  // one byte at a time (serial links only)
  std::chrono::milliseconds delay{0};
  std::optional<script::Millis> hangup_at;
  double hangup_seconds = 2.0;
  std::optional<double> linger_seconds;
  bool verbose = false;
  // Called after each batch of host bytes (the DGT emulator prints its clock's texts).
  std::function<void()> after_host_bytes;
};

// Plays `timed` (the script's timed sensor statements); returns the exit status.
int run_emulator(const RunOptions& options, BoardEmulator& board, EmulatorLink& link,
                 const std::vector<script::Statement>& timed);

}  // namespace eboard::sim
