// The DGT board (+ DGT XL / 3000 clock on its cable) behind the Decoder interface.
//
// Link life (docs/protocols.md §1.13, adapted): on connect send UPDATE_NICE and VERSION; the
// version reply confirms the device, after which a full dump, the serial number and the
// clock version are requested. Field updates are applied to a mirror of the placement;
// whenever the mirror may have diverged (connect, bytes discarded by the framer, a message
// stuck half-received) a dump is requested and field updates are held back until it
// arrives, so what is reported is always the board's own state, never a guess.
// A lever press is a change of the lever bit between two clock readings (§1.8); the first
// reading after a connect only sets the reference; that reading is asked for right after
// the handshake (`41`, DGT_SEND_CLK), since the clock message that answers the update-mode
// command comes before the version reply and is dropped as stale, and a press before the
// clock's next own message would otherwise be lost. Readings pass a gate
// first (clock_gate.h): one that changes what a ruling depends on waits for a second,
// and the square changes that came after it wait with it. Keep-alive: a serial-number request
// when the line has been quiet (§1.13 step 5); long silence is reported, and the caller
// decides to reconnect.
#pragma once

#include <optional>

#include "drivers/decoder.h"
#include "drivers/dgt/clock_gate.h"
#include "drivers/dgt/clock_queue.h"
#include "drivers/dgt/dgt_framer.h"

namespace eboard::drivers::dgt {

class DgtDriver final : public Decoder {
 public:
  void on_connected(TimePoint now, DecoderOutput& out) override;
  void on_disconnected() override;
  void on_bytes(std::span<const std::uint8_t> bytes, TimePoint now, DecoderOutput& out) override;
  void on_timer(TimePoint now, DecoderOutput& out) override;
  std::optional<TimePoint> next_deadline() const override;
  bool send_clock(const ClockCommand& command, TimePoint now, DecoderOutput& out) override;
  DecoderCounters counters() const override;
  DecoderTraits traits() const override { return {!clock_absent_, false, Sensing::kIdentity}; }
  bool in_sync() const override { return confirmed_ && mirror_ && !dump_requested_at_; }

  bool confirmed() const { return confirmed_; }
  // The placement as last known from the board (nullopt until the first dump).
  const std::optional<Placement>& placement() const { return mirror_; }

 private:
  void handle(const RawMessage& message, TimePoint now, DecoderOutput& out);
  void handle_clock(Payload payload, TimePoint now, DecoderOutput& out);
  // The reading, with its presses and flags; all dated `read_at`, the reading's arrival,
  // when the gate released it later (clock_gate.h).
  void clock_changes(const ClockReading& reading, DecoderOutput& out,
                     std::optional<TimePoint> read_at = std::nullopt);
  void handle_field_update(Payload payload, DecoderOutput& out);
  void release_behind_clock(DecoderOutput& out, std::size_t count);  // the first `count`
  void request_dump(TimePoint now, DecoderOutput& out);
  void resync(TimePoint now, DecoderOutput& out);  // a dump and the clock's state
  void send(std::uint8_t command, TimePoint now, DecoderOutput& out);

  Framer framer_;
  ClockQueue clock_queue_;
  bool connected_ = false;
  bool confirmed_ = false;
  bool handshake_resent_ = false;
  bool silent_reported_ = false;
  bool clock_absent_ = false;
  std::optional<TimePoint> handshake_deadline_;
  std::optional<TimePoint> dump_requested_at_;  // set while a dump is awaited
  std::optional<TimePoint> partial_since_;
  TimePoint last_received_{};
  TimePoint last_sent_{};
  std::optional<Placement> mirror_;
  std::optional<ClockReading> last_reading_;  // the last one the gate let through
  ClockGate clock_gate_;
  std::optional<TimePoint> confirm_requested_at_;
  std::vector<SquareChanged> behind_clock_;  // square changes after a held reading
  DecoderCounters counters_;
};

}  // namespace eboard::drivers::dgt
