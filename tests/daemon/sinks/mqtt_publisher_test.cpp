// The publisher's reconnect schedule (daemon/sinks/mqtt_publisher.h): a broker that comes
// back after an outage of any length is tried again within a second.
#include "daemon/sinks/mqtt_publisher.h"

#include <gtest/gtest.h>

namespace eboard::daemon {
namespace {

using std::chrono::milliseconds;

// How long after the broker is back (`outage` after the loss) the first attempt comes.
milliseconds first_try_after(drivers::Backoff backoff, milliseconds outage) {
  milliseconds at{0};
  while (at < outage) at += backoff.next_delay();
  return at - outage;
}

TEST(MqttPublisherReconnect, ABrokerBackAfterAnyOutageIsTriedWithinASecond) {
  for (milliseconds outage{0}; outage <= milliseconds(120000); outage += milliseconds(50)) {
    EXPECT_LE(first_try_after(MqttPublisher::reconnect_backoff(), outage), milliseconds(1000))
        << "outage of " << outage.count() << " ms";
  }
  // And the first attempts come quickly: a broker that blinked is back at once.
  EXPECT_EQ(first_try_after(MqttPublisher::reconnect_backoff(), milliseconds(1)), milliseconds(99));
}

}  // namespace
}  // namespace eboard::daemon
