// Chessnut position reports recorded by others, fed to the driver byte for byte.
//
// Source: PicoChess (https://github.com/JohanSjoblom/picochess), `tests/test_chessnut_parser.py`:
// BLE notifications `01 24` + 32 position bytes + `FF FF FF FF`, each with the position
// PicoChess's parser reads from it (as FEN). The bytes are quoted as facts; the expected
// positions are the ones that file states.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "drivers/chessnut/chessnut_driver.h"

namespace eboard::drivers::chessnut {
namespace {

using std::chrono::milliseconds;

TimePoint t(int ms) { return TimePoint{} + milliseconds(ms); }

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

// "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
const std::string kStart =
    "012458233185444444440000000000000000000000000000000077777777A6C99B6AFFFFFFFF";
// "rnbqkbnr/pp2pppp/8/8/8/8/PP1PP1PP/RNBQKBNR": c7, d7, c2, f2 empty.
const std::string kFourPawnsOff =
    "012458233185444400440000000000000000000000000000000077700777A6C99B6AFFFFFFFF";
// The start position with the board turned round (PicoChess: "reversed").
const std::string kStartTurnedRound =
    "0124A6B99C6A77777777000000000000000000000000000000004444444458133285FFFFFFFF";
// The start position with two bytes damaged to nibbles no piece has: no position.
const std::string kInvalid =
    "012458233185444444440000000000000FFFF00000000000000077777777A6C99B6AFFFFFFFF";

class ChessnutCaptureTest : public ::testing::Test {
 protected:
  explicit ChessnutCaptureTest(Framing framing = Framing::kReports) : driver(framing) {
    DecoderOutput out;
    driver.on_connected(t(0), out);
  }
  DecoderOutput feed(const std::string& text, int ms) {
    DecoderOutput out;
    driver.on_bytes(hex(text), t(ms), out);
    return out;
  }
  ChessnutDriver driver;
};

class ChessnutStreamCaptureTest : public ChessnutCaptureTest {
 protected:
  ChessnutStreamCaptureTest() : ChessnutCaptureTest(Framing::kStream) {}
};

TEST_F(ChessnutCaptureTest, TheRecordedStartPosition) {
  const auto out = feed(kStart, 10);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
  EXPECT_TRUE(driver.in_sync());
}

TEST_F(ChessnutCaptureTest, TheRecordedTurnedRoundStartPosition) {
  // The driver reports squares as the board numbers them; the engine's recognizer finds
  // a set-up turned round (docs/protocols.md §1.6). So every square holds the piece of the
  // square opposite it in the start position.
  const auto out = feed(kStartTurnedRound, 10);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  const Placement seen = only<PlacementSeen>(out)[0].placement;
  const Placement start = start_placement();
  for (int sq = 0; sq < 64; ++sq) EXPECT_EQ(seen[sq], start[63 - sq]) << "square " << sq;
}

TEST_F(ChessnutCaptureTest, TheRecordedInvalidPositionIsDropped) {
  EXPECT_TRUE(only<PlacementSeen>(feed(kInvalid, 10)).empty());
  EXPECT_FALSE(driver.in_sync());
}

TEST_F(ChessnutCaptureTest, TheRecordedPositionsInOrder) {
  ASSERT_EQ(only<PlacementSeen>(feed(kStart, 10)).size(), 1u);
  EXPECT_TRUE(only<SquareChanged>(feed(kStart, 20)).empty());  // the same position again
  const auto changes = only<SquareChanged>(feed(kFourPawnsOff, 30));
  ASSERT_EQ(changes.size(), 4u);
  std::vector<int> squares;
  for (const auto& c : changes) {
    EXPECT_EQ(c.piece, Piece::kEmpty);
    squares.push_back(c.square);
  }
  std::sort(squares.begin(), squares.end());
  EXPECT_EQ(squares, (std::vector<int>{10, 13, 50, 51}));  // c2, f2, c7, d7
}

TEST_F(ChessnutStreamCaptureTest, TwoRecordedPositionsInOneNotification) {
  const auto out = feed(kStart + kFourPawnsOff, 10);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
  EXPECT_EQ(only<SquareChanged>(out).size(), 4u);
}

TEST_F(ChessnutStreamCaptureTest, TheRecordedStartPositionCutInThree) {
  // As PicoChess's test feeds it: 30 bytes, 4, then the 4 trailing bytes.
  EXPECT_TRUE(only<PlacementSeen>(feed(kStart.substr(0, 60), 10)).empty());
  EXPECT_TRUE(only<PlacementSeen>(feed(kStart.substr(60, 8), 20)).empty());
  const auto out = feed(kStart.substr(68), 30);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
}

TEST_F(ChessnutCaptureTest, TheRecordedBatteryReports) {
  // `2a 02 level flags`: PicoChess reads 100 % charging, 88 % discharging, 9 %, 4 %.
  EXPECT_EQ(only<DeviceInfo>(feed("2a026401", 10))[0].text, "100% charging");
  EXPECT_EQ(only<DeviceInfo>(feed("2a025800", 20))[0].text, "88%");
  EXPECT_EQ(only<DeviceInfo>(feed("2a020900", 30))[0].text, "9%");
  EXPECT_EQ(only<DeviceInfo>(feed("2a020400", 40))[0].text, "4%");
}

}  // namespace
}  // namespace eboard::drivers::chessnut
