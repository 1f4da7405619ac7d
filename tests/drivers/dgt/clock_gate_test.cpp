// The clock gate (clock_gate.h): a reading that changes what a ruling depends on waits
// for a second one; damage the next reading contradicts is dropped.
#include "drivers/dgt/clock_gate.h"

#include <gtest/gtest.h>

namespace eboard::drivers::dgt {
namespace {

using std::chrono::milliseconds;

TimePoint at(int ms) { return TimePoint{} + milliseconds(ms); }

GatedReading running_left(int left_s, int right_s, int at_ms) {
  GatedReading g;
  g.reading.left = milliseconds(left_s * 1000);
  g.reading.right = milliseconds(right_s * 1000);
  g.reading.running = true;
  g.reading.turn = g.reading.lever_high = ClockSide::kLeft;
  g.status = 0x11;
  g.at = at(at_ms);
  return g;
}

// A gate whose reference is `first`, confirmed by the same reading 20 ms later.
ClockGate gate_after(const GatedReading& first) {
  ClockGate gate;
  EXPECT_TRUE(gate.offer(first).count() == 0) << "the first reading waits for a second";
  GatedReading again = first;
  again.at += milliseconds(20);
  EXPECT_EQ(gate.offer(again).count(), 2u);
  EXPECT_FALSE(gate.holding());
  return gate;
}

TEST(ClockGate, TheFirstReadingWaitsForASecond) {
  ClockGate gate;
  EXPECT_TRUE(gate.offer(running_left(600, 600, 0)).count() == 0);
  EXPECT_TRUE(gate.holding());
  EXPECT_EQ(gate.offer(running_left(599, 600, 1000)).count(), 2u);
}

// A damaged first reading (hours off) is not the reference: the next one, which it does
// not agree with, waits in its place and the one after confirms it.
TEST(ClockGate, ADamagedFirstReadingIsDropped) {
  ClockGate gate;
  EXPECT_TRUE(gate.offer(running_left(600, 0, 0)).count() == 0);
  EXPECT_TRUE(gate.offer(running_left(600, 600, 30)).count() == 0);
  const auto act = gate.offer(running_left(600, 600, 60));
  ASSERT_EQ(act.count(), 2u);
  EXPECT_EQ(act.confirmed->reading.right, milliseconds(600000));
}

TEST(ClockGate, ARunningClockPassesAtOnce) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  EXPECT_EQ(gate.offer(running_left(599, 600, 1000)).count(), 1u);
  // Truncated whole seconds and the report's lag: within 2 s of the model.
  EXPECT_EQ(gate.offer(running_left(599, 600, 2900)).count(), 1u);
  EXPECT_FALSE(gate.holding());
  // 2.1 s off is a jump.
  EXPECT_TRUE(gate.offer(running_left(599, 600, 5000)).count() == 0);
}

// The measured fault: one corrupted 8D showing a fallen flag with hours of time left.
TEST(ClockGate, AnUnannouncedFlagWaitsAndDamageIsDropped) {
  ClockGate gate = gate_after(running_left(8020, 5000, 0));
  GatedReading damaged = running_left(8019, 5000, 1000);
  damaged.reading.left_flag = true;
  EXPECT_TRUE(gate.offer(damaged).count() == 0);
  EXPECT_TRUE(gate.holding());
  const auto next = gate.offer(running_left(8018, 5000, 1100));
  ASSERT_EQ(next.count(), 1u);
  EXPECT_FALSE(next.passed->left_flag);
  EXPECT_FALSE(gate.holding());
}

TEST(ClockGate, AFlagTheReadingBeforeAnnouncedPassesAtOnce) {
  ClockGate gate = gate_after(running_left(1, 300, 0));
  GatedReading fallen = running_left(0, 300, 1000);
  fallen.reading.left_flag = true;
  EXPECT_EQ(gate.offer(fallen).count(), 1u);
}

TEST(ClockGate, AConfirmedFlagPasses) {
  ClockGate gate = gate_after(running_left(300, 300, 0));
  GatedReading fallen = running_left(0, 300, 1000);
  fallen.reading.left_flag = true;
  EXPECT_TRUE(gate.offer(fallen).count() == 0);
  fallen.at = at(1030);
  const auto both = gate.offer(fallen);
  ASSERT_EQ(both.count(), 2u);
  EXPECT_TRUE(both.confirmed->reading.left_flag);
}

TEST(ClockGate, APressIsConfirmedByTheNextReading) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading pressed = running_left(590, 600, 10000);
  pressed.reading.turn = pressed.reading.lever_high = ClockSide::kRight;
  pressed.status = 0x0B;
  EXPECT_TRUE(gate.offer(pressed).count() == 0);
  GatedReading confirm = pressed;
  confirm.at = at(10020);
  const auto both = gate.offer(confirm);
  ASSERT_EQ(both.count(), 2u);
  EXPECT_EQ(both.confirmed->reading.turn, ClockSide::kRight);
}

TEST(ClockGate, AFlippedLeverTheNextReadingDeniesIsNoPress) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading flipped = running_left(599, 600, 1000);
  flipped.reading.lever_high = flipped.reading.turn = ClockSide::kRight;
  flipped.status = 0x0B;
  EXPECT_TRUE(gate.offer(flipped).count() == 0);
  const auto next = gate.offer(running_left(599, 600, 1030));
  ASSERT_EQ(next.count(), 1u);
  EXPECT_EQ(next.passed->lever_high, ClockSide::kLeft);
  EXPECT_TRUE(next.resolved);
}

// A damaged confirmation delays a real press; it is not lost once the clock reports again:
// the next report agrees with the press the damaged one replaced, and confirms it.
TEST(ClockGate, ADamagedConfirmationOnlyDelaysAPress) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading pressed = running_left(590, 600, 10000);
  pressed.reading.turn = pressed.reading.lever_high = ClockSide::kRight;
  pressed.status = 0x0B;
  EXPECT_TRUE(gate.offer(pressed).count() == 0);
  GatedReading damaged = pressed;
  damaged.at = at(10020);
  damaged.reading.left = milliseconds(5000 * 1000);
  EXPECT_TRUE(gate.offer(damaged).count() == 0);
  pressed.at = at(10040);
  const auto act = gate.offer(pressed);
  ASSERT_EQ(act.count(), 2u);
  EXPECT_TRUE(act.earlier.empty());
  EXPECT_EQ(act.confirmed->reading.lever_high, ClockSide::kRight);
  EXPECT_EQ(act.confirmed->reading.left, milliseconds(590000));
  EXPECT_EQ(act.passed->lever_high, ClockSide::kRight);
  EXPECT_FALSE(gate.holding());
}

// Two presses inside one round trip (an emulator that plays as fast as the host reads):
// the second reading replaces the first before it is confirmed, and brings the lever back.
// Its times show both presses happened, so both are released, in order.
TEST(ClockGate, TwoPressesWithinARoundTripAreBothReleased) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading first = running_left(625, 600, 5000);  // left pressed, +30 s
  first.reading.turn = first.reading.lever_high = ClockSide::kRight;
  first.status = 0x0B;
  EXPECT_EQ(gate.offer(first).count(), 0u);
  GatedReading second = running_left(625, 630, 5010);  // right pressed, +30 s
  const GateRelease replaced = gate.offer(second);
  EXPECT_EQ(replaced.count(), 0u);
  EXPECT_TRUE(replaced.replaced);
  second.at = at(5030);
  const GateRelease both = gate.offer(second);
  ASSERT_EQ(both.earlier.size(), 1u);
  EXPECT_EQ(both.earlier[0].reading.lever_high, ClockSide::kRight);
  ASSERT_TRUE(both.confirmed.has_value());
  EXPECT_EQ(both.confirmed->reading.lever_high, ClockSide::kLeft);
  EXPECT_TRUE(both.resolved);
}

// A reading whose lever bit was flipped on the line, replaced before its confirmation by a
// reading that changed for another reason: the replaced one is no press. Without a check of
// it, the confirmed reading's lever, back where it was, made two presses nobody made.
TEST(ClockGate, AFlippedLeverBitIsNoPressWhenTheClockStopsMeanwhile) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading damaged = running_left(595, 600, 5000);
  damaged.reading.lever_high = ClockSide::kRight;  // status 0x11 -> 0x13, the turn unchanged
  damaged.status = 0x13;
  EXPECT_EQ(gate.offer(damaged).count(), 0u);
  GatedReading stopped = running_left(595, 600, 5010);  // the arbiter stopped the clock
  stopped.reading.running = false;
  stopped.status = 0x10;
  EXPECT_TRUE(gate.offer(stopped).replaced);
  stopped.at = at(5030);
  const GateRelease release = gate.offer(stopped);
  EXPECT_TRUE(release.earlier.empty());
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_FALSE(release.confirmed->reading.running);
}

// The whole status byte replaced by one a press gives (lever and turn on the right), with
// the times unchanged; then the left flag falls, announced: the flag, and no press.
TEST(ClockGate, ADamagedStatusIsNoPressWhenAFlagFallsMeanwhile) {
  ClockGate gate = gate_after(running_left(2, 600, 0));
  GatedReading damaged = running_left(2, 600, 500);
  damaged.reading.lever_high = damaged.reading.turn = ClockSide::kRight;
  damaged.status = 0x0B;
  EXPECT_EQ(gate.offer(damaged).count(), 0u);
  GatedReading fallen = running_left(0, 600, 510);
  fallen.reading.left_flag = true;
  EXPECT_TRUE(gate.offer(fallen).replaced);
  fallen.at = at(530);
  const GateRelease release = gate.offer(fallen);
  EXPECT_TRUE(release.earlier.empty());
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_TRUE(release.confirmed->reading.left_flag);
}

// A flipped running bit (the lever up on the right, the clock stopped, nobody's turn) then
// an arbiter's correction of the times: the correction, and no press.
TEST(ClockGate, AFlippedRunningBitIsNoPressWhenTheTimesAreCorrectedMeanwhile) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading damaged = running_left(595, 600, 5000);
  damaged.reading.lever_high = ClockSide::kRight;
  damaged.reading.running = false;
  damaged.reading.turn.reset();
  damaged.status = 0x02;
  EXPECT_EQ(gate.offer(damaged).count(), 0u);
  GatedReading corrected = running_left(900, 600, 5010);
  EXPECT_TRUE(gate.offer(corrected).replaced);
  corrected.at = at(5030);
  const GateRelease release = gate.offer(corrected);
  EXPECT_TRUE(release.earlier.empty());
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.left, milliseconds(900000));
}

// Two presses within a round trip, the first one's reading followed by a damaged copy of
// it (the waiting side's time hours off): the press released is the first one as the
// clock sent it, not the copy with the impossible time.
TEST(ClockGate, ADamagedCopyOfAPressIsNotTheOneReleased) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading first = running_left(625, 600, 5000);  // left pressed, +30 s
  first.reading.turn = first.reading.lever_high = ClockSide::kRight;
  first.status = 0x0B;
  EXPECT_EQ(gate.offer(first).count(), 0u);
  GatedReading copy = first;
  copy.at = at(5005);
  copy.reading.right = milliseconds((3 * 3600 + 600) * 1000);  // hours byte 0 -> 3
  EXPECT_TRUE(gate.offer(copy).replaced);
  GatedReading second = running_left(625, 630, 5010);  // right pressed, +30 s
  EXPECT_TRUE(gate.offer(second).replaced);
  second.at = at(5030);
  const GateRelease both = gate.offer(second);
  ASSERT_EQ(both.earlier.size(), 1u);
  EXPECT_EQ(both.earlier[0].reading.right, milliseconds(600000));
  EXPECT_EQ(both.earlier[0].reading.lever_high, ClockSide::kRight);
  ASSERT_TRUE(both.confirmed.has_value());
  EXPECT_EQ(both.confirmed->reading.lever_high, ClockSide::kLeft);
}

// The same with only the damaged copy left of the first press: it is not released (its
// times cannot be trusted); the presses are lost to the clock, as two presses within a
// round trip without increments are, and the board's moves are judged without them.
TEST(ClockGate, APressKnownOnlyFromADamagedReadingIsNotReleased) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading copy = running_left(625, 600, 5000);
  copy.reading.turn = copy.reading.lever_high = ClockSide::kRight;
  copy.reading.right = milliseconds((3 * 3600 + 600) * 1000);
  copy.status = 0x0B;
  EXPECT_EQ(gate.offer(copy).count(), 0u);
  GatedReading second = running_left(625, 630, 5010);
  EXPECT_TRUE(gate.offer(second).replaced);
  second.at = at(5030);
  const GateRelease release = gate.offer(second);
  EXPECT_TRUE(release.earlier.empty());
  EXPECT_TRUE(release.confirmed.has_value());
}

// A status byte damaged into "no clock" right after a press does not drop the held press:
// the clock's next report confirms it. Dropped, and with the other player's press before
// the next report, both presses were lost.
TEST(ClockGate, ADamagedNoClockBitDoesNotDropAHeldPress) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading pressed = running_left(625, 600, 5000);
  pressed.reading.turn = pressed.reading.lever_high = ClockSide::kRight;
  pressed.status = 0x0B;
  EXPECT_EQ(gate.offer(pressed).count(), 0u);
  EXPECT_FALSE(gate.offer_absent());
  EXPECT_TRUE(gate.holding());
  pressed.at = at(5040);
  const GateRelease release = gate.offer(pressed);
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kRight);
  EXPECT_FALSE(gate.holding());
}

// Three presses within one confirmation, each reading after a press followed by a damaged
// one: the chain of single presses is released whole, in order.
TEST(ClockGate, PressesBehindDamagedReadingsAreReleasedInOrder) {
  GatedReading accepted = running_left(600, 600, 0);
  ClockGate gate = gate_after(accepted);
  GatedReading first = running_left(625, 600, 5000);  // left pressed, +30 s
  first.reading.turn = first.reading.lever_high = ClockSide::kRight;
  first.status = 0x0B;
  first.behind = 0;
  EXPECT_EQ(gate.offer(first).count(), 0u);
  GatedReading copy = first;  // the left time's hours damaged
  copy.at = at(5005);
  copy.reading.left = milliseconds((2 * 3600 + 625) * 1000);
  EXPECT_TRUE(gate.offer(copy).replaced);
  GatedReading second = running_left(625, 630, 5050);  // right pressed, +30 s
  second.behind = 1;
  EXPECT_TRUE(gate.offer(second).replaced);
  GatedReading third = running_left(655, 630, 5100);  // left pressed, +30 s
  third.reading.turn = third.reading.lever_high = ClockSide::kRight;
  third.status = 0x0B;
  third.behind = 2;
  EXPECT_TRUE(gate.offer(third).replaced);
  third.at = at(5120);
  const GateRelease release = gate.offer(third);
  ASSERT_EQ(release.earlier.size(), 2u);
  EXPECT_EQ(release.earlier[0].reading.left, milliseconds(625000));
  EXPECT_EQ(release.earlier[0].reading.lever_high, ClockSide::kRight);
  EXPECT_EQ(release.earlier[1].reading.lever_high, ClockSide::kLeft);
  EXPECT_EQ(release.earlier[1].behind, 1u);
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kRight);
  EXPECT_EQ(release.confirmed->behind, 2u);
}

// A copy of a press with the status before it (damage), between the press and its next
// report: one press, not three.
TEST(ClockGate, ACopyWithTheStatusBeforeAPressIsNoTwoMorePresses) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading pressed = running_left(625, 600, 5000);
  pressed.reading.turn = pressed.reading.lever_high = ClockSide::kRight;
  pressed.status = 0x0B;
  EXPECT_EQ(gate.offer(pressed).count(), 0u);
  GatedReading copy = running_left(625, 600, 5020);  // the status byte back to 0x11
  EXPECT_TRUE(gate.offer(copy).replaced);
  GatedReading next = pressed;
  next.at = at(5040);
  next.reading.right = milliseconds(599000);
  const GateRelease release = gate.offer(next);
  EXPECT_TRUE(release.earlier.empty());
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kRight);
  EXPECT_FALSE(gate.holding());
}

// Readings lost while the clock ran (a jump down, within what a running clock explains
// over a longer time) after a damaged status that reads as a press: no presses.
TEST(ClockGate, AClockThatRanWhileReadingsWereLostIsNoPress) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading damaged = running_left(595, 600, 5000);
  damaged.reading.turn = damaged.reading.lever_high = ClockSide::kRight;
  damaged.status = 0x0B;
  EXPECT_EQ(gate.offer(damaged).count(), 0u);
  GatedReading later = running_left(592, 600, 5100);  // 3 s less than 100 ms explain
  EXPECT_TRUE(gate.offer(later).replaced);
  later.at = at(5120);
  const GateRelease release = gate.offer(later);
  EXPECT_TRUE(release.earlier.empty());
  ASSERT_TRUE(release.confirmed.has_value());
}

// The same reading with the lever and the turn on the right (the left player pressed).
GatedReading running_right(int left_s, int right_s, int at_ms) {
  GatedReading g = running_left(left_s, right_s, at_ms);
  g.reading.turn = g.reading.lever_high = ClockSide::kRight;
  g.status = 0x0B;
  return g;
}

// Offers `g` and, 20 ms later, the same reading again: its confirmation.
GateRelease offer_confirmed(ClockGate& gate, GatedReading g) {
  EXPECT_EQ(gate.offer(g).count(), 0u) << "a change waits for its confirmation";
  g.at += milliseconds(20);
  return gate.offer(g);
}

// A gate that has seen two presses add 30 s each (a game at 10 min + 30 s): at 10 000 ms
// both sides show 625 s and the left clock runs.
ClockGate gate_after_presses() {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  EXPECT_TRUE(offer_confirmed(gate, running_right(625, 600, 5000)).confirmed);
  EXPECT_TRUE(offer_confirmed(gate, running_left(625, 625, 10000)).confirmed);
  return gate;
}

// Two presses and no reading between them (its bytes lost on the line, or a damaged one):
// the next reading shows the status before them, and both sides 30 s ahead, less the
// time each clock ran. The first to press is the side whose clock ran; the reading
// between the presses is given back before the confirmed one, so both are reported.
TEST(ClockGate, TwoPressesWithNoReadingBetweenAreReadFromTheTimes) {
  ClockGate gate = gate_after_presses();
  // The left pressed at 10 500 ms (625 - 0.5 + 30), the right at 11 000 (625 - 0.5 + 30).
  const GateRelease release = offer_confirmed(gate, running_left(654, 654, 11050));
  ASSERT_EQ(release.earlier.size(), 1u);
  EXPECT_EQ(release.earlier[0].reading.lever_high, ClockSide::kRight);
  EXPECT_EQ(release.earlier[0].reading.turn, ClockSide::kRight);
  EXPECT_EQ(release.earlier[0].reading.left, milliseconds(654000));
  EXPECT_EQ(release.earlier[0].reading.right, milliseconds(625000));
  EXPECT_EQ(release.earlier[0].status, 0x0B);
  EXPECT_TRUE(release.earlier[0].rebuilt);
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kLeft);
  EXPECT_FALSE(gate.holding());
}

// The same, and a third press before the reading after the two was confirmed: the
// rebuilt reading, the one after the two presses, then the confirmed third.
TEST(ClockGate, TwoPressesReadFromTheTimesChainToAThird) {
  ClockGate gate = gate_after_presses();
  EXPECT_EQ(gate.offer(running_left(654, 654, 11050)).count(), 0u);
  // The left pressed again at 11 500 ms (654 - 0.5 + 30).
  EXPECT_TRUE(gate.offer(running_right(683, 654, 11550)).replaced);
  const GateRelease release = gate.offer(running_right(683, 654, 11570));
  ASSERT_EQ(release.earlier.size(), 2u);
  EXPECT_TRUE(release.earlier[0].rebuilt);
  EXPECT_EQ(release.earlier[0].reading.lever_high, ClockSide::kRight);
  EXPECT_FALSE(release.earlier[1].rebuilt);
  EXPECT_EQ(release.earlier[1].reading.lever_high, ClockSide::kLeft);
  EXPECT_EQ(release.earlier[1].reading.left, milliseconds(654000));
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kRight);
}

// A press, then two with no reading between them: the press the clock reported, the
// rebuilt reading, then the confirmed one.
TEST(ClockGate, TwoPressesReadFromTheTimesFollowAPress) {
  ClockGate gate = gate_after_presses();
  // The left pressed at 10 500 ms (625 - 0.5 + 30), the right at 11 000 (625 - 0.5 + 30),
  // the left again at 11 500 (654 - 0.5 + 30).
  EXPECT_EQ(gate.offer(running_right(654, 625, 10550)).count(), 0u);
  EXPECT_TRUE(gate.offer(running_right(683, 654, 11550)).replaced);
  const GateRelease release = gate.offer(running_right(683, 654, 11570));
  ASSERT_EQ(release.earlier.size(), 2u);
  EXPECT_FALSE(release.earlier[0].rebuilt);
  EXPECT_EQ(release.earlier[0].reading.lever_high, ClockSide::kRight);
  EXPECT_TRUE(release.earlier[1].rebuilt);
  EXPECT_EQ(release.earlier[1].reading.lever_high, ClockSide::kLeft);
  EXPECT_EQ(release.earlier[1].reading.left, milliseconds(654000));
  EXPECT_EQ(release.earlier[1].reading.right, milliseconds(654000));
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kRight);
}

// Without two presses that showed an increment, both times ahead is no press.
TEST(ClockGate, NoPressIsReadFromTheTimesBeforeIncrementsWereSeen) {
  ClockGate gate = gate_after(running_left(625, 625, 10000));
  const GateRelease release = offer_confirmed(gate, running_left(654, 654, 11050));
  EXPECT_TRUE(release.earlier.empty());
  EXPECT_TRUE(release.confirmed.has_value());
}

// Both times ahead by more than the presses add (an arbiter's correction), by the same
// as they add but with the clock about to reach zero (a next period's time, which the DGT
// 3000 adds to both sides at zero), longer than kPairWindow after the reading before, or
// after the host set the times: no press.
TEST(ClockGate, BothTimesAheadForAnotherReasonAreNoPresses) {
  {
    ClockGate gate = gate_after_presses();
    EXPECT_TRUE(offer_confirmed(gate, running_left(925, 925, 11050)).earlier.empty());
  }
  {
    ClockGate gate = gate_after_presses();
    EXPECT_TRUE(offer_confirmed(gate, running_left(2, 625, 10500)).confirmed);  // corrected
    EXPECT_TRUE(offer_confirmed(gate, running_left(30, 654, 11500)).earlier.empty());
  }
  {
    ClockGate gate = gate_after_presses();
    EXPECT_TRUE(offer_confirmed(gate, running_left(650, 654, 14000)).earlier.empty());
  }
  {
    ClockGate gate = gate_after_presses();
    gate.times_set();
    EXPECT_TRUE(offer_confirmed(gate, running_left(654, 654, 11050)).earlier.empty());
  }
}

// A damaged copy of a press with the status byte of the reading before it, and the clock
// after it showing the side that runs more than the tolerance behind the time since (its
// report lags): the copy reads as the other player's press, and the confirmed reading as
// a third. The copy's presser gained nothing on a clock that adds an increment: no press,
// and the confirmed reading is the one press.
TEST(ClockGate, AReadingWhosePresserGainedNoIncrementIsNoPress) {
  ClockGate gate = gate_after_presses();
  EXPECT_EQ(gate.offer(running_right(650, 625, 15000)).count(), 0u);  // the left pressed
  EXPECT_TRUE(gate.offer(running_left(650, 624, 15040)).replaced);    // status 0x0B -> 0x11
  EXPECT_TRUE(gate.offer(running_right(650, 622, 15080)).replaced);
  const GateRelease release = gate.offer(running_right(650, 622, 15100));
  EXPECT_TRUE(release.earlier.empty());
  ASSERT_TRUE(release.confirmed.has_value());
  EXPECT_EQ(release.confirmed->reading.lever_high, ClockSide::kRight);
}

TEST(ClockGate, ATimeJumpWaitsAndAConfirmedOnePasses) {
  {
    ClockGate gate = gate_after(running_left(4000, 600, 0));
    EXPECT_TRUE(gate.offer(running_left(400, 600, 1000)).count() == 0);  // hours off
    EXPECT_EQ(gate.offer(running_left(3998, 600, 2000)).count(), 1u);
  }
  ClockGate gate = gate_after(running_left(600, 600, 0));
  EXPECT_TRUE(gate.offer(running_left(900, 600, 1000)).count() == 0);  // an arbiter's correction
  EXPECT_EQ(gate.offer(running_left(900, 600, 1020)).count(), 2u);
}

TEST(ClockGate, NoClockAfterReadingsWaitsForASecond) {
  ClockGate gate = gate_after(running_left(600, 600, 0));
  EXPECT_FALSE(gate.offer_absent());
  EXPECT_TRUE(gate.holding());
  EXPECT_EQ(gate.offer(running_left(599, 600, 1000)).count(), 1u) << "damage: the clock is there";
  EXPECT_FALSE(gate.offer_absent());
  EXPECT_TRUE(gate.offer_absent());
  ClockGate fresh;
  EXPECT_TRUE(fresh.offer_absent()) << "no clock from the start";
}

TEST(ClockGate, ImpossibleStatusBits) {
  EXPECT_TRUE(clock_status_possible(0x11));
  EXPECT_TRUE(clock_status_possible(0x0B));
  EXPECT_TRUE(clock_status_possible(0x00));
  EXPECT_FALSE(clock_status_possible(0x19));  // both turn bits
  EXPECT_FALSE(clock_status_possible(0x01));  // running, nobody's turn
  EXPECT_FALSE(clock_status_possible(0x51));  // bit 6
  ClockGate gate = gate_after(running_left(600, 600, 0));
  GatedReading odd = running_left(599, 600, 1000);
  odd.status = 0x51;
  EXPECT_TRUE(gate.offer(odd).count() == 0);
}

}  // namespace
}  // namespace eboard::drivers::dgt
