// Talking to systemd (sd_notify(3), systemd.service(5)): READY=1 once the listeners are bound and
// every board is opened or being retried, STATUS= lines for `systemctl status`,
// STOPPING=1 on the way out, and WATCHDOG=1 from a timer on the event loop itself at half
// the interval systemd asks for, so a stuck loop - not only a dead process - gets the
// service restarted. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <string>

namespace eboard::daemon {

class SystemdNotifier {
 public:
  explicit SystemdNotifier(boost::asio::io_context& io) : timer_(io) {}
  void ready(const std::string& status);
  void status(const std::string& status);
  void stopping();
  // Starts the watchdog pings if the unit has WatchdogSec=.
  void start_watchdog();
  void stop_watchdog() { timer_.cancel(); }

 private:
  void ping();
  boost::asio::steady_timer timer_;
  std::chrono::microseconds interval_{0};
};

}  // namespace eboard::daemon
