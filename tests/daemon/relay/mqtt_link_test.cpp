// The relay's reconnect schedule (daemon/programs/eboard_relay/mqtt_link.h): a broker that
// comes back after an outage of any length is tried again within a second.
#include "daemon/programs/eboard_relay/mqtt_link.h"

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

TEST(MqttLinkReconnect, ABrokerBackAfterAnyOutageIsTriedWithinASecond) {
  for (milliseconds outage{0}; outage <= milliseconds(120000); outage += milliseconds(50)) {
    EXPECT_LE(first_try_after(MqttLink::reconnect_backoff(), outage), milliseconds(1000))
        << "outage of " << outage.count() << " ms";
  }
  EXPECT_EQ(first_try_after(MqttLink::reconnect_backoff(), milliseconds(1)), milliseconds(99));
}

}  // namespace
}  // namespace eboard::daemon
