// Which DGT clock readings the driver acts on (docs/protocols.md §1.8 "Trusting a
// reading"). A clock message that had a byte damaged on the line can still frame and
// decode: a time hours off, a flag bit, a lever bit, a "no clock" bit. Presses and flags
// are changes between two readings, so one such message is enough for a false press or a
// false flag. The gate holds a reading that changes anything a ruling depends on until a
// second reading confirms it:
//   - the first reading after a connect (it is the reference for everything after it);
//   - the lever, the turn or the running bit changed (a press, a start or a stop);
//   - a flag appeared that the reading before did not announce (its side had more than
//     the tolerance left);
//   - a time differs from the previous reading, advanced by the time since on the side
//     that ran, by more than the tolerance;
//   - the status byte is impossible (bits 6-7 set, both turn bits, running with no turn)
//     and differs from the one last accepted;
//   - "no clock" (status bit 5) after readings.
// The driver asks for the clock's state at once when it holds one (`41` DGT_SEND_CLK,
// §1.3), so a confirmation costs one round trip. The next reading confirms the held one
// when it is consistent with it; when it is consistent with the last accepted reading
// instead, the held one was damage and is dropped; otherwise the newer one is held in its
// place. When that newer one is confirmed with the lever back where the last accepted
// reading had it but the times changed, both were presses made within the round trip (an
// emulator playing as fast as the host reads does that), and a reading it replaced is
// released first. That reading was never confirmed, so it is released only when it reads
// as one press from the accepted reading and the confirmed one as one press from it: the
// lever moved, the clock runs on the side the lever is now high on, the side that did not
// press kept its time, and no flag fell unannounced; and the confirmed reading's times are
// not what the accepted one shows with only the clock running. A damaged lever or running
// bit, a damaged time or flag, or a flag fall or stop that came meanwhile, is no press.
//
// Tolerance: 2 s. The DGT 3000 reports whole seconds (§1.8: BCD seconds), so two
// truncated readings of a running clock differ from the elapsed time by less than 1 s,
// and the clock data can lag the display by up to about 1 s in update nice mode (§1.8):
// 1 s of resolution plus 1 s of lag. A real change beyond it (an increment, a delay, an
// arbiter's correction) is only held for the round trip, never lost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "drivers/decoder.h"
#include "drivers/sensor_event.h"

namespace eboard::drivers::dgt {

inline constexpr Millis kClockTolerance{2000};

struct GatedReading {
  ClockReading reading;
  std::uint8_t status = 0;  // the raw status byte (§1.8 byte 9)
  TimePoint at{};
};

// What one reading lets through. Board messages that came while a reading was held wait
// with it (the driver keeps them), and go out once `resolved`: after `confirmed`, before
// `passed`, so that a press is never reported after the moves made behind it.
struct GateRelease {
  // A reading the held one replaced, shown real by `confirmed`: a second press came
  // within the round trip (the lever is back where it was, the times are not).
  std::optional<ClockReading> earlier;
  std::optional<ClockReading> confirmed;  // the held reading, confirmed by this one
  std::optional<ClockReading> passed;     // this reading, when it needs no confirmation
  bool resolved = false;                  // the reading held before is confirmed or dropped
  bool replaced = false;                  // this reading is held in place of another held one
  std::size_t count() const {
    return earlier.has_value() + confirmed.has_value() + passed.has_value();
  }
};

class ClockGate {
 public:
  GateRelease offer(const GatedReading& reading);
  // The clock says it is not there: true when that is to be acted on now (no reading was
  // accepted before, or a second "no clock" confirms the first).
  bool offer_absent();
  bool holding() const { return held_.has_value() || absent_held_; }
  void reset();

 private:
  std::optional<GatedReading> accepted_;
  std::optional<GatedReading> held_;
  // The held readings held_ took the place of, oldest first (at most kReplacedKept).
  std::vector<GatedReading> replaced_;
  bool absent_held_ = false;
};

// True when `next` differs from `base` only as a running clock does (no change of lever,
// turn, running or flag; times within the tolerance).
bool clock_consistent(const GatedReading& base, const GatedReading& next);
// False for a status byte no clock sends (bits 6-7, both turn bits, running with no turn).
bool clock_status_possible(std::uint8_t status);

}  // namespace eboard::drivers::dgt
