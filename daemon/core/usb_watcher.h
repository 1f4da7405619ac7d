// Hands the USB bus's arrivals and departures (drivers/transport/usb_bus.h) to whoever
// listens - each board's DeviceLink - on the event loop. With hot-plug support the bus's
// fd is watched, so nothing happens until a device comes or goes; without it the bus is
// rescanned every kRescan and each rescan compared with the last (UsbRescan).
// Emulated serial ports (drivers/transport/serial_ports.h) come and go the same way and
// are watched the same way; a source of ports without events of its own (libserialport)
// is not watched: its ports arrive with their USB devices.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <optional>
#include <vector>

#include "drivers/transport/serial_ports.h"
#include "drivers/transport/usb_bus.h"

namespace eboard::daemon {

class UsbWatcher {
 public:
  using Handler = std::function<void(const std::vector<drivers::UsbEvent>&)>;
  static constexpr std::chrono::seconds kRescan{2};

  UsbWatcher(boost::asio::io_context& io, drivers::UsbBus& bus, Handler handler);
  UsbWatcher(boost::asio::io_context& io, drivers::SerialPorts& ports, Handler handler);
  ~UsbWatcher();
  UsbWatcher(const UsbWatcher&) = delete;
  UsbWatcher& operator=(const UsbWatcher&) = delete;
  bool hotplug() const { return stream_.has_value(); }

 private:
  void wait();
  void rescan_later();

  std::function<std::vector<drivers::UsbEvent>()> take_events_;
  std::function<std::vector<drivers::UsbDeviceInfo>()> devices_;  // null: no rescans
  Handler handler_;
  std::optional<boost::asio::posix::stream_descriptor> stream_;
  boost::asio::steady_timer timer_;
  drivers::UsbRescan rescan_;
};

}  // namespace eboard::daemon
