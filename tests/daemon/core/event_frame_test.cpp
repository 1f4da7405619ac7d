// The hub's Frame{event} wrapper (event_hub.h): what frame_from_event_bytes builds is the
// Frame Protobuf writes, and event_bytes_of_frame gives back the very Event bytes inside
// it, which the MQTT sink publishes without serialising the event again.
#include <gtest/gtest.h>

#include <string>

#include "daemon/core/event_hub.h"
#include "eboard/v1/frame.pb.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

std::string event_bytes(std::size_t description_size) {
  v1::Event event;
  event.set_board_id("b1");
  event.set_seq(12);
  event.mutable_position_changed()->set_description(std::string(description_size, 'x'));
  return event.SerializeAsString();
}

TEST(EventFrame, IsTheFrameProtobufWritesAndGivesItsEventBack) {
  // Small and large events: one- and two-byte length varints on both levels.
  for (const std::size_t size : {0u, 100u, 130u, 20'000u}) {
    const std::string bytes = event_bytes(size);
    const std::string frame = frame_from_event_bytes(bytes);

    v1::Frame expected;
    ASSERT_TRUE(expected.mutable_event()->ParseFromString(bytes));
    std::string delimited;
    {
      google::protobuf::io::StringOutputStream out(&delimited);
      google::protobuf::io::CodedOutputStream coded(&out);
      coded.WriteVarint32(static_cast<std::uint32_t>(expected.ByteSizeLong()));
      ASSERT_TRUE(expected.SerializeToCodedStream(&coded));
    }
    EXPECT_EQ(frame, delimited) << size;

    const std::string_view inside = event_bytes_of_frame(frame);
    EXPECT_EQ(inside, bytes) << size;
    EXPECT_EQ(inside.data(), frame.data() + frame.size() - bytes.size()) << "a view, not a copy";
  }
}

TEST(EventFrame, BytesThatAreNotSuchAFrameGiveNothing) {
  const std::string frame = frame_from_event_bytes(event_bytes(10));
  EXPECT_TRUE(event_bytes_of_frame("").empty());
  EXPECT_TRUE(event_bytes_of_frame(frame.substr(0, frame.size() - 1)).empty());
  EXPECT_TRUE(event_bytes_of_frame(frame + "x").empty());
  std::string other_field = frame;
  other_field[1] = 0x12;  // Frame.snapshot, not Frame.event
  EXPECT_TRUE(event_bytes_of_frame(other_field).empty());
  EXPECT_TRUE(event_bytes_of_frame(std::string(12, '\xff')).empty());
}

}  // namespace
}  // namespace eboard::daemon
