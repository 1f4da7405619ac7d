#include "daemon/core/usb_watcher.h"

namespace eboard::daemon {

UsbWatcher::UsbWatcher(boost::asio::io_context& io, drivers::UsbBus& bus, Handler handler)
    : bus_(bus), handler_(std::move(handler)), timer_(io) {
  if (bus_.hotplug_fd() >= 0) {
    stream_.emplace(io, bus_.hotplug_fd());
    wait();
  } else {
    (void)rescan_.compare(bus_.devices());  // what is there now is not an arrival
    rescan_later();
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
                        const auto events = bus_.take_events();
                        if (!events.empty()) handler_(events);
                        wait();
                      });
}

void UsbWatcher::rescan_later() {
  timer_.expires_after(kRescan);
  timer_.async_wait([this](const boost::system::error_code& error) {
    if (error) return;
    const auto events = rescan_.compare(bus_.devices());
    if (!events.empty()) handler_(events);
    rescan_later();
  });
}

}  // namespace eboard::daemon
