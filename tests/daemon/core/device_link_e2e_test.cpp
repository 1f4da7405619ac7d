// The device link on a ManualClock: reconnect backoff, the handshake and the driver's
// no-answer timer, driven by advancing the clock and calling on_timer() at next_wake(),
// never by sleeping. The board is the DGT emulator (simulators/dgt, the code of
// `eboard-sim dgt`) on a real pty; the only waits are for pty bytes (bounded polls).
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <filesystem>

#include "daemon/core/device_link.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/script/script_reader.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace std::chrono_literals;

class DeviceLinkTest : public testing::Test {
 protected:
  DeviceLinkTest()
      : path_(testing::TempDir() + "device_link_" + std::to_string(::getpid()) + ".pty"),
        epoch_(clock_.now()),
        session_("t1", GameSetup{}, drivers::WhiteSetting::kAuto,
                 [this](v1::Event e) {
                   events_.push_back(e);
                   return static_cast<std::uint32_t>(events_.size());
                 }),
        emulator_(sim::DgtEmulatorOptions{}) {
    emulator_.set_placement(script::start_placement());
  }

  DeviceLink make_link() {
    drivers::BoardSpec spec;
    spec.driver = "dgt";
    spec.device = path_;
    return DeviceLink(io_, clock_, epoch_, spec, session_, [](LogLevel, const std::string&) {});
  }
  // Advances the ManualClock to the link's next wake-up and fires it.
  void fire(DeviceLink& link) {
    ASSERT_TRUE(link.next_wake());
    const auto wait = *link.next_wake() - clock_.now();
    if (wait > decltype(wait)::zero())
      clock_.advance(std::chrono::duration_cast<std::chrono::milliseconds>(wait));
    link.on_timer();
  }
  std::chrono::milliseconds until_wake(const DeviceLink& link) const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(*link.next_wake() - clock_.now());
  }
  // Plays the board: answers what the driver wrote, then lets the link read the replies
  // (bounded waits on the pty and the loop) until `done`.
  bool serve_until(const std::function<bool()>& done) {
    for (int round = 0; round < 50 && !done(); ++round) {
      pollfd p{pty_.master_fd(), POLLIN, 0};
      if (::poll(&p, 1, 20) > 0 && (p.revents & POLLIN)) {
        std::uint8_t buffer[512];
        const ssize_t n = ::read(pty_.master_fd(), buffer, sizeof buffer);
        if (n > 0) {
          const auto reply =
              emulator_.on_host_bytes(std::span(buffer, static_cast<std::size_t>(n)));
          if (!reply.empty()) {
            EXPECT_EQ(::write(pty_.master_fd(), reply.data(), reply.size()), ssize_t(reply.size()));
          }
        }
      }
      io_.restart();
      io_.run_for(20ms);  // the link's readable handler
    }
    return done();
  }
  std::size_t count(v1::DeviceState state,
                    v1::DeviceRole role = v1::DEVICE_ROLE_UNSPECIFIED) const {
    std::size_t n = 0;
    for (const auto& e : events_) {
      n += e.has_device_status() && e.device_status().state() == state &&
           (role == v1::DEVICE_ROLE_UNSPECIFIED || e.device_status().role() == role);
    }
    return n;
  }

  std::string path_;
  boost::asio::io_context io_;
  ManualClock clock_;
  SteadyTime epoch_;
  std::vector<v1::Event> events_;
  BoardSession session_;
  sim::PtyLink pty_{path_};
  sim::DgtEmulator emulator_;
};

TEST_F(DeviceLinkTest, ReconnectBacksOffThenConnectsAndReportsOnce) {
  DeviceLink link = make_link();
  link.start();
  EXPECT_EQ(count(v1::DEVICE_STATE_CONNECTING), 1u);
  EXPECT_EQ(count(v1::DEVICE_STATE_DISCONNECTED), 1u);  // the port is not there
  EXPECT_EQ(until_wake(link), 100ms);
  clock_.advance(99ms);
  link.on_timer();  // early: nothing happens
  EXPECT_EQ(until_wake(link), 1ms);
  fire(link);
  EXPECT_EQ(until_wake(link), 200ms);  // doubled
  fire(link);
  EXPECT_EQ(until_wake(link), 400ms);
  EXPECT_EQ(count(v1::DEVICE_STATE_DISCONNECTED), 1u) << "a retry repeated the report";

  ASSERT_TRUE(std::holds_alternative<std::monostate>(pty_.open()));  // plugged in
  fire(link);
  EXPECT_TRUE(link.connected());
  ASSERT_TRUE(serve_until([&] { return count(v1::DEVICE_STATE_CONNECTED) > 0; })) << "no handshake";
  link.stop();
}

TEST_F(DeviceLinkTest, SilentBoardIsDroppedByTheDriversTimerAndRetried) {
  ASSERT_TRUE(std::holds_alternative<std::monostate>(pty_.open()));
  DeviceLink link = make_link();
  link.start();
  EXPECT_TRUE(link.connected());
  // Nobody answers the handshake: the driver's deadline, on the ManualClock, gives up.
  const auto lost = [&] { return count(v1::DEVICE_STATE_DISCONNECTED) > 0; };
  for (int i = 0; i < 10 && !lost(); ++i) fire(link);
  ASSERT_TRUE(lost());
  EXPECT_FALSE(link.connected());
  EXPECT_GT(clock_.now() - epoch_, 0ms);
  EXPECT_EQ(until_wake(link), 100ms);  // the first reconnect attempt
  link.stop();
}

// The DGT 3000 on the board's cable: its first clock message makes the clock CONNECTED
// (once), and losing the board's link loses the clock with it.
TEST_F(DeviceLinkTest, TheClockOnTheBoardsCableIsReportedConnected) {
  ASSERT_TRUE(std::holds_alternative<std::monostate>(pty_.open()));
  DeviceLink link = make_link();
  link.start();
  ASSERT_TRUE(serve_until([&] { return count(v1::DEVICE_STATE_CONNECTED) > 0; }));
  const auto clock_connected = [&] {
    return count(v1::DEVICE_STATE_CONNECTED, v1::DEVICE_ROLE_CLOCK) > 0;
  };
  for (int second = 1; second <= 3 && !clock_connected(); ++second) {
    const auto bytes = emulator_.advance_clock(script::Millis(1000 * second));
    if (!bytes.empty()) {
      ASSERT_EQ(::write(pty_.master_fd(), bytes.data(), bytes.size()), ssize_t(bytes.size()));
    }
    serve_until(clock_connected);
  }
  ASSERT_TRUE(clock_connected()) << "no clock message made the clock CONNECTED";
  const auto again = emulator_.advance_clock(script::Millis(5000));
  if (!again.empty()) {
    ASSERT_EQ(::write(pty_.master_fd(), again.data(), again.size()), ssize_t(again.size()));
  }
  serve_until([] { return false; });
  EXPECT_EQ(count(v1::DEVICE_STATE_CONNECTED, v1::DEVICE_ROLE_CLOCK), 1u) << "reported once";
  pty_.hang_up();
  const auto lost = [&] { return count(v1::DEVICE_STATE_DISCONNECTED, v1::DEVICE_ROLE_CLOCK) > 0; };
  serve_until(lost);
  for (int i = 0; i < 10 && !lost(); ++i) fire(link);
  EXPECT_TRUE(lost()) << "the clock is not heard once the board's link is down";
  link.stop();
}

}  // namespace
}  // namespace eboard::daemon
