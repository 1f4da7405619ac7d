// A Millennium ChessLink board as a state machine (docs/protocols.md §5), the counterpart of
// drivers/chesslink: commands from the host (`V`, `S`, `W`, `R`, `L`, `X`, `T`, each
// checked by its block parity) give the replies the board sends, and the script's sensor
// statements give automatic status reports in the mode the host set in E2ROM 02 (every
// scan by default, on change, off). Every character goes out with its odd-parity bit set
// in bit 7, as on an 8N1 line (python-mchess), so the host's masking is exercised.
// The cable side decides the order of the 64 status characters (`cable_other_side`: the
// note's a8-first order; otherwise h1 first, as the public drivers read it).
// Not emulated: the E2ROM's scan-time and brightness effects, BLE.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "drivers/chesslink/chesslink_driver.h"
#include "simulators/emulator/board_emulator.h"

namespace eboard::sim {

struct ChessLinkOptions {
  bool cable_other_side = false;
  int version_major = 1;  // 0 Exclusive, 1 Performance, 2 eONE
  int version_minor = 4;
};

class ChessLinkEmulator final : public BoardEmulator {
 public:
  explicit ChessLinkEmulator(ChessLinkOptions options);

  Messages on_host_bytes(std::span<const std::uint8_t> bytes) override;
  Messages apply(const script::Statement& statement) override;
  Messages advance(script::Millis at) override;
  void power_cycle() override;
  void set_placement(const script::Placement& placement) override;
  bool host_active() const override { return host_active_; }
  bool host_has_board() const override { return host_has_board_; }

  // The squares the host lit last (`L`), engine numbering; 0 after `X`.
  std::uint64_t lit_squares() const { return lit_; }
  std::uint8_t e2rom(std::uint8_t address) const { return e2rom_[address]; }
  const drivers::Placement& placement() const { return placement_; }

 private:
  Message reply(char letter, const std::string& data) const;
  Message status() const;
  void handle_command(const std::string& text, Messages& out);
  void read_lights(const std::string& data);
  bool reports_on_change() const;

  ChessLinkOptions options_;
  std::string pending_;
  drivers::Placement placement_{};
  std::array<std::uint8_t, 256> e2rom_{};
  bool host_active_ = false;
  bool host_has_board_ = false;
  std::uint64_t lit_ = 0;
  script::Millis last_scan_{0};
};

}  // namespace eboard::sim
