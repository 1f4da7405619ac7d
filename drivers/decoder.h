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
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "drivers/sensor_event.h"

namespace eboard::drivers {

using TimePoint = std::chrono::steady_clock::time_point;

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
};

}  // namespace eboard::drivers
