// A Chessnut Air as a state machine (docs/protocols.md §6), the counterpart of
// drivers/chessnut, speaking one HID report per message: the real-time mode command
// `21 01 00` turns position reports on (a full position at once, then one per change),
// `29 01 00` is answered with the battery `2A 02 level flags`, `0A 08` + 8 bytes sets
// the LEDs. Reports are the USB form, `01 3D` + 32 position bytes + 29 bytes that are not
// position (zero here: the real board's are unknown, §11.10).
#pragma once

#include "drivers/chessnut/chessnut_protocol.h"
#include "simulators/emulator/board_emulator.h"

namespace eboard::sim {

class ChessnutEmulator final : public BoardEmulator {
 public:
  Messages on_host_bytes(std::span<const std::uint8_t> bytes) override;
  Messages apply(const script::Statement& statement) override;
  Messages advance(script::Millis) override { return {}; }
  void power_cycle() override;
  void set_placement(const script::Placement& placement) override;
  bool host_active() const override { return realtime_; }
  bool host_has_board() const override { return realtime_; }

  std::uint64_t lit_squares() const { return lit_; }
  int battery_percent = 87;

 private:
  Message position() const;
  void command(const Message& message, Messages& out);

  drivers::Placement placement_{};
  drivers::chessnut::Bytes pending_;
  bool realtime_ = false;
  std::uint64_t lit_ = 0;
};

}  // namespace eboard::sim
