// USB devices seen through one seam: enumeration, hot-plug, and opening a HID device as a
// Transport. Below it either libusb (usb_libusb.cpp: the real bus) or a directory of Unix
// sockets (usb_emulated.cpp: each socket is one emulated device, its packets are HID
// reports; how `eboard-sim chessnut` plugs a board in, since a pty cannot be a USB
// device). Everything above - the daemon's DeviceLink, eboard-dump, the hot-plug handling
// - is the same code for both.
//
// Hot-plug without polling: hotplug_fd() is readable when devices came or went (libusb's
// hot-plug callbacks, inotify on the emulated directory), and take_events() says which.
// Where the platform has no hot-plug support hotplug_fd() is -1 and the caller rescans
// devices() on a timer (UsbRescan below does the comparing).
//
// HID messages: the families that use this (Chessnut) carry each message's length in its
// second byte (chessnut_protocol.h), so a HID transport cuts what it is given to write
// into one report per message and returns each input report cut to its message.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "drivers/transport/transport.h"

namespace eboard::drivers {

struct UsbDeviceInfo {
  std::string location;  // "usb:3-1.4" (bus-ports) or "emulated:NAME"
  std::uint16_t vendor_id = 0;
  std::uint16_t product_id = 0;
  std::string serial;  // the descriptor's serial number, "" when none or unreadable
  std::string product;
  bool operator==(const UsbDeviceInfo&) const = default;
};

enum class UsbChange : std::uint8_t { kArrived, kLeft };
struct UsbEvent {
  UsbChange change = UsbChange::kArrived;
  UsbDeviceInfo device;
};

class UsbBus {
 public:
  virtual ~UsbBus() = default;
  virtual std::string name() const = 0;  // "libusb", "emulated USB bus in DIR"
  virtual std::vector<UsbDeviceInfo> devices() = 0;
  // Opens the device's vendor HID interface (usage page 0xFF00, docs/protocols.md §6).
  virtual std::variant<TransportPtr, IoError> open_hid(const UsbDeviceInfo& device) = 0;
  virtual int hotplug_fd() const = 0;
  virtual std::vector<UsbEvent> take_events() = 0;
};

// The real bus; nullptr and `error` set when libusb cannot start.
std::unique_ptr<UsbBus> make_libusb_bus(std::string& error);
// The emulated bus in `directory` (created if missing).
std::unique_ptr<UsbBus> make_emulated_bus(const std::string& directory, std::string& error);

// The emulated bus's file name for a device ("2d80-8001-SERIAL.hid") and back. The
// emulated serial ports (serial_ports.h) use the same names with the suffix ".tty".
inline constexpr const char* kHidSuffix = ".hid";
std::string emulated_device_file(std::uint16_t vendor, std::uint16_t product,
                                 const std::string& serial, std::string_view suffix = kHidSuffix);
std::optional<UsbDeviceInfo> parse_emulated_device_file(const std::string& file,
                                                        std::string_view suffix = kHidSuffix);

// The length of the message at the start of `bytes` by its length byte (bytes[1] + 2),
// at most bytes.size().
std::size_t hid_message_length(const std::uint8_t* bytes, std::size_t size);

// The fallback where there is no hot-plug: compares each rescan with the last one.
class UsbRescan {
 public:
  std::vector<UsbEvent> compare(std::vector<UsbDeviceInfo> now);

 private:
  std::vector<UsbDeviceInfo> last_;
};

// Where a HID report descriptor's first Usage Page item points (0xFF00 for Chessnut's
// vendor interface, 0x0001 for its other one); nullopt if it has none.
std::optional<std::uint16_t> report_usage_page(const std::uint8_t* descriptor, std::size_t size);

}  // namespace eboard::drivers
