// Length-delimited framing (docs/interfaces.md §4): binary round trips, a reader fed whole,
// byte by byte and in odd chunks, and every way a length can be wrong.
#include "eboard/v1/framing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eboard/v1/frame.pb.h"

namespace eboard::proto {
namespace {

using eboard::v1::Frame;

std::vector<Frame> sample_frames() {
  std::vector<Frame> frames(4);
  frames[0].mutable_hello()->set_daemon_version("0.1.0");
  frames[0].mutable_hello()->set_protocol_version(1);
  frames[0].mutable_hello()->add_board_ids("b1");
  frames[0].mutable_hello()->add_board_ids("b2");
  auto* snapshot = frames[1].mutable_snapshot();
  snapshot->set_board_id("b1");
  snapshot->set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  snapshot->set_last_seq(12);
  auto* move = snapshot->add_moves();
  move->set_ply(1);
  move->set_uci("e2e4");
  move->set_san("e4");
  snapshot->set_running(eboard::v1::SIDE_BLACK);
  snapshot->set_board_state(eboard::v1::DEVICE_STATE_CONNECTED);
  auto* event = frames[2].mutable_event();
  event->set_board_id("b1");
  event->set_seq(13);
  event->mutable_move_completed()->set_san("e5");
  event->mutable_move_completed()->set_black_ms(-250);  // negative values survive
  auto* command = frames[3].mutable_command();
  command->set_command_id(9);
  command->set_token("s3cret");
  command->mutable_add_time()->set_side(eboard::v1::SIDE_WHITE);
  command->mutable_add_time()->set_delta_ms(60000);
  // A big frame, so that its length prefix takes several bytes.
  frames[3].mutable_command()->set_board_id(std::string(300, 'x'));
  return frames;
}

std::string encode_all(const std::vector<Frame>& frames) {
  std::string bytes;
  for (const Frame& frame : frames) append_delimited(frame, bytes);
  return bytes;
}

// Feeds `bytes` in chunks of `chunk` bytes and collects every frame read.
std::vector<Frame> read_chunked(const std::string& bytes, std::size_t chunk) {
  FrameReader reader;
  std::vector<Frame> frames;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    reader.feed(std::string_view(bytes).substr(at, chunk));
    Frame frame;
    for (;;) {
      const auto status = reader.next(frame);
      EXPECT_TRUE(status.ok()) << status.error();
      if (!status.ok() || status.value() == ReadStatus::kNeedMore) break;
      frames.push_back(frame);
    }
  }
  EXPECT_EQ(reader.buffered_bytes(), 0u);
  EXPECT_EQ(reader.consumed_bytes(), bytes.size());
  return frames;
}

void expect_same(const std::vector<Frame>& got, const std::vector<Frame>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].SerializeAsString(), want[i].SerializeAsString()) << "frame " << i;
  }
}

TEST(Framing, BinaryRoundTripKeepsEveryField) {
  for (const Frame& frame : sample_frames()) {
    Frame copy;
    ASSERT_TRUE(copy.ParseFromString(frame.SerializeAsString()));
    EXPECT_EQ(copy.DebugString(), frame.DebugString());
  }
}

TEST(Framing, PrefixIsTheVarintLength) {
  Frame frame;
  frame.mutable_event()->set_board_id(std::string(200, 'b'));
  const std::string bytes = encode_delimited(frame);
  const std::size_t size = frame.ByteSizeLong();
  ASSERT_GT(size, 127u);
  ASSERT_EQ(bytes.size(), size + 2);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), (size & 0x7F) | 0x80);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), size >> 7);
}

TEST(Framing, WholeBufferByteByByteAndOddChunksGiveTheSameFrames) {
  const auto frames = sample_frames();
  const std::string bytes = encode_all(frames);
  for (std::size_t chunk : {bytes.size(), std::size_t{1}, std::size_t{2}, std::size_t{3},
                            std::size_t{7}, std::size_t{64}, std::size_t{333}}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    expect_same(read_chunked(bytes, chunk), frames);
  }
}

TEST(Framing, FrameAppearsExactlyWithItsLastByte) {
  Frame frame;
  frame.mutable_ack()->set_command_id(3);
  frame.mutable_ack()->set_ok(true);
  const std::string bytes = encode_delimited(frame);
  FrameReader reader;
  Frame got;
  for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
    reader.feed(bytes.substr(i, 1));
    const auto status = reader.next(got);
    ASSERT_TRUE(status.ok()) << status.error();
    EXPECT_EQ(status.value(), ReadStatus::kNeedMore) << "after byte " << i;
  }
  reader.feed(bytes.substr(bytes.size() - 1));
  const auto status = reader.next(got);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(status.value(), ReadStatus::kMessage);
  EXPECT_EQ(got.ack().command_id(), 3u);
}

TEST(Framing, EmptyFrameIsAFrame) {
  FrameReader reader;
  reader.feed(std::string(1, '\0'));
  Frame frame;
  const auto status = reader.next(frame);
  ASSERT_TRUE(status.ok()) << status.error();
  EXPECT_EQ(status.value(), ReadStatus::kMessage);
  EXPECT_EQ(frame.msg_case(), Frame::MSG_NOT_SET);
}

TEST(Framing, OversizeLengthIsRefusedWithItsOffset) {
  Frame ok;
  ok.mutable_ack()->set_command_id(1);
  std::string bytes = encode_delimited(ok);
  const std::size_t offset = bytes.size();
  // 1 MiB + 1 = 0x100001 as a varint: 81 80 c0 00 would be non-canonical; build it.
  const std::uint32_t length = kMaxFrameBytes + 1;
  bytes += static_cast<char>((length & 0x7F) | 0x80);
  bytes += static_cast<char>(((length >> 7) & 0x7F) | 0x80);
  bytes += static_cast<char>(length >> 14);
  FrameReader reader;
  reader.feed(bytes);
  Frame frame;
  auto status = reader.next(frame);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(status.value(), ReadStatus::kMessage);
  status = reader.next(frame);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), "frame at byte " + std::to_string(offset) +
                                ": length 1048577 exceeds the limit of 1048576 bytes");
  EXPECT_TRUE(reader.failed());
}

TEST(Framing, LimitIsInclusive) {
  Frame frame;
  frame.mutable_event()->set_board_id("0123456789");  // 14 bytes serialised
  const std::size_t size = frame.ByteSizeLong();
  {
    FrameReader reader(size);
    reader.feed(encode_delimited(frame));
    Frame got;
    const auto status = reader.next(got);
    ASSERT_TRUE(status.ok()) << status.error();
    EXPECT_EQ(status.value(), ReadStatus::kMessage);
  }
  FrameReader reader(size - 1);
  reader.feed(encode_delimited(frame));
  Frame got;
  const auto status = reader.next(got);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), "frame at byte 0: length " + std::to_string(size) +
                                " exceeds the limit of " + std::to_string(size - 1) + " bytes");
}

TEST(Framing, OversizeIsSeenBeforeTheLengthEnds) {
  // Three continuation bytes already mean at least 0x7F | 0x7F<<7 | 0x7F<<14 = 2097151.
  FrameReader reader;
  reader.feed("\xff\xff\xff");
  Frame frame;
  const auto status = reader.next(frame);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(),
            "frame at byte 0: length of at least 2097151 exceeds the limit of 1048576 bytes");
}

TEST(Framing, OverlongVarintIsRefused) {
  FrameReader reader;
  reader.feed(std::string("\x80\x80\x80\x80\x80\x00", 6));  // zero, non-canonically
  Frame frame;
  const auto status = reader.next(frame);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), "frame at byte 0: length prefix is longer than 5 bytes");
}

TEST(Framing, GarbagePayloadIsRefusedAndTheErrorSticks) {
  FrameReader reader;
  reader.feed(std::string("\x02\xff\xff", 3));  // a field tag cut short
  Frame frame;
  auto status = reader.next(frame);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), "frame at byte 0: 2 bytes are not a valid eboard.v1.Frame");
  // The stream is out of step: good frames afterwards are not read.
  Frame good;
  good.mutable_ack()->set_ok(true);
  reader.feed(encode_delimited(good));
  status = reader.next(frame);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), "frame at byte 0: 2 bytes are not a valid eboard.v1.Frame");
  EXPECT_EQ(reader.buffered_bytes(), 0u);
}

TEST(Framing, BufferStaysSmallOverALongStream) {
  Frame frame;
  frame.mutable_event()->set_board_id("b1");
  frame.mutable_event()->mutable_clock()->set_white_ms(1000);
  const std::string one = encode_delimited(frame);
  FrameReader reader;
  std::size_t read = 0;
  Frame got;
  for (int i = 0; i < 2000; ++i) {
    for (char byte : one) {
      reader.feed(std::string_view(&byte, 1));
      const auto status = reader.next(got);
      ASSERT_TRUE(status.ok()) << status.error();
      if (status.value() == ReadStatus::kMessage) ++read;
      ASSERT_LT(reader.buffered_bytes(), one.size());
    }
  }
  EXPECT_EQ(read, 2000u);
  EXPECT_EQ(reader.consumed_bytes(), 2000u * one.size());
}

}  // namespace
}  // namespace eboard::proto
