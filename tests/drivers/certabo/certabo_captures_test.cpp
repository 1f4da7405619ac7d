// Certabo RFID lines recorded by others, fed to the driver byte for byte.
//
// Source: PicoChess (https://github.com/JohanSjoblom/picochess), `tests/test_certabo_parser.py`.
// Its `TestCalibrator.test_calibration_complete` has seven readings of the start position
// from one board (tags `3 0 83/84/85 x y`; RFID noise on some empty squares, different in
// each reading), after which PicoChess's calibrator reports the calibration complete;
// `test_calibration_incomplete` has the same seven with the first number of a8's tag
// flickering (1 2 3 4 2 1 1), after which it does not. Its
// `TestCertaboBoardMessageParser._board_data` has three readings from another board
// (tags `48 0 x y z`): the start position, the pawn gone from h7, and the same with
// damaged tags on d8, f8, h8, b2 and h2; with low gain (the majority of three readings)
// PicoChess reports the start position and then only the pawn's departure. The lines are
// quoted as facts. PicoChess's calibrator takes the lines without the leading `:` that
// the board sends (its line parser strips it); here they carry it, as on the wire.
#include <gtest/gtest.h>

#include <string>

#include "drivers/certabo/certabo_driver.h"

namespace eboard::drivers::certabo {
namespace {

using std::chrono::milliseconds;

TimePoint t(int ms) { return TimePoint{} + milliseconds(ms); }

template <class T>
std::vector<T> only(const DecoderOutput& out) {
  std::vector<T> found;
  for (const auto& e : out.events) {
    if (const T* x = std::get_if<T>(&e)) found.push_back(*x);
  }
  return found;
}

// The tags of the first board's 32 pieces: ranks 8 and 7, then ranks 2 and 1, as sent.
const std::string kBlack =
    "3 0 84 252 153 3 0 85 0 104 3 0 84 2 3 3 0 83 177 224 3 0 84 107 52 3 0 84 240 106 "
    "3 0 85 0 107 3 0 84 255 174 3 0 84 44 81 3 0 84 121 210 3 0 84 242 13 3 0 84 107 56 "
    "3 0 84 78 193 3 0 84 240 84 3 0 84 240 65 3 0 84 68 134 ";
const std::string kWhite =
    "3 0 84 44 165 3 0 84 68 112 3 0 84 237 98 3 0 84 252 170 3 0 85 1 184 3 0 84 78 209 "
    "3 0 84 242 11 3 0 84 78 216 3 0 85 0 16 3 0 83 229 13 3 0 85 0 67 3 0 84 121 142 "
    "3 0 84 105 128 3 0 84 106 231 3 0 84 247 87 3 0 84 252 15\r\n";
// Ranks 6 to 3 of the four readings (32 squares x 5 numbers), noise and all.
const std::string kMiddle[7] = {
    "118 144 181 62 197 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 217 253 175 8 35 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "114 85 242 66 216 0 0 0 0 0 83 11 112 12 24 186 1 169 12 164 "
    "250 132 247 7 20 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 217 253 174 18 155 0 0 0 0 0 121 34 76 2 42 "
    "0 0 0 0 0 218 65 165 5 112 0 0 0 0 0 170 11 16 170 222 "
    "170 47 132 30 7 0 0 0 0 0 14 90 80 27 133 0 0 0 0 0 ",
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "24 161 129 32 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 202 59 166 9 21 243 192 45 1 80 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 80 228 49 128 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 170 102 170 23 171 0 0 0 0 0 0 0 0 0 0 ",
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 16 218 88 139 184 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "62 216 31 210 10 0 0 0 0 0 247 12 10 129 250 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 92 181 207 8 166 0 0 0 0 0 "
    "0 0 0 0 0 133 210 226 37 96 0 0 0 0 0 0 0 0 0 0 "
    "165 162 120 93 77 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 172 90 8 5 7 0 0 0 0 0 ",
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 81 0 111 152 16 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 1 225 241 64 0 133 46 7 134 0 "
    "0 0 0 0 0 69 100 21 209 155 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 129 55 135 224 80 ",
    "0 0 0 0 0 207 92 165 5 26 245 232 148 128 161 0 0 0 0 0 "
    "196 72 1 128 21 172 71 4 224 210 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 144 34 15 55 160 "
    "0 0 0 0 0 0 0 0 0 0 93 22 18 56 95 164 88 112 226 129 "
    "0 0 0 0 0 225 17 133 55 10 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ",
    "0 0 0 0 0 0 0 0 0 0 90 95 154 60 162 0 0 0 0 0 "
    "223 177 96 112 224 70 128 24 7 0 58 168 95 144 196 240 75 127 160 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 20 16 5 202 239 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 139 175 129 5 245 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ",
    "157 233 132 168 48 0 0 0 0 0 58 54 80 28 35 186 2 100 0 20 "
    "239 220 64 5 4 0 0 0 0 0 0 0 0 0 0 188 61 203 17 168 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 6 197 32 122 20 0 0 0 0 0 252 232 14 2 17 "
    "159 181 46 152 130 0 0 0 0 0 122 54 160 24 13 251 160 77 0 1 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 228 90 46 143 34 "
    "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 ",
};

std::string calibration_line(int i, int a8_first = 3) {
  return ":" + std::to_string(a8_first) + kBlack.substr(1) + kMiddle[i] + kWhite;
}

// The second board: 32 squares empty, as zeros.
std::string zeros(int squares) {
  std::string text;
  for (int i = 0; i < squares * 5; ++i) text += "0 ";
  return text;
}
const std::string kB8 =
    "48 0 248 71 99 48 0 248 85 159 48 0 177 203 192 48 0 177 215 17 48 0 177 117 59 "
    "48 0 177 43 7 48 0 248 222 81 48 0 247 200 86 48 0 248 114 180 48 0 248 155 251 "
    "48 0 248 48 74 48 0 177 236 131 48 0 177 230 12 48 0 177 187 36 48 0 248 146 97 ";
const std::string kH7 = "48 0 248 89 231 ";
const std::string kB1 =
    "48 0 248 85 122 48 0 248 68 117 48 0 248 201 109 48 0 248 144 65 48 0 177 231 217 "
    "48 0 248 76 179 48 0 248 161 89 48 0 94 124 14 48 0 248 98 180 48 0 248 233 43 "
    "48 0 248 86 247 48 0 248 145 6 48 0 248 104 144 48 0 248 79 194 48 0 248 134 85 "
    "48 0 177 81 73\r\n";
const std::string kStart2 = ":" + kB8 + kH7 + zeros(32) + kB1;
const std::string kH7Gone = ":" + kB8 + zeros(33) + kB1;
// The pawn gone from h7, and the tags on d8, f8, h8, b2 and h2 damaged.
const std::string kH7GoneNoisy =
    ":48 0 248 71 99 48 0 248 85 159 48 0 177 203 192 48 0 177 23 19 48 0 177 117 59 "
    "48 0 177 43 6 48 0 248 222 81 48 0 239 200 86 48 0 248 114 180 48 0 248 155 251 "
    "48 0 248 48 74 48 0 177 236 131 48 0 177 230 12 48 0 177 187 36 48 0 248 146 97 " +
    zeros(33) +
    "48 0 248 85 122 48 0 248 73 250 48 0 248 201 109 48 0 248 144 65 48 0 177 231 217 "
    "48 0 248 76 179 48 0 248 161 89 48 0 30 124 13 48 0 248 98 180 48 0 248 233 43 "
    "48 0 248 86 247 48 0 248 145 6 48 0 248 104 144 48 0 248 79 194 48 0 248 134 85 "
    "48 0 177 81 73\r\n";

class CertaboCaptureTest : public ::testing::Test {
 protected:
  CertaboCaptureTest() {
    DecoderOutput out;
    driver.on_connected(t(0), out);
  }
  DecoderOutput feed(const std::string& text, int ms) {
    DecoderOutput out;
    driver.on_bytes(std::vector<std::uint8_t>(text.begin(), text.end()), t(ms), out);
    return out;
  }
  CertaboDriver driver;
};

TEST_F(CertaboCaptureTest, CalibratesFromTheRecordedNoisyStartPosition) {
  DecoderOutput all;
  for (int i = 0; i < 7; ++i) {
    auto out = feed(calibration_line(i), 10 * (i + 1));
    all.events.insert(all.events.end(), out.events.begin(), out.events.end());
  }
  // PicoChess: complete after the seven; the driver needs three stable readings.
  ASSERT_EQ(only<Calibration>(all).size(), 1u);
  EXPECT_TRUE(driver.calibrated());
  const auto info = only<DeviceInfo>(all);
  ASSERT_FALSE(info.empty());
  EXPECT_EQ(info.back().text, "calibrated: 32 pieces known");
  // The readings after it: the noise reads as empty squares, the pieces as the start.
  ASSERT_EQ(only<PlacementSeen>(all).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(all)[0].placement, start_placement());
  EXPECT_TRUE(only<SquareChanged>(all).empty());
}

TEST_F(CertaboCaptureTest, AFlickeringTagInTheRecordedStartPositionDoesNotCalibrate) {
  const int a8_first[7] = {1, 2, 3, 4, 2, 1, 1};
  for (int i = 0; i < 7; ++i) {
    const auto out = feed(calibration_line(i, a8_first[i]), 10 * (i + 1));
    EXPECT_TRUE(only<Calibration>(out).empty()) << "reading " << i;
    EXPECT_TRUE(only<PlacementSeen>(out).empty()) << "reading " << i;
  }
  EXPECT_FALSE(driver.calibrated());
}

TEST_F(CertaboCaptureTest, TheRecordedPawnDepartureThroughTheMajority) {
  auto out = feed(kStart2 + kStart2 + kStart2, 10);
  ASSERT_EQ(only<Calibration>(out).size(), 1u);
  out = feed(kStart2 + kStart2, 20);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
  EXPECT_TRUE(only<SquareChanged>(feed(kH7Gone, 30)).empty());  // one reading: no majority
  auto changes = only<SquareChanged>(feed(kH7Gone, 40));
  ASSERT_EQ(changes.size(), 1u);     // PicoChess: "rnbqkbnr/ppppppp1/..."
  EXPECT_EQ(changes[0].square, 55);  // h7
  EXPECT_EQ(changes[0].piece, Piece::kEmpty);
  // The damaged tags are in one reading of three: nothing changes (PicoChess, low gain).
  EXPECT_TRUE(only<SquareChanged>(feed(kH7GoneNoisy, 50)).empty());
}

}  // namespace
}  // namespace eboard::drivers::certabo
