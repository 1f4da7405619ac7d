// Serial-port enumeration and identity: which ports exist, and for USB ones the
// vendor/product id, serial number and description. Used to find candidate boards for
// `auto` (dgt_protocol.h kUsbVendorId/kUsbProductId is only a hint: candidates are always
// confirmed by a handshake before use, docs/protocols.md §1.1).
//
// One seam, two sources, as for USB (usb_bus.h): libserialport (the system's ports), or a
// directory of emulated USB-serial ports (serial_emulated.cpp), each a symlink to the pty
// of `eboard-sim dgt|chesslink|certabo --serial-bus DIR`, named like an emulated USB device
// ("04d8-000a-SERIAL.tty"), since a pty has no USB identity of its own. The link appearing
// is the plug-in, its removal the unplug; inotify reports both, as USB arrivals and
// departures. The system's ports have no such events of their own: a USB-serial adapter's
// arrival is seen on the USB bus (the daemon's UsbWatcher), its tty a moment later.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/transport/usb_bus.h"

namespace eboard::drivers {

enum class PortKind : std::uint8_t { kNative, kUsb, kBluetooth, kOther };

struct PortInfo {
  std::string path;  // /dev/ttyACM0
  PortKind kind = PortKind::kOther;
  std::string description;
  std::optional<std::uint16_t> usb_vendor_id;
  std::optional<std::uint16_t> usb_product_id;
  std::string usb_serial;  // the USB descriptor's serial (empty if none)
  std::string usb_product;
};

// Every serial port libserialport knows, sorted by path (same input, same output).
std::vector<PortInfo> list_serial_ports();

// Where `auto` finds its candidate ports.
class SerialPorts {
 public:
  virtual ~SerialPorts() = default;
  virtual std::string name() const = 0;       // "libserialport", "emulated serial ports in DIR"
  virtual std::vector<PortInfo> ports() = 0;  // sorted by path
  // Readable when ports came or went, and which (as the USB devices they are); -1 when the
  // source has no events of its own (libserialport).
  virtual int hotplug_fd() const = 0;
  virtual std::vector<UsbEvent> take_events() = 0;
};

// The system's ports: list_serial_ports().
std::unique_ptr<SerialPorts> make_system_serial_ports();
// The emulated ports in `directory` (created if missing); nullptr and `error` set when it
// cannot be watched.
std::unique_ptr<SerialPorts> make_emulated_serial_ports(const std::string& directory,
                                                        std::string& error);

// An emulated port's file name ("04d8-000a-SERIAL.tty", usb_bus.h's naming).
inline constexpr const char* kTtySuffix = ".tty";
std::string emulated_serial_file(std::uint16_t vendor, std::uint16_t product,
                                 const std::string& serial);

// Ports worth probing for a DGT board: the DGT USB id first, then other USB serial and
// Bluetooth ports (older DGT boards use other USB-serial chips, docs/protocols.md §11.6).
std::vector<PortInfo> dgt_candidates(const std::vector<PortInfo>& ports);

// Ports worth probing for a family: those with one of its USB ids first, then, when
// `probe_others`, every other USB serial and Bluetooth port.
struct UsbMatch;
std::vector<PortInfo> serial_candidates(const std::vector<PortInfo>& ports,
                                        const std::vector<UsbMatch>& ids, bool probe_others);

std::string describe_port(const PortInfo& port);

}  // namespace eboard::drivers
