#include "drivers/chessnut/chessnut_driver.h"

#include <gtest/gtest.h>

#include "tests/drivers/stream_check.h"

namespace eboard::drivers::chessnut {
namespace {

using std::chrono::milliseconds;
using testing::Bytes;
using testing::feed_stream;
using testing::random_states;

TimePoint t(int ms) { return TimePoint{} + milliseconds(ms); }

// `01 LL` + 32 position bytes + the rest: USB (0x3D, 29 bytes after the position) or BLE
// (0x24, FF FF FF FF after it, as in PicoChess's fixtures).
Bytes report(const Placement& placement, std::uint8_t length = kLengthUsb) {
  Bytes bytes = {kMsgPosition, length};
  const Bytes position = encode_position(placement);
  bytes.insert(bytes.end(), position.begin(), position.end());
  bytes.insert(bytes.end(), length - kPositionBytes, length == kLengthBle ? 0xFF : 0x00);
  return bytes;
}

Bytes hex(const std::string& text) {
  Bytes bytes;
  for (std::size_t i = 0; i + 1 < text.size(); i += 2) {
    bytes.push_back(static_cast<std::uint8_t>(std::stoi(text.substr(i, 2), nullptr, 16)));
  }
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

class ChessnutDriverTest : public ::testing::Test {
 protected:
  DecoderOutput feed(const Bytes& bytes, int ms) {
    DecoderOutput out;
    driver.on_bytes(bytes, t(ms), out);
    return out;
  }
  void bring_up() {
    DecoderOutput out;
    driver.on_connected(t(0), out);
    EXPECT_EQ(out.to_send, kRealtimeMode);  // the battery request waits 200 ms
    out = DecoderOutput{};
    driver.on_timer(t(200), out);
    EXPECT_EQ(out.to_send, kBatteryRequest);
    out = feed(report(start_placement()), 210);
    ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
    EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
    EXPECT_TRUE(driver.in_sync());
  }
  ChessnutDriver driver{Framing::kStream};
};

TEST(ChessnutProtocol, TheVendorsStartPosition) {
  // §6 (computed from the vendor note) and PicoChess's fixture for the start position.
  EXPECT_EQ(encode_position(start_placement()),
            hex("58233185444444440000000000000000000000000000000077777777A6C99B6A"));
  EXPECT_EQ(
      *decode_position(hex("58233185444444440000000000000000000000000000000077777777A6C99B6A")),
      start_placement());
  // A nibble no piece has.
  EXPECT_FALSE(
      decode_position(hex("5823318544444444000000000000000FFFF0000000000000077777777A6C99B6A")));
  // LEDs: rank 8 first, bit 7 = a-file: e2 and e4.
  const std::uint64_t e2e4 = std::uint64_t{1} << 12 | std::uint64_t{1} << 28;
  EXPECT_EQ(encode_leds(e2e4), hex("0A080000000008000800"));
}

TEST_F(ChessnutDriverTest, BothReportLengthsAreRead) {
  bring_up();
  Placement after = start_placement();
  after[12] = Piece::kEmpty;
  auto out = feed(report(after, kLengthBle), 300);  // PicoChess's BLE fixture's length
  ASSERT_EQ(only<SquareChanged>(out).size(), 1u);
  after[28] = Piece::kWhitePawn;
  out = feed(report(after, kLengthUsb), 310);
  ASSERT_EQ(only<SquareChanged>(out).size(), 1u);
  EXPECT_EQ(only<SquareChanged>(out)[0].square, 28);
}

TEST_F(ChessnutDriverTest, BatteryBothWays) {
  bring_up();
  auto out = feed(hex("2a026401"), 300);  // PicoChess: 100 %, charging (second byte)
  ASSERT_EQ(only<DeviceInfo>(out).size(), 1u);
  EXPECT_EQ(only<DeviceInfo>(out)[0].text, "100% charging");
  out = feed(hex("2a02D800"), 310);  // §6: bit 7 of the first byte
  EXPECT_EQ(only<DeviceInfo>(out)[0].text, "88% charging");
  EXPECT_EQ(only<DeviceInfo>(feed(hex("2a025800"), 320))[0].text, "88%");
}

TEST_F(ChessnutDriverTest, CommandsAreSpacedAndOnlyTheNewestLightsGo) {
  bring_up();
  DecoderOutput out;
  driver.set_lights(Lights{std::uint64_t{1} << 12, 0}, t(400), out);  // 200 ms after the last
  EXPECT_EQ(out.to_send, encode_leds(std::uint64_t{1} << 12));
  out = DecoderOutput{};
  driver.set_lights(Lights{std::uint64_t{1} << 20, 0}, t(450), out);
  driver.set_lights(Lights{std::uint64_t{1} << 28, 0}, t(460), out);
  EXPECT_TRUE(out.to_send.empty());
  EXPECT_EQ(*driver.next_deadline(), t(600));
  driver.on_timer(t(600), out);
  EXPECT_EQ(out.to_send, encode_leds(std::uint64_t{1} << 28));
}

TEST_F(ChessnutDriverTest, NoReportMeansNoBoard) {
  ChessnutDriver fresh{Framing::kStream};
  DecoderOutput out;
  fresh.on_connected(t(0), out);
  for (int ms = 200; ms <= 4000; ms += 200) fresh.on_timer(t(ms), out);
  ASSERT_EQ(only<LinkStatus>(out).size(), 1u);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kNoAnswer);
}

TEST_F(ChessnutDriverTest, ByteByByteInRandomSplitsGivesEveryChange) {
  const auto states = random_states(300, 17);
  Bytes stream;
  std::vector<std::size_t> ends, state_of;
  for (std::size_t i = 1; i < states.size(); ++i) {
    const Bytes r = report(states[i], i % 2 ? kLengthUsb : kLengthBle);
    stream.insert(stream.end(), r.begin(), r.end());
    ends.push_back(stream.size());
    state_of.push_back(i);
  }
  for (const std::size_t chunk : {1u, 5u, 100u}) {
    driver = ChessnutDriver{Framing::kStream};
    bring_up();
    TimePoint now = t(300);
    const auto result = feed_stream(driver, states, stream, ends, state_of, 4, chunk, now);
    EXPECT_TRUE(testing::same(result.changes, testing::true_changes(states))) << chunk;
    EXPECT_FALSE(result.invented);
    EXPECT_EQ(result.resyncs, 0);
  }
}

// The format has no checksum: damage is found where it makes a message impossible - a
// nibble no piece has, bytes no message starts with - and, with whole reports (USB), a
// report cut short.
TEST_F(ChessnutDriverTest, GarbageAndDamagedReportsGiveResyncsNeverAFalseState) {
  bring_up();
  const auto states = random_states(400, 23);
  std::mt19937 random(9);
  Bytes stream;
  std::vector<std::size_t> ends, state_of;
  int damaged = 0;
  for (std::size_t i = 1; i < states.size(); ++i) {
    Bytes r = report(states[i]);
    if (i % 9 == 0 && random() % 2) {
      r[2 + random() % 32] |= 0xF0;  // no piece has code F
      ++damaged;
    } else if (i % 9 == 0) {
      for (int g = 0; g < 4; ++g)
        stream.push_back(static_cast<std::uint8_t>(0x80 + random() % 0x70));
      ++damaged;
    }
    stream.insert(stream.end(), r.begin(), r.end());
    ends.push_back(stream.size());
    state_of.push_back(i);
  }
  const Bytes last = report(states.back());
  stream.insert(stream.end(), last.begin(), last.end());
  ends.push_back(stream.size());
  state_of.push_back(states.size() - 1);
  TimePoint now = t(300);
  const auto result = feed_stream(driver, states, stream, ends, state_of, 6, 11, now);
  EXPECT_FALSE(result.invented);
  EXPECT_EQ(result.picture, states.back());
  EXPECT_GE(result.resyncs, 1);
  EXPECT_LE(result.resyncs, 2 * damaged);  // a damage read in two pieces may count twice
  EXPECT_TRUE(driver.in_sync());
}

TEST(ChessnutReports, ACutOrPaddedReportIsDroppedWhole) {
  ChessnutDriver driver(Framing::kReports);
  DecoderOutput out;
  driver.on_connected(t(0), out);
  driver.on_bytes(report(start_placement()), t(10), out);
  ASSERT_TRUE(driver.in_sync());
  Placement after = start_placement();
  after[12] = Piece::kEmpty;
  Bytes cut = report(after);
  cut.erase(cut.begin() + 9);  // one byte lost: the rest would be read shifted
  out = DecoderOutput{};
  driver.on_bytes(cut, t(20), out);
  EXPECT_TRUE(only<SquareChanged>(out).empty());
  EXPECT_FALSE(driver.in_sync());
  out = DecoderOutput{};
  driver.on_bytes(report(after), t(30), out);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, after);
  EXPECT_EQ(driver.counters().discarded_bytes, cut.size());
}

}  // namespace
}  // namespace eboard::drivers::chessnut
