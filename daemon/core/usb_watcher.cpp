#include "daemon/core/usb_watcher.h"

namespace eboard::daemon {

UsbWatcher::UsbWatcher(boost::asio::io_context& io, drivers::UsbBus& bus, Handler handler)
    : take_events_([&bus] { return bus.take_events(); }),
      devices_([&bus] { return bus.devices(); }),
      handler_(std::move(handler)),
      timer_(io) {
  if (bus.hotplug_fd() >= 0) {
    stream_.emplace(io, bus.hotplug_fd());
    wait();
  } else {
    (void)rescan_.compare(devices_());  // what is there now is not an arrival
    rescan_later();
  }
}

UsbWatcher::UsbWatcher(boost::asio::io_context& io, drivers::SerialPorts& ports, Handler handler)
    : take_events_([&ports] { return ports.take_events(); }),
      handler_(std::move(handler)),
      timer_(io) {
  if (ports.hotplug_fd() >= 0) {
    stream_.emplace(io, ports.hotplug_fd());
    wait();
  }
}

UsbWatcher::~UsbWatcher() {
  timer_.cancel();
  if (stream_) {
    stream_->cancel();
    stream_->release();  // the bus owns the fd
  }
}

void UsbWatcher::wait() {
  stream_->async_wait(boost::asio::posix::stream_descriptor::wait_read,
                      [this](const boost::system::error_code& error) {
                        if (error) return;
                        const auto events = take_events_();
                        if (!events.empty()) handler_(events);
                        wait();
                      });
}

void UsbWatcher::rescan_later() {
  timer_.expires_after(kRescan);
  timer_.async_wait([this](const boost::system::error_code& error) {
    if (error) return;
    const auto events = rescan_.compare(devices_());
    if (!events.empty()) handler_(events);
    rescan_later();
  });
}

}  // namespace eboard::daemon
