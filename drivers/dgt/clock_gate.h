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
//   - "no clock" (status bit 5) after readings. It leaves a reading held before it held:
//     a damaged status bit that says "no clock" right after a press must not drop the press
//     (with a second press before the next report, both would be lost).
// The driver asks for the clock's state at once when it holds one (`41` DGT_SEND_CLK,
// §1.3), so a confirmation costs one round trip; a reading released, and its press, are
// still dated at its arrival (`at`; ClockReading::read_at). The next reading confirms the
// held one when it is consistent with it; when it is consistent with the last accepted reading
// instead, the held one was damage and is dropped; when it agrees with a reading the held
// one replaced, that one is confirmed and the ones after it were damage; otherwise the
// newer one is held in its place.
// Presses within the round trip (an emulator playing as fast as the host reads makes
// them, and damaged readings in between make the round trip longer) show in the readings
// held one after another. They were never confirmed, so they are released, in order
// before the confirmed one, only when a side of the confirmed reading shows more time
// than the accepted one leaves it (an increment: only presses add time; a time lower than
// expected is also what a clock that ran while readings were lost shows), and only as a
// chain of single presses from the accepted reading to the confirmed one: each reads as
// one press from the one before (the lever moved, the clock runs on the side the lever is
// now high on, the side that did not press kept its time, no flag fell unannounced), and
// the confirmed one as one press from the last. The shortest such chain is taken: a
// damaged copy of a press that shows the status before it would read as two presses more.
// The gate learns what presses add: the increment is the smaller of what the last two
// single presses it confirmed added to their presser's time (the smaller, since one of
// them may have added a next period's time), forgotten when the host sets the times
// (`times_set`: the driver calls it when it sends a set-and-run and when the clock
// acknowledges one). Once it is more than the tolerance, each press of a chain must add
// more than the tolerance too: a damaged copy with the status before a press, whose
// "presser" gained nothing, is no press.
// Two presses with no reading between them (its bytes lost, or a damaged copy only) leave
// a reading with the status of the one before them and both sides ahead. They are read from
// the times, as a link of the chain, with the reading between them rebuilt
// (`GatedReading::rebuilt`): the side whose clock ran pressed first, then the other; only
// when each side gained more than the tolerance and at most the increment plus twice the
// tolerance, the side whose clock ran could not have reached zero (a DGT 3000 adds a next
// period's time to both sides at zero), no flag, lever, turn or running bit changed, the
// two readings are at most 3 s apart (an arbiter's correction needs the clock stopped,
// and every reading of it would have had to be lost), and an increment was learnt since
// the host last set the times (a set-and-run may raise both). A chain of readings the
// clock sent is taken before one through a rebuilt reading.
// A damaged lever, turn or running bit, a damaged time or flag, or a flag fall, a stop or
// a correction that came meanwhile, is no press. Still lost (a move then waits for the
// next press): presses without an increment within the round trip (a delay or no
// increment, the first presses of a game and those after the host set the times, before
// two presses taught the increment); more than two presses with no reading between them
// (three read as one, four as none), or two whose readings are more than 3 s apart or
// gained more than the bound (a press that also began a period). Left to chance: an
// arbiter's change that raises both times by more than the tolerance and at most the
// increment plus twice the tolerance, with the clock running on, not through the host,
// within 3 s of the last reading and with every reading of the change lost, reads as two
// presses.
//
// Tolerance: 2 s. The DGT 3000 reports whole seconds (§1.8: BCD seconds), so two
// truncated readings of a running clock differ from the elapsed time by less than 1 s,
// and the clock data can lag the display by up to about 1 s in update nice mode (§1.8):
// 1 s of resolution plus 1 s of lag. A real change beyond it (an increment, a delay, an
// arbiter's correction) is only held for the round trip, never lost.
#pragma once

#include <array>
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
  std::size_t behind = 0;  // the caller's count of board messages held before it came
  // Not a reading the clock sent: the one between two presses no reading showed, rebuilt
  // from the times of the readings around them (clock_gate.cpp press_pair).
  bool rebuilt = false;
};

// What one reading lets through. Board messages that came while a reading was held wait
// with it (the driver keeps them), and go out once `resolved`: each before the first
// reading released that came after it, so that a press is never reported after the moves
// made behind it.
struct GateRelease {
  // Readings the held one replaced, shown real by `confirmed`: presses made within the
  // round trip, oldest first.
  std::vector<GatedReading> earlier;
  std::optional<GatedReading> confirmed;  // the held reading, confirmed by this one
  std::optional<ClockReading> passed;     // this reading, when it needs no confirmation
  bool resolved = false;                  // the reading held before is confirmed or dropped
  bool replaced = false;                  // this reading is held in place of another held one
  std::size_t count() const { return earlier.size() + confirmed.has_value() + passed.has_value(); }
};

class ClockGate {
 public:
  GateRelease offer(const GatedReading& reading);
  // The clock says it is not there: true when that is to be acted on now (no reading was
  // accepted before, or a second "no clock" confirms the first).
  bool offer_absent();
  bool holding() const { return held_.has_value() || absent_held_; }
  // The host sets the clock's times (a set-and-run command, sent or acknowledged): the
  // increment learnt from presses no longer holds, so no press is read from the times
  // until two presses after it show it again.
  void times_set();
  void reset();

 private:
  std::optional<GatedReading> accepted_;
  std::optional<GatedReading> held_;
  // The held readings held_ took the place of, oldest first (the last kReplacedKept).
  std::vector<GatedReading> replaced_;
  bool absent_held_ = false;
  // What the last two single presses added to their presser's time, oldest first.
  std::array<std::optional<Millis>, 2> gains_{};
  void learn_increments(const GatedReading& accepted, const std::vector<GatedReading>& presses,
                        const GatedReading& held);
  // What a press adds, as far as the gate knows: the smaller of the last two gains (one
  // of them may hold a next period's time).
  std::optional<Millis> increment() const;
};

// True when `next` differs from `base` only as a running clock does (no change of lever,
// turn, running or flag; times within the tolerance).
bool clock_consistent(const GatedReading& base, const GatedReading& next);
// False for a status byte no clock sends (bits 6-7, both turn bits, running with no turn).
bool clock_status_possible(std::uint8_t status);

}  // namespace eboard::drivers::dgt
