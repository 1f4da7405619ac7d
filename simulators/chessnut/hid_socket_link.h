// An emulated USB HID device on the emulated USB bus (drivers/transport/usb_bus.h): a
// listening Unix SOCK_SEQPACKET socket DIR/VVVV-PPPP-SERIAL.hid. Plugging in binds it
// under a temporary name and renames it once it listens (so the host's inotify never
// sees it half-made), unplugging closes and removes it. The host opening the device is a
// connection; each packet is one HID report.
#pragma once

#include <cstdint>
#include <string>

#include "simulators/emulator/emulator_link.h"

namespace eboard::sim {

class HidSocketLink final : public EmulatorLink {
 public:
  HidSocketLink(std::string directory, std::uint16_t vendor, std::uint16_t product,
                std::string serial);
  HidSocketLink(const HidSocketLink&) = delete;
  HidSocketLink& operator=(const HidSocketLink&) = delete;
  ~HidSocketLink() override;

  std::variant<std::monostate, PtyError> open() override;
  void hang_up() override;
  void remove_link() override;
  bool is_open() const override { return connection_ >= 0; }
  int data_fd() const override { return connection_; }
  int accept_fd() const override { return listener_; }
  void accept() override;
  void host_left() override;
  int unread_by_host() const override;
  std::string describe() const override { return path_; }
  bool packets() const override { return true; }

 private:
  std::string directory_;
  std::string path_;
  int listener_ = -1;
  int connection_ = -1;
};

}  // namespace eboard::sim
