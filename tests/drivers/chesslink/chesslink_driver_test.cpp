#include "drivers/chesslink/chesslink_driver.h"

#include <gtest/gtest.h>

#include "tests/drivers/stream_check.h"

namespace eboard::drivers::chesslink {
namespace {

using std::chrono::milliseconds;
using testing::feed_stream;
using testing::random_states;

TimePoint t(int ms) { return TimePoint{} + milliseconds(ms); }

std::string text_of(const Bytes& bytes) { return std::string(bytes.begin(), bytes.end()); }

// A status as the board sends it: 64 characters in `orientation`'s order, parity bits on.
Bytes status(const Placement& placement, Orientation orientation = Orientation::kReversed) {
  std::string data(64, '.');
  for (std::size_t i = 0; i < 64; ++i) data[i] = piece_letter(placement[square_of(i, orientation)]);
  Bytes bytes = encode('s', data);
  for (auto& b : bytes) b = with_odd_parity(b);
  return bytes;
}

template <class T>
std::vector<T> only(const DecoderOutput& out) {
  std::vector<T> found;
  for (const auto& e : out.events) {
    if (const T* x = std::get_if<T>(&e)) found.push_back(*x);
  }
  return found;
}

class ChessLinkDriverTest : public ::testing::Test {
 protected:
  DecoderOutput feed(const Bytes& bytes, int ms) {
    DecoderOutput out;
    driver.on_bytes(bytes, t(ms), out);
    return out;
  }
  void bring_up(Orientation cable = Orientation::kReversed) {
    DecoderOutput out;
    driver.on_connected(t(0), out);
    EXPECT_EQ(text_of(out.to_send), "V56");
    out = feed(encode('v', "0203"), 10);
    EXPECT_EQ(text_of(out.to_send), "W0204" + std::string(block_parity("W0204").data(), 2) + "S53");
    ASSERT_EQ(only<DeviceInfo>(out).size(), 2u);
    EXPECT_EQ(only<DeviceInfo>(out)[0].text, "2.3");
    EXPECT_EQ(only<DeviceInfo>(out)[1].text, "Millennium eONE");
    EXPECT_EQ(only<ClockAbsent>(out).size(), 1u);
    EXPECT_FALSE(driver.in_sync());
    out = feed(status(start_placement(), cable), 20);
    ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
    EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
    EXPECT_TRUE(driver.in_sync());
  }
  ChessLinkDriver driver;
};

TEST(ChessLinkProtocol, BlockParityMatchesTheCapturedExchange) {
  // python-mchess's captured exchange: V56 -> v010374 (version 1.3).
  EXPECT_EQ(text_of(encode('V')), "V56");
  EXPECT_EQ(text_of(encode('v', "0103")), "v010374");
  EXPECT_EQ(text_of(encode('S')), "S53");
  // The note's worked example: reports on every change.
  EXPECT_EQ(text_of(encode('W', "0203")), "W020356");
  // With the parity bit: 'V' has four bits set -> D6 (sent as D6 B5 B6).
  EXPECT_EQ(with_odd_parity('V'), 0xD6);
  EXPECT_EQ(with_odd_parity('5'), 0xB5);
  EXPECT_EQ(with_odd_parity('S'), 0xD3);
}

TEST(ChessLinkProtocol, StatusOrderAndLeds) {
  EXPECT_EQ(square_of(0, Orientation::kDocumented), 56);  // a8
  EXPECT_EQ(square_of(0, Orientation::kReversed), 7);     // h1
  EXPECT_EQ(square_of(63, Orientation::kReversed), 56);   // a8
  // §5: LED 1 at the a8 corner, 9 at a1, 73 at h8, 81 at h1 (1-based, the note's order).
  EXPECT_EQ(led_of(0, 0, Orientation::kDocumented), 0u);
  EXPECT_EQ(led_of(0, 8, Orientation::kDocumented), 8u);
  EXPECT_EQ(led_of(8, 0, Orientation::kDocumented), 72u);
  EXPECT_EQ(led_of(8, 8, Orientation::kDocumented), 80u);
}

TEST_F(ChessLinkDriverTest, HandshakeStatusAndChanges) {
  bring_up();
  Placement after = start_placement();
  after[12] = Piece::kEmpty;
  auto out = feed(status(after), 30);
  ASSERT_EQ(only<SquareChanged>(out).size(), 1u);
  EXPECT_EQ(only<SquareChanged>(out)[0].square, 12);
  EXPECT_TRUE(only<SquareChanged>(feed(status(after), 40)).empty());  // no change, nothing
}

TEST_F(ChessLinkDriverTest, CableOnTheOtherSideIsFoundFromTheStartPosition) {
  bring_up(Orientation::kDocumented);
  EXPECT_EQ(driver.orientation(), Orientation::kDocumented);
  Placement after = start_placement();
  after[12] = Piece::kEmpty;  // e2 lifted
  auto out = feed(status(after, Orientation::kDocumented), 30);
  ASSERT_EQ(only<SquareChanged>(out).size(), 1u);
  EXPECT_EQ(only<SquareChanged>(out)[0].square, 12);
  // Kept across a reconnect (the board has not moved).
  driver.on_disconnected();
  DecoderOutput again;
  driver.on_connected(t(100), again);
  feed(encode('v', "0104"), 110);
  out = feed(status(after, Orientation::kDocumented), 120);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, after);
}

TEST_F(ChessLinkDriverTest, RepliesAreMatchedByLetterWithReportsBetween) {
  bring_up();
  DecoderOutput out;
  ASSERT_TRUE(driver.set_lights(Lights{0, std::uint64_t{1} << 12}, t(30), out));
  EXPECT_EQ(out.to_send[0], 'L');
  EXPECT_EQ(out.to_send.size(), 167u);
  Placement after = start_placement();
  after[12] = Piece::kEmpty;
  Bytes both = encode('w', "0204");
  const Bytes s = status(after);
  both.insert(both.end(), s.begin(), s.end());
  const Bytes ack = encode('l');
  both.insert(both.end(), ack.begin(), ack.end());
  out = feed(both, 40);
  EXPECT_EQ(only<SquareChanged>(out).size(), 1u);
  EXPECT_EQ(driver.counters().discarded_bytes, 0u);
  out = DecoderOutput{};
  driver.set_lights(Lights{}, t(50), out);
  EXPECT_EQ(text_of(out.to_send), "X58");
}

TEST_F(ChessLinkDriverTest, UnansweredHandshakeAndSilence) {
  DecoderOutput out;
  driver.on_connected(t(0), out);
  out = DecoderOutput{};
  driver.on_timer(*driver.next_deadline(), out);
  EXPECT_EQ(text_of(out.to_send), "V56");
  out = DecoderOutput{};
  driver.on_timer(*driver.next_deadline(), out);
  ASSERT_EQ(only<LinkStatus>(out).size(), 1u);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kNoAnswer);
}

TEST_F(ChessLinkDriverTest, QuietBoardGetsKeepAlivesThenIsSilent) {
  bring_up();
  DecoderOutput out;
  driver.on_timer(t(20 + 4000), out);
  EXPECT_EQ(text_of(out.to_send), "V56");
  out = DecoderOutput{};
  driver.on_timer(t(20 + 10000), out);
  ASSERT_EQ(only<LinkStatus>(out).size(), 1u);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kSilent);
}

// Random splits, clean: every change and nothing else.
TEST_F(ChessLinkDriverTest, ByteByByteInRandomSplitsGivesEveryChange) {
  bring_up();
  const auto states = random_states(300, 7);
  Bytes stream;
  std::vector<std::size_t> ends, state_of;
  for (std::size_t i = 1; i < states.size(); ++i) {
    const Bytes s = status(states[i]);
    stream.insert(stream.end(), s.begin(), s.end());
    ends.push_back(stream.size());
    state_of.push_back(i);
  }
  for (const std::size_t chunk : {1u, 7u, 200u}) {
    ChessLinkDriver fresh;
    driver = fresh;
    bring_up();
    TimePoint now = t(100);
    const auto result = feed_stream(driver, states, stream, ends, state_of, 3, chunk, now);
    EXPECT_TRUE(testing::same(result.changes, testing::true_changes(states))) << chunk;
    EXPECT_FALSE(result.invented);
    EXPECT_EQ(result.resyncs, 0);
    EXPECT_EQ(result.picture, states.back());
  }
}

// Garbage, checksum errors and lost bytes between: counted resyncs, never a false state.
TEST_F(ChessLinkDriverTest, GarbageAndDamagedReportsGiveResyncsNeverAFalseState) {
  bring_up();
  const auto states = random_states(400, 11);
  std::mt19937 random(5);
  Bytes stream;
  std::vector<std::size_t> ends, state_of;
  int damaged = 0;
  for (std::size_t i = 1; i < states.size(); ++i) {
    Bytes s = status(states[i]);
    switch (i % 9 == 0 ? random() % 3 : 3) {
      case 0:
        s[1 + random() % 64] ^= 0x01;
        ++damaged;
        break;  // a changed character
      case 1:
        s.erase(s.begin() + 1 + random() % 66);
        ++damaged;
        break;  // a lost byte
      case 2:
        for (int g = 0; g < 5; ++g) stream.push_back(static_cast<std::uint8_t>(random()));
        ++damaged;
        break;
      default: break;
    }
    stream.insert(stream.end(), s.begin(), s.end());
    ends.push_back(stream.size());
    state_of.push_back(i);
  }
  const Bytes last = status(states.back());
  stream.insert(stream.end(), last.begin(), last.end());
  ends.push_back(stream.size());
  state_of.push_back(states.size() - 1);
  TimePoint now = t(100);
  const auto result = feed_stream(driver, states, stream, ends, state_of, 9, 13, now);
  EXPECT_FALSE(result.invented);
  EXPECT_EQ(result.picture, states.back());
  EXPECT_GE(result.resyncs, 1);
  EXPECT_LE(result.resyncs, 2 * damaged);  // a damage read in two pieces may count twice
  EXPECT_GT(driver.counters().discarded_bytes, 0u);
  EXPECT_TRUE(driver.in_sync());
}

}  // namespace
}  // namespace eboard::drivers::chesslink
