// Chessnut Air / Air+ / Pro bytes (docs/protocols.md §6). Every message, both ways, is an id
// byte, a length byte and that many bytes: Chessnut's EasyLinkSDK reads a report's size
// as `readBuf[1] + 2`, and PicoChess's parser reads the BLE position as `01 24` + 36
// bytes. Over USB HID each message is one report (the HID transport cuts reports to
// that length); on BLE several may arrive in one notification.
//
// Position: 32 bytes after `01 LL`, two squares a byte, h8 g8 ... a8 h7 ... a1, the low
// nibble the first square of the pair (vendor README; EasyLinkSDK `toFen`); the rest of
// the message is not position (BLE: 4 bytes, FF FF FF FF in PicoChess's fixtures; USB:
// 29 bytes). Lengths 0x24 (BLE) and 0x3D (USB, §6) are accepted.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "drivers/sensor_event.h"

namespace eboard::drivers::chessnut {

using Bytes = std::vector<std::uint8_t>;

inline constexpr std::uint8_t kMsgPosition = 0x01;
inline constexpr std::uint8_t kMsgBattery = 0x2A;
inline constexpr std::uint8_t kLengthBle = 0x24;
inline constexpr std::uint8_t kLengthUsb = 0x3D;
inline constexpr std::size_t kPositionBytes = 32;

// Commands (EasyLinkSDK `switchMode`, `getBattery`, `setLedInternal`).
inline const Bytes kRealtimeMode = {0x21, 0x01, 0x00};
inline const Bytes kBatteryRequest = {0x29, 0x01, 0x00};
inline constexpr std::uint8_t kCmdLeds = 0x0A;

// The 32 position bytes -> placement; nullopt when a nibble is no piece code.
std::optional<Placement> decode_position(std::span<const std::uint8_t> bytes);
Bytes encode_position(const Placement& placement);
// `0A 08` + 8 bytes: rank 8 first, bit 7 = a-file (§6; §11.11 unconfirmed).
Bytes encode_leds(std::uint64_t squares);

}  // namespace eboard::drivers::chessnut
