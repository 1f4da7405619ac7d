// DGT serial protocol constants (docs/protocols.md §1), and in one place the choices made for
// the points docs/protocols.md §11 could not confirm. Change a choice here and nowhere else;
// README.md ("Hardware") lists them for the operator.
#pragma once

#include <cstdint>

namespace eboard::drivers::dgt {

// --- commands, PC -> board (docs/protocols.md §1.3) -------------------------------------------
inline constexpr std::uint8_t kSendReset = 0x40;
inline constexpr std::uint8_t kSendClock = 0x41;
inline constexpr std::uint8_t kSendBoard = 0x42;
inline constexpr std::uint8_t kSendUpdate = 0x43;
inline constexpr std::uint8_t kSendUpdateBoard = 0x44;
inline constexpr std::uint8_t kReturnSerialNr = 0x45;
inline constexpr std::uint8_t kReturnBusAddress = 0x46;
inline constexpr std::uint8_t kSendTrademark = 0x47;
inline constexpr std::uint8_t kSendEeMoves = 0x49;
inline constexpr std::uint8_t kSendUpdateNice = 0x4B;
inline constexpr std::uint8_t kSendBatteryStatus = 0x4C;
inline constexpr std::uint8_t kSendVersion = 0x4D;
inline constexpr std::uint8_t kReturnLongSerialNr = 0x55;
inline constexpr std::uint8_t kClockMessage = 0x2B;
// 0x4E (boot loader) and 0x51/0x53/0x54 (EEPROM writes) are deliberately absent: never sent.

// --- message ids, board -> PC (docs/protocols.md §1.5) ----------------------------------------
inline constexpr std::uint8_t kMsgBoardDump = 0x86;
inline constexpr std::uint8_t kMsgBwTime = 0x8D;
inline constexpr std::uint8_t kMsgFieldUpdate = 0x8E;
inline constexpr std::uint8_t kMsgEeMoves = 0x8F;
inline constexpr std::uint8_t kMsgBusAddress = 0x90;
inline constexpr std::uint8_t kMsgSerialNr = 0x91;
inline constexpr std::uint8_t kMsgTrademark = 0x92;
inline constexpr std::uint8_t kMsgVersion = 0x93;
inline constexpr std::uint8_t kMsgBoardDump50B = 0x94;
inline constexpr std::uint8_t kMsgBoardDump50W = 0x95;
inline constexpr std::uint8_t kMsgBatteryStatus = 0xA0;
inline constexpr std::uint8_t kMsgLongSerialNr = 0xA2;

// --- clock command ids inside 0x2B (docs/protocols.md §1.9)
// ---------------------------------------
inline constexpr std::uint8_t kClockStart = 0x03;  // start-of-clock-message byte
inline constexpr std::uint8_t kClockEnd = 0x00;    // end-of-clock-message byte
inline constexpr std::uint8_t kClockDisplay = 0x01;
inline constexpr std::uint8_t kClockIcons = 0x02;
inline constexpr std::uint8_t kClockEndDisplay = 0x03;
inline constexpr std::uint8_t kClockButton = 0x08;
inline constexpr std::uint8_t kClockVersion = 0x09;
inline constexpr std::uint8_t kClockSetNRun = 0x0A;
inline constexpr std::uint8_t kClockBeep = 0x0B;
inline constexpr std::uint8_t kClockAscii = 0x0C;
// Unsolicited ack1 values (docs/protocols.md §1.8).
inline constexpr std::uint8_t kAckClockReady = 0x81;
inline constexpr std::uint8_t kAckButtonPressed = 0x88;
inline constexpr std::uint8_t kAckModeReport = 0x8A;
inline constexpr std::uint8_t kAckNotInMode = 0x90;
// ack0 (§1.8): 10 a normal answer, 40 an error; any other value is taken as an error too.
inline constexpr std::uint8_t kAckOk = 0x10;
inline constexpr std::uint8_t kAckError = 0x40;

// SETNRUN run byte (docs/protocols.md §1.9).
inline constexpr std::uint8_t kRunLeft = 0x01;
inline constexpr std::uint8_t kRunRight = 0x02;
inline constexpr std::uint8_t kRunPaused = 0x04;

// ===== Unconfirmed points (docs/protocols.md §11): the choices, in one place ===================
// §11.1: SETNRUN hours/minutes/seconds through the board are plain binary (every working
// driver does so); the I²C path uses BCD. Set true to send BCD instead.
inline constexpr bool kSetNRunUsesBcd = false;
// §11.3: status bit 1 of 0x8D set means the lever is high on the right, which we read as
// "the left player pressed last, the right clock runs". A change of the bit is a press.
inline constexpr bool kLeverHighRightMeansLeftPressed = true;
// §11.4: the battery message 0xA0: the header says total length 7, its own layout and
// PicoChess say 12. Accept both and everything in between.
inline constexpr int kBatteryMinLength = 7;
inline constexpr int kBatteryMaxLength = 12;
// §11.6: 04D8:000A is Microchip's generic CDC id, only a hint: every candidate is probed.
inline constexpr std::uint16_t kUsbVendorId = 0x04D8;
inline constexpr std::uint16_t kUsbProductId = 0x000A;
// §11.2: no mode switch is sent to the clock through the board; SETNRUN answered with an
// error ack is reported as ClockCommandFailed after one resend, so the operator can put
// the clock into its computer-controlled mode by hand.
// §11.5: the undocumented "S bit" of 0x8E: field numbers above 63 are rejected (never seen).
// ==========================================================================================

// Timing (docs/protocols.md §1.9 "Flow control", §1.13 step 5).
inline constexpr int kClockAckTimeoutMs = 2000;    // resend once after this, then give up
inline constexpr int kHandshakeTimeoutMs = 2000;   // version request unanswered
inline constexpr int kKeepAliveIntervalMs = 3000;  // serial-number request when idle
inline constexpr int kSilenceLimitMs = 10000;      // nothing heard for this long: kSilent
inline constexpr int kPartialTimeoutMs = 500;      // a message stuck half-received

// Message length bounds by id, total length including the 3 header bytes (§1.4, §1.5).
struct LengthBounds {
  int min = 0;
  int max = 0;
};
// Returns {0, 0} for an id we do not accept.
constexpr LengthBounds length_bounds(std::uint8_t id) {
  switch (id) {
    case kMsgBoardDump: return {67, 67};
    case kMsgBwTime: return {10, 10};
    case kMsgFieldUpdate: return {5, 5};
    case kMsgEeMoves: return {4, 16383};
    case kMsgBusAddress: return {5, 5};
    case kMsgSerialNr: return {8, 8};
    case kMsgTrademark: return {4, 1024};
    case kMsgVersion: return {5, 5};
    case kMsgBoardDump50B: return {53, 53};
    case kMsgBoardDump50W: return {53, 53};
    case kMsgBatteryStatus: return {kBatteryMinLength, kBatteryMaxLength};
    case kMsgLongSerialNr: return {13, 13};
    default: return {0, 0};
  }
}

// Field number (board order, §1.6) <-> engine square (a1 = 0), normal orientation.
constexpr int field_to_square(int field) { return field ^ 56; }
constexpr int square_to_field(int square) { return square ^ 56; }

}  // namespace eboard::drivers::dgt
