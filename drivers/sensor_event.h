// What a board or clock reports, independent of the device family (docs/design.md "Data flow").
//
// The driver layer knows devices, not chess: a placement is 64 piece codes as the sensors
// read them, squares in the engine's numbering (a1 = 0 ... h8 = 63) in the board's normal
// orientation (docs/protocols.md §1.6), and clock sides are left/right as seen from the front
// of the clock. Which side is White's is decided above the driver (clock_sides.h).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace eboard::drivers {

enum class Piece : std::uint8_t {
  kEmpty,
  kWhitePawn,
  kWhiteKnight,
  kWhiteBishop,
  kWhiteRook,
  kWhiteQueen,
  kWhiteKing,
  kBlackPawn,
  kBlackKnight,
  kBlackBishop,
  kBlackRook,
  kBlackQueen,
  kBlackKing,
  kOccupied,    // occupancy-only boards: something stands here
  kResultDraw,  // DGT "magic" result pieces (docs/protocols.md §1.6)
  kResultWhiteWins,
  kResultBlackWins,
};

// '.' for empty, FEN letters, '?' occupied, '1' '2' '3' result pieces (docs/interfaces.md §3).
char piece_letter(Piece piece);
std::optional<Piece> piece_from_letter(char letter);

using Placement = std::array<Piece, 64>;
// Any monotonic time point: what a decoder is given as `now` (decoder.h).
using TimePoint = std::chrono::steady_clock::time_point;
// The standard start position, and a placement turned round (square s read as 63 - s).
Placement start_placement();
Placement rotated(const Placement& placement);

enum class ClockSide : std::uint8_t { kLeft, kRight };
using Millis = std::chrono::milliseconds;

// --- events ---------------------------------------------------------------------------
struct PlacementSeen {
  Placement placement;
};  // a full dump
struct SquareChanged {
  int square = 0;
  Piece piece = Piece::kEmpty;
};

struct ClockReading {
  Millis left{0};
  Millis right{0};
  bool running = false;                 // stopped with start/stop when false
  std::optional<ClockSide> turn;        // whose clock the clock says runs
  std::optional<ClockSide> lever_high;  // the side whose lever is up (unknown on some clocks)
  bool left_flag = false;               // flag shown (fallen, or next period started)
  bool right_flag = false;
  bool battery_low = false;
  // When the reading arrived, where the driver reports it later than that (the DGT clock
  // gate waits for a second reading, clock_gate.h); nullopt: when the event is reported.
  std::optional<TimePoint> read_at;
};
struct LeverPressed {  // the player on `side` pressed
  LeverPressed() = default;
  explicit LeverPressed(ClockSide pressed, std::optional<TimePoint> shown_at = std::nullopt)
      : side(pressed), read_at(shown_at) {}
  ClockSide side = ClockSide::kLeft;
  std::optional<TimePoint> read_at;  // of the reading that showed it (ClockReading::read_at)
};
struct FlagShown {
  ClockSide side = ClockSide::kLeft;
};  // a flag appeared on `side`
// Both flags appeared in one reading (the first after a reconnect, say): the clock cannot
// tell which fell first (docs/rules.md D10, Guidelines III.3.1).
struct BothFlagsShown {};
struct ClockAbsent {};  // the board says no clock

// A clock's answer to a command of ours (or an unsolicited report).
struct ClockAck {
  std::uint8_t command = 0;  // the command id answered (docs/protocols.md §1.8 ack1)
  bool error = false;        // ack0 != 0x10 (0x40 is DGT's error; §1.8)
  std::array<std::uint8_t, 4> raw{};
};
// A queued clock command gave up after its resend (no ack, or error acks).
struct ClockCommandFailed {
  std::uint8_t command = 0;
  std::string reason;
};

enum class InfoKind : std::uint8_t {
  kVersion,
  kSerial,
  kLongSerial,
  kTrademark,
  kBusAddress,
  kClockVersion,
  kBattery,
  kModel,        // the board model, when the device tells it (ChessLink version, USB product)
  kOrientation,  // how the board was found to be connected (ChessLink cable side)
};
struct DeviceInfo {
  InfoKind kind = InfoKind::kVersion;
  std::string text;
};

enum class LinkState : std::uint8_t {
  kConfirmed,  // the device answered the handshake: it is what we think it is
  kNoAnswer,   // the handshake went unanswered (wrong device, or asleep)
  kSilent,     // a confirmed device stopped answering keep-alives
  kResync,     // bytes were discarded; a full dump was requested (the picture is stale)
  kInSync,     // the full report after a connect or a resync arrived (decoder.h)
  kRefused,    // the device answered but cannot be used as it is (detail says why, e.g. a
               // Certabo calibration from a wrong set-up); the link stays open
};
struct LinkStatus {
  LinkState state = LinkState::kConfirmed;
  std::string detail;
};

struct ChangeLog {
  std::vector<std::uint8_t> bytes;
};  // EEPROM read-out, docs/protocols.md §1.11

// A board's piece calibration changed (Certabo: which RFID tag is which piece): the caller
// stores `text` and gives it back to the next decoder of this board (factory.h).
struct Calibration {
  std::string text;
};

using SensorEvent =
    std::variant<PlacementSeen, SquareChanged, ClockReading, LeverPressed, FlagShown,
                 BothFlagsShown, ClockAbsent, ClockAck, ClockCommandFailed, DeviceInfo, LinkStatus,
                 ChangeLog, Calibration>;

// --- clock commands (what the daemon may ask a clock to do) --------------------------------
struct ClockText {
  std::string text;
  int beep = 0;
};  // DGT 3000: 8 characters, beep 0-15
struct ClockSetAndRun {
  Millis left{0};
  Millis right{0};
  std::optional<ClockSide> run;  // nullopt: both stopped
};
struct ClockEndText {};
struct ClockBeep {
  Millis duration{0};
};
struct ClockVersionRequest {};
using ClockCommand =
    std::variant<ClockText, ClockSetAndRun, ClockEndText, ClockBeep, ClockVersionRequest>;

}  // namespace eboard::drivers
