#include "drivers/certabo/certabo_driver.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/drivers/stream_check.h"

namespace eboard::drivers::certabo {
namespace {

using std::chrono::milliseconds;
using testing::Bytes;
using testing::feed_stream;

TimePoint t(int ms) { return TimePoint{} + milliseconds(ms); }

template <class T>
std::vector<T> only(const DecoderOutput& out) {
  std::vector<T> found;
  for (const auto& e : out.events) {
    if (const T* x = std::get_if<T>(&e)) found.push_back(*x);
  }
  return found;
}

// A set of pieces with tags like the captured ones (`3 0 84 x y`), on engine squares.
struct Board {
  std::array<Tag, 64> tags{};
  std::map<Tag, Piece> pieces;
  Board() {
    const Placement start = start_placement();
    for (int sq = 0; sq < 64; ++sq) {
      if (start[sq] == Piece::kEmpty) continue;
      tags[sq] = Tag{3} << 32 | Tag{84} << 16 | static_cast<Tag>(1000 + sq * 37);
      pieces[tags[sq]] = start[sq];
    }
  }
  Placement placement() const {
    Placement p{};
    for (int sq = 0; sq < 64; ++sq) p[sq] = tags[sq] ? pieces.at(tags[sq]) : Piece::kEmpty;
    return p;
  }
  std::string line(std::mt19937* noise = nullptr, std::size_t chunk = 64) const {
    TagReading r;
    for (std::size_t i = 0; i < 64; ++i) {
      r.tags[i] = tags[square_of(i)];
      if (noise && !r.tags[i] && (*noise)() % 20 == 0) r.tags[i] = ((*noise)() & 0xFFFFFFFF) << 8;
    }
    return format_tags(r, chunk);
  }
  std::string calibration() const {
    CalibrationMap map;
    for (const auto& [tag, piece] : pieces) map.set(tag, piece);
    return map.to_text();
  }
};

Bytes bytes(const std::string& text) { return Bytes(text.begin(), text.end()); }

TEST(CertaboFrames, ReadsTheCapturedLineForm) {
  // PicoChess's captured form: LFs every 64 characters, also inside a number; an `L`.
  LineReader reader;
  std::vector<Reading> out;
  Board board;
  std::string text = board.line(nullptr, 64);
  text.insert(text.size() - 2, "\nL");
  reader.feed(bytes(text), out);
  ASSERT_EQ(out.size(), 1u);
  const auto& tags = std::get<TagReading>(out[0]).tags;
  EXPECT_EQ(tags[0], board.tags[56]);  // index 0 = a8
  EXPECT_EQ(reader.leds(), LedKind::kPlain);
  reader.feed(bytes(":255 255 0 0 0 0 255 254 \r\n"), out);  // Sentio (PicoChess)
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(std::get<OccupancyReading>(out[1]).ranks[7], 254);
  reader.feed(bytes(":3 0 84 2XX23 1\r\n"), out);
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(reader.bad_lines(), 1u);
}

class CertaboDriverTest : public ::testing::Test {
 protected:
  DecoderOutput feed(const std::string& text, int ms) {
    DecoderOutput out;
    driver.on_bytes(bytes(text), t(ms), out);
    return out;
  }
  CertaboDriver driver;
  Board board;
};

TEST_F(CertaboDriverTest, CalibratesFromTheStartPositionThenReports) {
  DecoderOutput out;
  driver.on_connected(t(0), out);
  EXPECT_EQ(out.to_send, Bytes(8, 0));  // all LEDs off
  out = feed(board.line() + board.line(), 10);
  EXPECT_EQ(only<LinkStatus>(out)[0].state, LinkState::kConfirmed);
  EXPECT_TRUE(only<Calibration>(out).empty());  // needs three stable readings
  out = feed(board.line(), 20);
  ASSERT_EQ(only<Calibration>(out).size(), 1u);
  EXPECT_EQ(only<Calibration>(out)[0].text, board.calibration());
  out = feed(board.line() + board.line(), 30);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement, start_placement());
  std::swap(board.tags[12], board.tags[28]);  // e2-e4
  out = feed(board.line(), 40);
  EXPECT_TRUE(only<SquareChanged>(out).empty());  // one reading is no majority
  out = feed(board.line(), 50);
  EXPECT_EQ(only<SquareChanged>(out).size(), 2u);
}

TEST_F(CertaboDriverTest, SwappedQueensAreRefusedWithTheSquares) {
  CertaboDriver calibrated(board.calibration());
  DecoderOutput out;
  calibrated.on_connected(t(0), out);
  calibrated.recalibrate(t(0), out);
  std::swap(board.tags[3], board.tags[59]);  // the queens on each other's squares
  calibrated.on_bytes(bytes(board.line() + board.line() + board.line()), t(10), out);
  const auto refused = only<LinkStatus>(out);
  ASSERT_EQ(refused.back().state, LinkState::kRefused);
  EXPECT_EQ(refused.back().detail,
            "calibration refused: d1 holds the black queen, not the white queen; d8 holds the "
            "white queen, not the black queen: set the start position up with every piece on "
            "its own square (or recalibrate a new set)");
  EXPECT_TRUE(only<Calibration>(out).empty());
  EXPECT_FALSE(calibrated.calibrated());
  // Put right, it is taken.
  std::swap(board.tags[3], board.tags[59]);
  out = DecoderOutput{};
  calibrated.on_bytes(bytes(board.line() + board.line() + board.line()), t(20), out);
  EXPECT_EQ(only<Calibration>(out).size(), 1u);
}

TEST_F(CertaboDriverTest, OccupancyOnlyBoardReadsOccupancy) {
  DecoderOutput out;
  driver.on_connected(t(0), out);
  out = feed(":255 255 0 0 0 0 255 255 \r\n:255 255 0 0 0 0 255 255 \r\n", 10);
  ASSERT_EQ(only<PlacementSeen>(out).size(), 1u);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement[0], Piece::kOccupied);
  EXPECT_EQ(only<PlacementSeen>(out)[0].placement[16], Piece::kEmpty);
  EXPECT_EQ(driver.traits().sensing, Sensing::kOccupancy);
  out = feed(":255 255 0 0 0 0 247 255 \r\n:255 255 0 0 0 0 247 255 \r\n", 20);
  ASSERT_EQ(only<SquareChanged>(out).size(), 1u);
  EXPECT_EQ(only<SquareChanged>(out)[0].square, 12);  // e2: rank 2, bit 3 from the a-file
}

// Board states by moving tagged pieces at random, each sent three times (the board
// streams), with RFID noise on empty squares.
struct TagStream {
  std::vector<Placement> states;
  Bytes stream;
  std::vector<std::size_t> ends, state_of;
  int damaged = 0;
};

TagStream tag_stream(Board board, std::size_t count, bool damage, std::uint32_t seed) {
  std::mt19937 random(seed);
  TagStream s;
  s.states.push_back(board.placement());
  std::vector<Tag> hand;
  while (s.states.size() < count) {
    const int sq = static_cast<int>(random() % 64);
    if (board.tags[sq] && (hand.size() < 3 || random() % 2)) {
      hand.push_back(board.tags[sq]);
      board.tags[sq] = 0;
    } else if (!board.tags[sq] && !hand.empty()) {
      board.tags[sq] = hand.back();
      hand.pop_back();
    } else {
      continue;
    }
    s.states.push_back(board.placement());
    const int hurt = damage && s.states.size() % 7 == 0 ? static_cast<int>(random() % 3) : -1;
    for (int copy = 0; copy < 3; ++copy) {
      std::string line = board.line(&random);
      if (copy == 1 && hurt >= 0) {
        ++s.damaged;
        if (hurt == 0) line[1 + random() % (line.size() - 4)] = 'x';        // not a number
        if (hurt == 1) line.insert(1 + random() % (line.size() - 4), ":");  // cut short
        if (hurt == 2) line = "#$%" + line.substr(10);                      // lost start
      }
      s.stream.insert(s.stream.end(), line.begin(), line.end());
      s.ends.push_back(s.stream.size());
      s.state_of.push_back(s.states.size() - 1);
    }
  }
  return s;
}

TEST_F(CertaboDriverTest, ByteByByteInRandomSplitsGivesEveryChange) {
  const TagStream s = tag_stream(board, 60, false, 3);
  for (const std::size_t chunk : {1u, 9u, 700u}) {
    CertaboDriver fresh(board.calibration());
    DecoderOutput out;
    fresh.on_connected(t(0), out);
    fresh.on_bytes(bytes(board.line() + board.line()), t(1), out);
    ASSERT_TRUE(fresh.in_sync());
    TimePoint now = t(10);
    const auto result = feed_stream(fresh, s.states, s.stream, s.ends, s.state_of, 5, chunk, now);
    EXPECT_TRUE(testing::same(result.changes, testing::true_changes(s.states))) << chunk;
    EXPECT_FALSE(result.invented);
    EXPECT_EQ(result.resyncs, 0);
  }
}

TEST_F(CertaboDriverTest, DamagedLinesGiveResyncsNeverAFalseState) {
  const TagStream s = tag_stream(board, 300, true, 8);
  CertaboDriver fresh(board.calibration());
  DecoderOutput out;
  fresh.on_connected(t(0), out);
  fresh.on_bytes(bytes(board.line() + board.line()), t(1), out);
  TimePoint now = t(10);
  const auto result = feed_stream(fresh, s.states, s.stream, s.ends, s.state_of, 2, 17, now);
  EXPECT_FALSE(result.invented);
  EXPECT_EQ(result.picture, s.states.back());
  EXPECT_GE(result.resyncs, 1);
  EXPECT_LE(result.resyncs, 2 * s.damaged);  // a line cut in two counts twice
  EXPECT_TRUE(fresh.in_sync());
}

}  // namespace
}  // namespace eboard::drivers::certabo
