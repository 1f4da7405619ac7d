// The device part of a board spec (docs/interfaces.md §2): `DRIVER:DEVICE[,KEY=VALUE...]`,
// e.g. `dgt:/dev/ttyACM0`, `dgt:auto,serial=24680`, `dgt:/dev/ttyACM0,white=right`,
// `chesslink:auto`, `chessnut:usb,serial=N`, `certabo:/dev/ttyUSB0,clock=none`.
// The daemon's `--board NAME=...` and eboard-dump share this parser; which drivers
// exist is the factory's business (factory.h), not the parser's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "drivers/clock_sides.h"

namespace eboard::drivers {

// `clock=none`: no clock reaches the daemon for this board, whatever the device says
// (a DGT board whose clock is not on its cable). `auto`: the device tells (the three
// clockless families always say none, decoder.h traits()).
enum class ClockSetting : std::uint8_t { kAuto, kNone };

struct BoardSpec {
  std::string driver;                 // "dgt", "chesslink", ... (or "sim", the daemon's)
  std::string device;                 // a path, "auto", or "usb" (USB HID families)
  std::optional<std::string> serial;  // pick the board with this serial number
  WhiteSetting white = WhiteSetting::kAuto;
  ClockSetting clock = ClockSetting::kAuto;
};

struct SpecError {
  std::string message;
};
std::variant<BoardSpec, SpecError> parse_board_spec(std::string_view text);

}  // namespace eboard::drivers
