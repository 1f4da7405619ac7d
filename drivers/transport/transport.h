// The one interface between a device's bytes and whoever moves them (style.md layout:
// transport/ holds tty, serial enumeration and USB). A decoder never sees a transport and
// a transport knows no protocol; the daemon's DeviceLink and eboard-dump move bytes
// between the two.
//
// Every transport is one non-blocking file descriptor that the caller's event loop
// watches: a tty's own fd (tty_port.h), or for a USB device the fd that its USB backend
// makes readable when an input report has arrived (usb_bus.h). read_some() never blocks
// and returns 0 bytes when nothing is there; an IoError means the device is gone (EOF,
// hang-up, unplugged) and the caller reconnects.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>

namespace eboard::drivers {

struct IoError {
  std::string message;
};

// A serial line's settings (the family's, factory.h).
enum class Parity : std::uint8_t { kNone, kOdd, kEven };
struct LineSettings {
  int baud = 9600;
  int data_bits = 8;
  Parity parity = Parity::kNone;
  bool operator==(const LineSettings&) const = default;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int fd() const = 0;
  // What was opened, for messages: a path ("/dev/ttyUSB0") or a USB location.
  virtual const std::string& name() const = 0;
  // How it was opened, for the operator's log ("libserialport", "termios", "libusb").
  virtual std::string opened_with() const = 0;
  virtual std::variant<std::size_t, IoError> read_some(std::span<std::uint8_t> buffer) = 0;
  // Writes what the device takes now; returns how many bytes were taken (a USB HID
  // transport takes one whole report at a time).
  virtual std::variant<std::size_t, IoError> write_some(std::span<const std::uint8_t> bytes) = 0;
};

using TransportPtr = std::unique_ptr<Transport>;

}  // namespace eboard::drivers
