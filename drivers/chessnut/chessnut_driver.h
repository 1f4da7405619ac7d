// A Chessnut Air / Air+ / Pro board behind the Decoder interface (docs/protocols.md §6), fed
// the bytes of its USB HID reports (usb_bus.h) or of BLE notifications alike.
//
// Link life: on connect the real-time mode command `21 01 00` and a battery request; the
// first position message confirms the device (it has no version exchange we know of).
// Every position is the whole board: the first after a connect or a resync restores the
// picture (kInSync), later ones give a SquareChanged per changed square.
//
// The format has no checksum, so where a message starts and ends is what protects it.
// Over USB each input report is one message, whole (HID reports are delivered complete
// and CRC-checked by the bus): with Framing::kReports, each on_bytes() call is one report
// and a report that is not exactly one well-formed message is dropped whole. With
// Framing::kStream (BLE notifications that may carry several messages, or tests) messages
// are cut by their length byte, bytes that start no known message are dropped one at a
// time and rescanned; a message cut short there would take the next one's bytes and
// cannot be told from a good one. Either way a position with a nibble no piece has is
// dropped (the only check the format allows). Commands leave at least 200 ms
// apart, as EasyLinkSDK's WRITE_INTERVAL keeps them. No clock; the battery is asked for
// every minute (DeviceInfo kBattery) and doubles as the keep-alive.
#pragma once

#include <deque>
#include <optional>

#include "drivers/chessnut/chessnut_protocol.h"
#include "drivers/decoder.h"

namespace eboard::drivers::chessnut {

enum class Framing : std::uint8_t { kReports, kStream };

class ChessnutDriver final : public Decoder {
 public:
  explicit ChessnutDriver(Framing framing = Framing::kReports) : framing_(framing) {}

  void on_connected(TimePoint now, DecoderOutput& out) override;
  void on_disconnected() override;
  void on_bytes(std::span<const std::uint8_t> bytes, TimePoint now, DecoderOutput& out) override;
  void on_timer(TimePoint now, DecoderOutput& out) override;
  std::optional<TimePoint> next_deadline() const override;
  bool send_clock(const ClockCommand&, TimePoint, DecoderOutput&) override { return false; }
  DecoderCounters counters() const override { return counters_; }
  DecoderTraits traits() const override { return {false, true, Sensing::kIdentity}; }
  bool in_sync() const override { return confirmed_ && mirror_ && synced_; }
  bool set_lights(const Lights& lights, TimePoint now, DecoderOutput& out) override;

 private:
  // Cuts complete messages off buffer_; returns false when more bytes are needed.
  bool next_message(DecoderOutput& out);
  void handle_position(std::span<const std::uint8_t> bytes, DecoderOutput& out);
  void handle_battery(std::span<const std::uint8_t> bytes, DecoderOutput& out);
  void queue(Bytes command, TimePoint now, DecoderOutput& out);
  void flush(TimePoint now, DecoderOutput& out);
  void discard(std::size_t count, DecoderOutput& out);

  Framing framing_;
  Bytes buffer_;
  std::deque<Bytes> commands_;
  std::optional<Bytes> pending_lights_;  // only the newest LED state is worth sending
  bool connected_ = false;
  bool confirmed_ = false;
  bool synced_ = false;
  bool handshake_resent_ = false;
  bool silent_reported_ = false;
  std::optional<TimePoint> handshake_deadline_;
  std::optional<TimePoint> partial_since_;
  TimePoint last_received_{};
  TimePoint last_write_{};
  TimePoint last_battery_{};
  std::optional<Placement> mirror_;
  DecoderCounters counters_;
};

}  // namespace eboard::drivers::chessnut
