// A Certabo RFID board (and the occupancy-only Tabutronic Sentio on the same protocol)
// behind the Decoder interface (docs/protocols.md §7).
//
// The board streams a full reading a few times a second and takes no commands but its
// LEDs, so there is no handshake: on connect all LEDs are turned off, and the first
// well-formed line confirms the device. Each
// reading is mapped through the calibration (certabo_calibration.h) to pieces, and a
// square's value is the majority of its last three readings (both public drivers do
// this: low-gain tags flicker); with no majority the square keeps its value. The first
// decided picture after a connect or a dropped line is a PlacementSeen (kInSync); later
// ones give a SquareChanged per changed square.
//
// Uncalibrated (no stored map, or recalibrate() asked for): readings are not reported;
// the first stable start position (the same tags in three readings) is the calibration.
// A refused one is a LinkStatus kRefused naming the squares, repeated only when the
// reason changes. A new map is a Calibration event for the caller to store.
//
// Lights: boards with plain LEDs take 8 bytes, rank 8 first, bit 0 = a-file (haklein's
// move2led); RGB-LED boards (`D` marker) take another frame that is not implemented, so
// set_lights() refuses on them.
#pragma once

#include <deque>
#include <optional>

#include "drivers/certabo/certabo_calibration.h"
#include "drivers/certabo/certabo_frames.h"
#include "drivers/decoder.h"

namespace eboard::drivers::certabo {

class CertaboDriver final : public Decoder {
 public:
  // `calibration`: a stored map's text ("" for none).
  explicit CertaboDriver(const std::string& calibration = "");

  void on_connected(TimePoint now, DecoderOutput& out) override;
  void on_disconnected() override;
  void on_bytes(std::span<const std::uint8_t> bytes, TimePoint now, DecoderOutput& out) override;
  void on_timer(TimePoint now, DecoderOutput& out) override;
  std::optional<TimePoint> next_deadline() const override;
  bool send_clock(const ClockCommand&, TimePoint, DecoderOutput&) override { return false; }
  DecoderCounters counters() const override;
  DecoderTraits traits() const override;
  bool in_sync() const override { return confirmed_ && mirror_ && synced_; }
  bool set_lights(const Lights& lights, TimePoint now, DecoderOutput& out) override;
  bool recalibrate(TimePoint now, DecoderOutput& out) override;

  bool calibrated() const { return !calibrating_; }

 private:
  void handle(const Reading& reading, DecoderOutput& out);
  void try_calibration(DecoderOutput& out);
  std::optional<Placement> pieces_of(const Reading& reading) const;
  void report(DecoderOutput& out);
  void refuse(const std::string& reason, DecoderOutput& out);

  LineReader reader_;
  CalibrationMap map_;
  bool calibrating_ = true;
  bool occupancy_only_ = false;
  bool connected_ = false;
  bool confirmed_ = false;
  bool synced_ = false;
  bool silent_reported_ = false;
  std::optional<TimePoint> confirm_deadline_;
  std::optional<TimePoint> partial_since_;
  TimePoint last_received_{};
  std::deque<TagReading> recent_tags_;  // for calibration (the last three)
  std::deque<Placement> recent_;        // the last three readings as pieces
  std::optional<Placement> mirror_;
  std::string last_refusal_;
  DecoderCounters counters_;
};

}  // namespace eboard::drivers::certabo
