// The replay request's JSON (docs/interfaces.md §7.2; daemon/sinks/mqtt_publisher.h).
#include <gtest/gtest.h>

#include <cstdint>

#include "daemon/sinks/mqtt_publisher.h"

namespace eboard::daemon {
namespace {

TEST(ReplayRequest, RangesAndRefusals) {
  using Range = std::pair<std::uint32_t, std::uint32_t>;
  EXPECT_EQ(parse_replay_request(R"({"fromSeq":7,"toSeq":9})"), Range(7, 9));
  EXPECT_EQ(parse_replay_request(R"({"fromSeq":1})"), Range(1, UINT32_MAX));
  EXPECT_EQ(parse_replay_request(R"({ "toSeq": 5, "fromSeq": 5, "why": "gap" })"), Range(5, 5));
  for (const char* bad : {"", "{}", "[1,2]", R"({"fromSeq":0})", R"({"fromSeq":-3})",
                          R"({"fromSeq":2.5})", R"({"fromSeq":"7"})", R"({"fromSeq":9,"toSeq":3})",
                          R"({"fromSeq":1e12})", "{\"fromSeq\":1", "not json"}) {
    EXPECT_EQ(parse_replay_request(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace eboard::daemon
