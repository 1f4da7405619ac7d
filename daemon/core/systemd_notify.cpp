#include "daemon/core/systemd_notify.h"

#include <systemd/sd-daemon.h>

namespace eboard::daemon {

void SystemdNotifier::ready(const std::string& status) {
  sd_notify(0, ("READY=1\nSTATUS=" + status).c_str());
}

void SystemdNotifier::status(const std::string& status) {
  sd_notify(0, ("STATUS=" + status).c_str());
}

void SystemdNotifier::stopping() { sd_notify(0, "STOPPING=1"); }

void SystemdNotifier::start_watchdog() {
  std::uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return;
  interval_ = std::chrono::microseconds(usec / 2);
  ping();
}

void SystemdNotifier::ping() {
  sd_notify(0, "WATCHDOG=1");
  timer_.expires_after(interval_);
  timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) ping();
  });
}

}  // namespace eboard::daemon
