// The one interface between a device family and the daemon (style.md layout).
//
// A Decoder turns the bytes a device sends into SensorEvents and says which bytes to send
// back. It owns no file descriptor and never reads a clock: the caller passes `now` (any
// monotonic time point) into every call, and arms a timer for next_deadline(). This makes
// every behaviour - handshake, resync, clock-command timeouts and resends, keep-alives -
// testable byte by byte with chosen timestamps.
//
// Calling sequence for one link (the daemon's board session, or eboard-dump):
//   open the transport               -> on_connected(now, out), write out.to_send
//   bytes arrive                     -> on_bytes(bytes, now, out), handle events, write
//   the timer for next_deadline()    -> on_timer(now, out), handle events, write
//   read error / EOF (unplugged)     -> drop the decoder's link state with on_disconnected(),
//                                       reconnect with backoff (reconnect.h), on_connected again
// Events are appended to out.events in arrival order; out is never cleared by the decoder.
//
// Synchronisation: a decoder's picture of the board is stale from a connect, and from
// every resynchronisation (bytes discarded, a message cut), until the device's next full
// report. in_sync() says which; the decoder reports LinkStatus kResync when the picture
// goes stale and LinkStatus kInSync when the full report that restores it arrived (its
// PlacementSeen comes just before). Square changes are only reported while in sync, so a
// caller that waits for kInSync judges the board's own state, never a guess.
//
// The families (factory.h): DGT (dgt/), Millennium ChessLink (chesslink/), Chessnut
// (chessnut/), Certabo (certabo/). Each family's folder holds its decoder; the factory
// is the only place that names them all.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "drivers/sensor_event.h"

namespace eboard::drivers {

struct DecoderOutput {
  std::vector<SensorEvent> events;
  std::vector<std::uint8_t> to_send;
};

// Counters for the device status (monotonic over the decoder's life, across reconnects).
struct DecoderCounters {
  std::uint64_t bytes_received = 0;
  std::uint64_t discarded_bytes = 0;  // dropped by resynchronisation
  std::uint64_t messages = 0;
  std::uint64_t dumps_requested = 0;
  std::uint64_t clock_resends = 0;
  std::uint64_t clock_failures = 0;
};

// What a device family can do (docs/protocols.md §10).
enum class Sensing : std::uint8_t { kIdentity, kOccupancy };
struct DecoderTraits {
  bool clock = false;   // a clock reaches us on the same link (DGT only)
  bool lights = false;  // the board has LEDs that set_lights() drives
  Sensing sensing = Sensing::kIdentity;
};

// Squares to light, as bitboards in the engine's numbering (bit 0 = a1, bit 63 = h8):
// `blink` squares flash where the hardware can (ChessLink), and are lit steadily where it
// cannot. Both empty: all lights off.
struct Lights {
  std::uint64_t steady = 0;
  std::uint64_t blink = 0;
  bool operator==(const Lights&) const = default;
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual void on_connected(TimePoint now, DecoderOutput& out) = 0;
  virtual void on_disconnected() = 0;
  virtual void on_bytes(std::span<const std::uint8_t> bytes, TimePoint now, DecoderOutput& out) = 0;
  virtual void on_timer(TimePoint now, DecoderOutput& out) = 0;
  // The earliest time on_timer wants to run; nullopt when nothing is pending.
  virtual std::optional<TimePoint> next_deadline() const = 0;
  // Queues a clock command (one in flight at a time). False when the device has no clock.
  virtual bool send_clock(const ClockCommand& command, TimePoint now, DecoderOutput& out) = 0;
  virtual DecoderCounters counters() const = 0;
  virtual DecoderTraits traits() const = 0;
  // False while the picture of the board is stale (see the top of this file).
  virtual bool in_sync() const = 0;
  // Shows `lights` on the board's LEDs; false when it has none or the link is not up.
  // Never waits for an answer: sensor reports keep flowing while the LEDs are set.
  virtual bool set_lights(const Lights& /*lights*/, TimePoint /*now*/, DecoderOutput& /*out*/) {
    return false;
  }
  // Learns the pieces again from the next start position (Certabo); false when the family
  // needs no calibration.
  virtual bool recalibrate(TimePoint /*now*/, DecoderOutput& /*out*/) { return false; }
};

}  // namespace eboard::drivers
