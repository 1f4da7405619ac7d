#include "drivers/dgt/dgt_driver.h"

#include <gtest/gtest.h>

#include "drivers/dgt/dgt_messages.h"
#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers::dgt {
namespace {

using std::chrono::milliseconds;

Placement start_placement() {
  Placement p{};
  const char* rows = "RNBQKBNRPPPPPPPP................................pppppppprnbqkbnr";
  for (int sq = 0; sq < 64; ++sq) p[sq] = *piece_from_letter(rows[sq]);
  return p;
}

const Bytes kVersion = {0x93, 0x00, 0x05, 0x03, 0x0A};

class DgtDriverTest : public ::testing::Test {
 protected:
  DecoderOutput feed(const Bytes& bytes, int at_ms) {
    DecoderOutput out;
    driver.on_bytes(bytes, t(at_ms), out);
    return out;
  }
  DecoderOutput timer(int at_ms) {
    DecoderOutput out;
    driver.on_timer(t(at_ms), out);
    return out;
  }
  static TimePoint t(int ms) { return TimePoint{} + milliseconds(ms); }
  // Connect, answer the handshake, deliver the start dump.
  void bring_up() {
    DecoderOutput out;
    driver.on_connected(t(0), out);
    EXPECT_EQ(out.to_send, (Bytes{kSendUpdateNice, kSendVersion}));
    out = feed(kVersion, 10);
    // The dump, the clock's state (41: the lever's reference reading), the serial number,
    // the clock's version.
    EXPECT_EQ(out.to_send,
              (Bytes{kSendBoard, kSendClock, kSendReturnSerial(), 0x2B, 0x03, 0x03, 0x09, 0x00}));
    EXPECT_FALSE(driver.in_sync());
    out = feed(encode_board_dump(start_placement()), 20);
    ASSERT_EQ(out.events.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<PlacementSeen>(out.events[0]));
    EXPECT_EQ(std::get<LinkStatus>(out.events[1]).state, LinkState::kInSync);
    EXPECT_TRUE(driver.in_sync());
  }
  // A clock message and its repetition 20 ms later, as the clock answers the `41` the
  // driver sends when its gate holds a reading (clock_gate.h): what both produced.
  DecoderOutput feed_confirmed(const Bytes& bytes, int at_ms) {
    DecoderOutput out = feed(bytes, at_ms);
    DecoderOutput again = feed(bytes, at_ms + 20);
    out.events.insert(out.events.end(), again.events.begin(), again.events.end());
    out.to_send.insert(out.to_send.end(), again.to_send.begin(), again.to_send.end());
    return out;
  }
  static std::uint8_t kSendReturnSerial() { return kReturnSerialNr; }
  template <class T>
  static std::vector<T> only(const DecoderOutput& out) {
    std::vector<T> found;
    for (const SensorEvent& e : out.events) {
      if (const T* x = std::get_if<T>(&e)) found.push_back(*x);
    }
    return found;
  }

  DgtDriver driver;
};

TEST_F(DgtDriverTest, HandshakeConfirmsAndReportsTheVersion) {
  bring_up();
  EXPECT_TRUE(driver.confirmed());
  EXPECT_EQ(*driver.placement(), start_placement());
}

TEST_F(DgtDriverTest, IgnoresStaleMessagesBeforeTheVersion) {
  DecoderOutput out;
  driver.on_connected(t(0), out);
  out = feed(encode_field_update(52, 0), 5);
  EXPECT_TRUE(out.events.empty());
}

TEST_F(DgtDriverTest, HandshakeIsResentOnceThenReportedUnanswered) {
  DecoderOutput out;
  driver.on_connected(t(0), out);
  EXPECT_EQ(*driver.next_deadline(), t(2000));
  out = timer(2000);
  EXPECT_EQ(out.to_send, (Bytes{kSendUpdateNice, kSendVersion}));
  out = timer(4000);
  ASSERT_EQ(only<LinkStatus>(out).size(), 1u);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kNoAnswer);
}

TEST_F(DgtDriverTest, FieldUpdatesBecomeSquareChanges) {
  bring_up();
  const auto out = feed({0x8E, 0x00, 0x05, 0x34, 0x00, 0x8E, 0x00, 0x05, 0x24, 0x01}, 100);
  const auto changes = only<SquareChanged>(out);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].square, 12);
  EXPECT_EQ(changes[0].piece, Piece::kEmpty);
  EXPECT_EQ(changes[1].square, 28);
  EXPECT_EQ(changes[1].piece, Piece::kWhitePawn);
  // A repeated report is not a change.
  EXPECT_TRUE(only<SquareChanged>(feed({0x8E, 0x00, 0x05, 0x24, 0x01}, 120)).empty());
}

TEST_F(DgtDriverTest, GarbageRequestsADumpAndHoldsUpdatesUntilIt) {
  bring_up();
  auto out = feed({0x8E, 0x00, 0x05, 0x34, 0x8E, 0x00, 0x05, 0x24, 0x01}, 100);
  EXPECT_TRUE(only<SquareChanged>(out).empty());  // held: the dump will tell
  ASSERT_EQ(only<LinkStatus>(out).size(), 1u);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kResync);
  // The dump, and the clock's state: a press in the lost bytes shows in the lever.
  EXPECT_EQ(out.to_send, (Bytes{kSendBoard, kSendClock}));
  EXPECT_EQ(driver.counters().discarded_bytes, 4u);
  Placement after = start_placement();
  after[12] = Piece::kEmpty;
  after[28] = Piece::kWhitePawn;
  out = feed(encode_board_dump(after), 150);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(*driver.placement(), after);
  EXPECT_EQ(only<SquareChanged>(feed({0x8E, 0x00, 0x05, 0x24, 0x00}, 200)).size(), 1u);
}

// A dump and, behind it in the same read, a clock message cut by a lost byte (measured on
// the DGT emulator dropping a byte of every 30th message): the dump shows the board before
// the loss. Reported after the resync, it ended the resync at once, and the press the cut
// message carried, reported with the clock's next state, was judged against a board that
// had moved on meanwhile: a false illegal move. The loss comes after the dump, and the
// resync waits for the dump it asks for.
TEST_F(DgtDriverTest, ADumpBeforeTheLostBytesDoesNotEndTheirResync) {
  bring_up();
  ClockReading r;
  r.left = r.right = Millis(180000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  Bytes cut = encode_bwtime(r);
  cut.erase(cut.begin() + 5);
  Bytes read = encode_board_dump(start_placement());
  read.insert(read.end(), cut.begin(), cut.end());
  const Bytes next = encode_field_update(52, 0x00);  // the next message, after the cut one
  read.insert(read.end(), next.begin(), next.end());
  auto out = feed(read, 100);
  ASSERT_EQ(out.events.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<PlacementSeen>(out.events[0]));
  EXPECT_EQ(std::get<LinkStatus>(out.events[1]).state, LinkState::kInSync);
  EXPECT_EQ(std::get<LinkStatus>(out.events[2]).state, LinkState::kResync);
  EXPECT_EQ(out.to_send, (Bytes{kSendBoard, kSendClock}));
  EXPECT_FALSE(driver.in_sync()) << "the dump asked for after the loss is awaited";
  out = feed(encode_board_dump(start_placement()), 150);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_TRUE(driver.in_sync());
}

TEST_F(DgtDriverTest, AMessageStuckHalfReceivedIsDroppedAfterAQuietTime) {
  bring_up();
  auto out = feed({0x8E, 0x00, 0x05, 0x34}, 100);
  EXPECT_TRUE(out.events.empty());
  EXPECT_EQ(*driver.next_deadline(), t(100 + kPartialTimeoutMs));
  out = timer(100 + kPartialTimeoutMs);
  EXPECT_EQ(out.to_send, (Bytes{kSendBoard, kSendClock}));
  EXPECT_EQ(driver.counters().discarded_bytes, 4u);
}

// A clock message cut by a lost byte: the press it carried comes with the clock's state
// that the resync asks for, compared with the last reading before the loss.
TEST_F(DgtDriverTest, APressInDiscardedBytesComesWithTheRequestedClockState) {
  bring_up();
  ClockReading r;
  r.left = r.right = Millis(180000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  r.lever_high = r.turn = ClockSide::kRight;
  Bytes cut = encode_bwtime(r);
  cut.erase(cut.begin() + 5);
  auto out = feed(cut, 1000);
  out = timer(1000 + kPartialTimeoutMs);
  EXPECT_EQ(out.to_send, (Bytes{kSendBoard, kSendClock}));
  EXPECT_TRUE(only<LeverPressed>(out).empty());
  out = feed_confirmed(encode_bwtime(r), 1600);
  ASSERT_EQ(only<LeverPressed>(out).size(), 1u);
  EXPECT_EQ(only<LeverPressed>(out)[0].side, ClockSide::kLeft);
}

TEST_F(DgtDriverTest, LeverChangesArePresses) {
  bring_up();
  ClockReading r;
  r.left = Millis(180000);
  r.right = Millis(180000);
  r.running = true;
  r.lever_high = ClockSide::kLeft;
  r.turn = ClockSide::kLeft;
  auto out = feed_confirmed(encode_bwtime(r), 100);
  EXPECT_TRUE(only<LeverPressed>(out).empty());  // first reading: reference only
  EXPECT_EQ(only<ClockReading>(out).size(), 2u);
  r.lever_high = ClockSide::kRight;
  r.turn = ClockSide::kRight;
  r.left = Millis(178000);
  out = feed_confirmed(encode_bwtime(r), 2000);
  ASSERT_EQ(only<LeverPressed>(out).size(), 1u);
  EXPECT_EQ(only<LeverPressed>(out)[0].side, ClockSide::kLeft);
  r.lever_high = ClockSide::kLeft;
  r.turn = ClockSide::kLeft;
  out = feed_confirmed(encode_bwtime(r), 3000);
  ASSERT_EQ(only<LeverPressed>(out).size(), 1u);
  EXPECT_EQ(only<LeverPressed>(out)[0].side, ClockSide::kRight);
  r.left_flag = true;
  out = feed_confirmed(encode_bwtime(r), 4000);
  ASSERT_EQ(only<FlagShown>(out).size(), 1u);
  EXPECT_EQ(only<FlagShown>(out)[0].side, ClockSide::kLeft);
  EXPECT_TRUE(only<FlagShown>(feed(encode_bwtime(r), 5000)).empty());
}

TEST_F(DgtDriverTest, TwoFlagsInOneReadingHaveNoOrder) {
  bring_up();
  ClockReading r;
  r.left = Millis(0);
  r.right = Millis(0);
  r.lever_high = ClockSide::kLeft;
  r.turn = ClockSide::kLeft;
  r.left_flag = true;
  r.right_flag = true;
  // The first reading (after a reconnect, say) already shows both: which fell first is
  // unknown, so no FlagShown that would say "left first".
  auto out = feed_confirmed(encode_bwtime(r), 100);
  EXPECT_EQ(only<BothFlagsShown>(out).size(), 1u);
  EXPECT_TRUE(only<FlagShown>(out).empty());
  EXPECT_TRUE(only<BothFlagsShown>(feed(encode_bwtime(r), 1100)).empty());
  // One flag, then the other: two reports, in order.
  r.left_flag = r.right_flag = false;
  feed(encode_bwtime(r), 2000);
  r.right_flag = true;
  out = feed_confirmed(encode_bwtime(r), 3000);
  ASSERT_EQ(only<FlagShown>(out).size(), 1u);
  EXPECT_EQ(only<FlagShown>(out)[0].side, ClockSide::kRight);
  r.left_flag = true;
  out = feed_confirmed(encode_bwtime(r), 4000);
  ASSERT_EQ(only<FlagShown>(out).size(), 1u);
  EXPECT_EQ(only<FlagShown>(out)[0].side, ClockSide::kLeft);
  EXPECT_TRUE(only<BothFlagsShown>(out).empty());
}

// The measured fault: one clock message with a damaged byte showed White's flag with hours
// left. The driver holds it, asks for the clock at once (and again when the answer is
// lost), and the clock's next report shows it was damage: no flag, no press.
TEST_F(DgtDriverTest, ADamagedClockMessageWaitsForTheNextAndIsDropped) {
  bring_up();
  ClockReading r;
  r.left = Millis(8020000);
  r.right = Millis(5000000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  ClockReading damaged = r;
  damaged.left_flag = true;
  damaged.left = Millis(8019000);
  auto out = feed(encode_bwtime(damaged), 1100);
  EXPECT_TRUE(only<FlagShown>(out).empty());
  EXPECT_TRUE(only<ClockReading>(out).empty());
  EXPECT_EQ(out.to_send, (Bytes{kSendClock}));
  out = timer(1100 + 300);
  EXPECT_EQ(out.to_send, (Bytes{kSendClock})) << "the answer was lost: asked again";
  r.left = Millis(8018000);
  out = feed(encode_bwtime(r), 1500);
  EXPECT_TRUE(only<FlagShown>(out).empty());
  EXPECT_TRUE(only<LeverPressed>(out).empty());
  ASSERT_EQ(only<ClockReading>(out).size(), 1u);
  EXPECT_FALSE(only<ClockReading>(out)[0].left_flag);
  EXPECT_TRUE(timer(1500 + 300).to_send.empty()) << "nothing held: nothing asked";
  // A "no clock" status bit in one damaged message does not take the clock away.
  Bytes absent = encode_bwtime(r);
  absent[9] |= 0x20;
  EXPECT_TRUE(only<ClockAbsent>(feed(absent, 1600)).empty());
  EXPECT_EQ(only<ClockReading>(feed(encode_bwtime(r), 1620)).size(), 1u);
}

// A press waits for its confirmation; the opponent's lift that came meanwhile waits with
// it and follows it, never before it.
TEST_F(DgtDriverTest, SquareChangesBehindAHeldPressFollowIt) {
  bring_up();
  ClockReading r;
  r.left = r.right = Millis(600000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  r.lever_high = r.turn = ClockSide::kRight;
  auto out = feed(encode_bwtime(r), 5000);
  EXPECT_TRUE(out.events.empty());
  out = feed({0x8E, 0x00, 0x05, 0x34, 0x00}, 5010);  // a piece lifted
  EXPECT_TRUE(out.events.empty());
  out = feed(encode_bwtime(r), 5030);
  ASSERT_GE(out.events.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<LeverPressed>(out.events[0]));
  EXPECT_TRUE(std::holds_alternative<ClockReading>(out.events[1]));
  EXPECT_TRUE(std::holds_alternative<SquareChanged>(out.events[2]));
}

// The gate holds a press until the next reading confirms it (clock_gate.h): the press and
// its reading are dated at that reading's arrival, not at the confirmation a round trip
// later.
TEST_F(DgtDriverTest, APressCarriesTheTimeOfTheReadingThatShowedIt) {
  bring_up();
  ClockReading r;
  r.left = r.right = Millis(600000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  r.lever_high = r.turn = ClockSide::kRight;
  EXPECT_TRUE(only<LeverPressed>(feed(encode_bwtime(r), 5000)).empty());
  const auto out = feed(encode_bwtime(r), 5200);
  const auto presses = only<LeverPressed>(out);
  ASSERT_EQ(presses.size(), 1u);
  EXPECT_EQ(presses[0].read_at, t(5000));
  // The reading that showed it too; the one that confirmed it is reported as it came.
  const auto readings = only<ClockReading>(out);
  ASSERT_EQ(readings.size(), 2u);
  EXPECT_EQ(readings[0].read_at, t(5000));
  EXPECT_EQ(readings[1].read_at, std::nullopt);
}

// Black presses, White moves and presses before the confirmation comes: both presses,
// with White's move between them.
TEST_F(DgtDriverTest, TwoPressesWithinARoundTripKeepTheMoveBetweenThem) {
  bring_up();
  ClockReading r;
  r.left = r.right = Millis(600000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  r.lever_high = r.turn = ClockSide::kRight;
  r.left = Millis(630000);
  EXPECT_TRUE(feed(encode_bwtime(r), 5000).events.empty());
  EXPECT_TRUE(feed({0x8E, 0x00, 0x05, 0x34, 0x00}, 5005).events.empty());
  r.lever_high = r.turn = ClockSide::kLeft;
  r.right = Millis(630000);
  EXPECT_TRUE(feed(encode_bwtime(r), 5010).events.empty());
  const auto out = feed(encode_bwtime(r), 5030);
  std::vector<int> kinds;  // 0 press, 1 square, 2 reading
  for (const SensorEvent& e : out.events) {
    if (std::holds_alternative<LeverPressed>(e)) kinds.push_back(0);
    if (std::holds_alternative<SquareChanged>(e)) kinds.push_back(1);
  }
  EXPECT_EQ(kinds, (std::vector<int>{0, 1, 0}));
  // Each at the reading that showed it.
  const auto presses = only<LeverPressed>(out);
  ASSERT_EQ(presses.size(), 2u);
  EXPECT_EQ(presses[0].read_at, t(5000));
  EXPECT_EQ(presses[1].read_at, t(5010));
}

// The status byte of one clock message replaced on the line by a press's (lever and turn
// on the right), then the left flag falls before the clock's next report: a flag, no press.
TEST_F(DgtDriverTest, ADamagedStatusBeforeAFlagFallIsNoPress) {
  bring_up();
  ClockReading r;
  r.left = Millis(2000);
  r.right = Millis(600000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  Bytes damaged = encode_bwtime(r);
  damaged[9] = 0x0B;
  auto out = feed(damaged, 600);
  EXPECT_TRUE(out.events.empty());
  r.left = Millis(0);
  r.left_flag = true;
  out = feed(encode_bwtime(r), 610);
  const auto more = feed(encode_bwtime(r), 630);
  out.events.insert(out.events.end(), more.events.begin(), more.events.end());
  EXPECT_TRUE(only<LeverPressed>(out).empty());
  ASSERT_EQ(only<FlagShown>(out).size(), 1u);
  EXPECT_EQ(only<FlagShown>(out)[0].side, ClockSide::kLeft);
}

// Two presses within a round trip, and the first one's reading repeated with a damaged
// hours byte (a flag bit and 3 hours on the waiting side) before the second: both
// presses, and no flag.
TEST_F(DgtDriverTest, ADamagedCopyOfAPressShowsNoFlag) {
  bring_up();
  ClockReading r;
  r.left = r.right = Millis(600000);
  r.running = true;
  r.lever_high = r.turn = ClockSide::kLeft;
  feed_confirmed(encode_bwtime(r), 100);
  r.lever_high = r.turn = ClockSide::kRight;
  r.left = Millis(630000);
  DecoderOutput out = feed(encode_bwtime(r), 5000);
  Bytes copy = encode_bwtime(r);
  copy[3] = 0x13;  // right hours 0 -> 3, flag bit 4
  const auto append = [&out](const DecoderOutput& more) {
    out.events.insert(out.events.end(), more.events.begin(), more.events.end());
  };
  append(feed(copy, 5005));
  r.lever_high = r.turn = ClockSide::kLeft;
  r.right = Millis(630000);
  append(feed(encode_bwtime(r), 5010));
  append(feed(encode_bwtime(r), 5030));
  EXPECT_TRUE(only<FlagShown>(out).empty());
  ASSERT_EQ(only<LeverPressed>(out).size(), 2u);
  EXPECT_EQ(only<LeverPressed>(out)[0].side, ClockSide::kLeft);
  EXPECT_EQ(only<LeverPressed>(out)[1].side, ClockSide::kRight);
  for (const ClockReading& seen : only<ClockReading>(out)) {
    EXPECT_FALSE(seen.right_flag);
    EXPECT_LT(seen.right, Millis(3600000));
  }
}

// The bytes of a fault soak run (world championship game 33, corrupt-clock-3) as the
// driver read them: White presses, a damaged status says "no clock", Black moves and
// presses, another "no clock". Both presses, with Black's move between them.
TEST_F(DgtDriverTest, NoClockDamageAfterEachOfTwoPressesLosesNeither) {
  bring_up();
  const Bytes before = {0x8D, 0x00, 0x0A, 0x01, 0x42, 0x01, 0x01, 0x43, 0x17, 0x11};
  feed_confirmed(before, 47009);
  DecoderOutput out;
  const auto add = [&out](const DecoderOutput& more) {
    out.events.insert(out.events.end(), more.events.begin(), more.events.end());
  };
  add(feed({0x8E, 0x00, 0x05, 0x22, 0x05}, 47041));  // White's king on c4
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x01, 0x01, 0x43, 0x47, 0x0B}, 47052));  // pressed
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x01, 0x01, 0x43, 0x47, 0x36}, 47065));  // "no clock"
  add(feed({0x8E, 0x00, 0x05, 0x33, 0x00}, 47093));  // Black's rook lifted from d2
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x00, 0x01, 0x43, 0x47, 0x0B}, 47100));
  add(feed({0x8E, 0x00, 0x05, 0x32, 0x08}, 47117));                                // and put on c2
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x30, 0x01, 0x43, 0x47, 0x11}, 47125));  // pressed
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x30, 0x01, 0x43, 0x46, 0x71}, 47174));  // "no clock"
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x30, 0x01, 0x43, 0x45, 0x11}, 47229));
  add(feed({0x8D, 0x00, 0x0A, 0x01, 0x42, 0x30, 0x01, 0x43, 0x44, 0x11}, 47276));
  std::vector<std::string> kinds;
  for (const SensorEvent& e : out.events) {
    if (const auto* p = std::get_if<LeverPressed>(&e))
      kinds.push_back(p->side == ClockSide::kLeft ? "press left" : "press right");
    if (const auto* c = std::get_if<SquareChanged>(&e)) kinds.push_back(std::to_string(c->square));
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"26", "press left", "11", "10", "press right"}));
  EXPECT_TRUE(only<ClockAbsent>(out).empty());
}

TEST_F(DgtDriverTest, ClockAcksDriveTheQueue) {
  bring_up();
  DecoderOutput out;
  EXPECT_TRUE(driver.send_clock(ClockText{"HELLO", 0}, t(30), out));
  EXPECT_TRUE(out.to_send.empty());  // the version request is still in flight
  out = feed(encode_clock_ack(0x10, 0x09, 0x20, 0x00), 40);
  const auto info = only<DeviceInfo>(out);
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0].kind, InfoKind::kClockVersion);
  EXPECT_EQ(info[0].text, "2.0");
  EXPECT_EQ(out.to_send, encode_clock_command(ClockText{"HELLO", 0}));
}

// The clock answers set-and-run with ack0 20 and no command (as PicoChess logged from a
// real clock): not an answer to rely on, so the command goes again at once, not after the
// 2 s wait for an ack, and a second such answer gives it up.
TEST_F(DgtDriverTest, AnAckWithAck0TwentyResendsTheCommandAtOnce) {
  bring_up();
  feed(encode_clock_ack(0x10, 0x09, 0x20, 0x00), 30);  // the version: nothing in flight
  DecoderOutput out;
  const ClockSetAndRun set{milliseconds(600000), milliseconds(540000), ClockSide::kLeft};
  EXPECT_TRUE(driver.send_clock(set, t(40), out));
  EXPECT_EQ(out.to_send, encode_clock_command(set));
  out = feed(encode_clock_ack(0x20, 0x00, 0x00, 0x00), 140);
  EXPECT_EQ(out.to_send, encode_clock_command(set)) << "resent at once";
  EXPECT_TRUE(only<ClockCommandFailed>(out).empty());
  out = feed(encode_clock_ack(0x20, 0x00, 0x00, 0x00), 240);
  ASSERT_EQ(only<ClockCommandFailed>(out).size(), 1u);
  EXPECT_EQ(only<ClockCommandFailed>(out)[0].command, kClockSetNRun);
  EXPECT_TRUE(out.to_send.empty());
  EXPECT_EQ(driver.counters().clock_failures, 1u);
}

TEST_F(DgtDriverTest, IdentityMessages) {
  bring_up();
  auto out = feed({0x91, 0x00, 0x08, '2', '4', '6', '8', '0'}, 50);
  ASSERT_EQ(only<DeviceInfo>(out).size(), 1u);
  EXPECT_EQ(only<DeviceInfo>(out)[0].text, "24680");
  out = feed({0xA2, 0x00, 0x0D, '3', '2', '5', '0', '0', '0', '1', '2', '3', '4'}, 60);
  EXPECT_EQ(only<DeviceInfo>(out)[0].kind, InfoKind::kLongSerial);
  out = feed({0x90, 0x00, 0x05, 0x01, 0x02}, 70);
  EXPECT_EQ(only<DeviceInfo>(out)[0].text, "130");
  out = feed({0x8D, 0x00, 0x0A, 0, 0, 0, 0, 0, 0, 0x20}, 80);
  EXPECT_EQ(only<ClockAbsent>(out).size(), 1u);
  DecoderOutput refused;
  EXPECT_FALSE(driver.send_clock(ClockEndText{}, t(90), refused));
}

TEST_F(DgtDriverTest, KeepAliveAndSilence) {
  bring_up();
  feed(encode_clock_ack(0x10, 0x09, 0x20, 0x00), 20);  // nothing left in flight
  auto out = timer(20 + kKeepAliveIntervalMs);
  EXPECT_EQ(out.to_send, (Bytes{kReturnSerialNr}));
  out = timer(20 + kSilenceLimitMs);
  ASSERT_EQ(only<LinkStatus>(out).size(), 1u);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kSilent);
}

}  // namespace
}  // namespace eboard::drivers::dgt
