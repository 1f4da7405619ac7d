// The Millennium ChessLink / eONE / Exclusive / Performance board behind the Decoder
// interface (docs/protocols.md §5).
//
// Link life: on connect the version request `V`; its answer confirms the device (and
// names the model, §5 research notes: 0.x Exclusive, 1.x Performance, 2.x eONE). Then
// automatic reports are set to "on a change stable for 2 scans" (E2ROM 02 = 04, the
// board's own debounce) and a full status `S` is asked for. Every status is the whole
// board, so the first one after a connect or a resync restores the picture (kInSync);
// later ones are compared with it and each differing square is one SquareChanged.
// Replies are matched by their letter: automatic reports may come between a command and
// its answer. No clock on this link (ClockAbsent after the handshake).
//
// Orientation: the 64 characters come in the board's physical order, which depends on
// the side the cable is on. Two drivers (python-mchess, mono424/chesslinkdriver) read
// index 0 as h1 (the note's a8-first order turned round); that is assumed until a status
// shows the start position the other way round, which switches the order and is kept
// across reconnects. A board found in the middle of a game keeps the last order known.
//
// Lights: the 81 corner LEDs (§5: LED 1 at the a8 corner, 9 at a1, 73 at h8, 81 at h1
// in the note's order, turned round with the squares); a square is lit by its four
// corners. `L` and `X` are sent without waiting for `l`/`x` (a Performance does not
// answer them), so sensor reports are never held up.
#pragma once

#include <optional>

#include "drivers/chesslink/chesslink_framer.h"
#include "drivers/chesslink/chesslink_protocol.h"
#include "drivers/decoder.h"

namespace eboard::drivers::chesslink {

// Which way the 64 status characters run (see above).
enum class Orientation : std::uint8_t {
  kReversed,    // index 0 = h1, 63 = a8 (the drivers' default)
  kDocumented,  // index 0 = a8, 63 = h1 (the note's order)
};
int square_of(std::size_t index, Orientation orientation);
// The LED number (0-based) of corner (file edge 0..8, rank edge 0..8 from the 8th rank's
// top edge), in the board's physical numbering.
std::size_t led_of(int file_edge, int rank_edge, Orientation orientation);

class ChessLinkDriver final : public Decoder {
 public:
  void on_connected(TimePoint now, DecoderOutput& out) override;
  void on_disconnected() override;
  void on_bytes(std::span<const std::uint8_t> bytes, TimePoint now, DecoderOutput& out) override;
  void on_timer(TimePoint now, DecoderOutput& out) override;
  std::optional<TimePoint> next_deadline() const override;
  bool send_clock(const ClockCommand&, TimePoint, DecoderOutput&) override { return false; }
  DecoderCounters counters() const override;
  DecoderTraits traits() const override { return {false, true, Sensing::kIdentity}; }
  bool in_sync() const override { return confirmed_ && mirror_ && !status_requested_at_; }
  bool set_lights(const Lights& lights, TimePoint now, DecoderOutput& out) override;

  bool confirmed() const { return confirmed_; }
  Orientation orientation() const { return orientation_; }

 private:
  void handle(const Reply& reply, TimePoint now, DecoderOutput& out);
  void handle_version(const std::string& data, TimePoint now, DecoderOutput& out);
  void handle_status(const std::string& data, DecoderOutput& out);
  std::optional<Placement> decode(const std::string& data, Orientation orientation) const;
  void resync(const std::string& why, TimePoint now, DecoderOutput& out);
  void request_status(TimePoint now, DecoderOutput& out);
  void send(const Bytes& bytes, TimePoint now, DecoderOutput& out);

  Framer framer_;
  Orientation orientation_ = Orientation::kReversed;
  bool connected_ = false;
  bool confirmed_ = false;
  bool handshake_resent_ = false;
  bool silent_reported_ = false;
  std::optional<TimePoint> handshake_deadline_;
  std::optional<TimePoint> status_requested_at_;  // set while a status is awaited
  std::optional<TimePoint> partial_since_;
  TimePoint last_received_{};
  TimePoint last_sent_{};
  std::optional<Placement> mirror_;
  DecoderCounters counters_;
};

}  // namespace eboard::drivers::chesslink
