// What every emulated board is to the emulator loop (run_emulator.h): a state machine fed
// the host's bytes and the script's sensor statements, giving back the messages the real
// board would send. No I/O and no clock reads: the loop passes script time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "simulators/script/statement.h"

namespace eboard::sim {

using Message = std::vector<std::uint8_t>;
// Each message is one write on a serial line, one packet (one HID report) on a USB link.
using Messages = std::vector<Message>;

class BoardEmulator {
 public:
  virtual ~BoardEmulator() = default;
  virtual Messages on_host_bytes(std::span<const std::uint8_t> bytes) = 0;
  // A sensor statement; operator lines are not board data and give nothing.
  virtual Messages apply(const script::Statement& statement) = 0;
  // Script time has reached `at` (clock ticks, a board that streams its readings).
  virtual Messages advance(script::Millis at) = 0;
  // Unplugged and plugged in again: back to its power-up state, the pieces unchanged.
  virtual void power_cycle() = 0;
  virtual void set_placement(const script::Placement& placement) = 0;
  // The host has started talking to the board (script time starts then).
  virtual bool host_active() const = 0;
  // The host has the board's whole state since power-up: the script may go on.
  virtual bool host_has_board() const = 0;
  // Whether each Message is exactly one of the device's messages (faults are applied per
  // message); the DGT emulator gives several in one, which the fault injector splits.
  virtual bool one_message_each() const { return true; }
};

}  // namespace eboard::sim
