// The emulated serial ports (serial_ports.h): a directory in which each symlink named by
// emulated_serial_file() is one plugged-in USB-serial port, pointing at its pty. The
// emulator links it under a temporary name and renames it once the pty is made, so a
// port is never seen half-made; inotify reports the rename and the removal. A link whose
// pty is gone (an emulator killed without its unplug) is no port.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "drivers/transport/emulated_directory.h"
#include "drivers/transport/serial_ports.h"

namespace eboard::drivers {
namespace {

class EmulatedSerialPorts final : public SerialPorts {
 public:
  EmulatedSerialPorts(std::string directory, int inotify)
      : directory_(std::move(directory)), inotify_(inotify) {}
  ~EmulatedSerialPorts() override { ::close(inotify_); }

  std::string name() const override { return "emulated serial ports in " + directory_; }

  std::vector<PortInfo> ports() override {
    std::vector<PortInfo> found;
    for (const std::string& file : emulated_device_files(directory_, kTtySuffix)) {
      if (auto port = port_of(file)) found.push_back(std::move(*port));
    }
    std::sort(found.begin(), found.end(),
              [](const PortInfo& a, const PortInfo& b) { return a.path < b.path; });
    return found;
  }

  int hotplug_fd() const override { return inotify_; }

  std::vector<UsbEvent> take_events() override {
    return take_emulated_events(inotify_, kTtySuffix);
  }

 private:
  // The port a directory entry stands for: the pty it links to, with the USB identity
  // its name gives (as libserialport lists /dev/ttyACM0, not a /dev/serial/by-id link).
  std::optional<PortInfo> port_of(const std::string& file) const {
    const auto device = parse_emulated_device_file(file, kTtySuffix);
    if (!device) return std::nullopt;
    char target[PATH_MAX];
    if (::realpath((directory_ + "/" + file).c_str(), target) == nullptr) return std::nullopt;
    PortInfo port;
    port.path = target;
    port.kind = PortKind::kUsb;
    port.description = "emulated USB serial port " + file;
    port.usb_vendor_id = device->vendor_id;
    port.usb_product_id = device->product_id;
    port.usb_serial = device->serial;
    port.usb_product = device->product;
    return port;
  }

  std::string directory_;
  int inotify_;
};

}  // namespace

std::unique_ptr<SerialPorts> make_emulated_serial_ports(const std::string& directory,
                                                        std::string& error) {
  const int fd = watch_emulated_directory(directory, error);
  if (fd < 0) return nullptr;
  return std::make_unique<EmulatedSerialPorts>(directory, fd);
}

}  // namespace eboard::drivers
