// Serial-port enumeration and identity through libserialport: which ports exist, and for
// USB ones the vendor/product id, serial number and description. Used to find candidate
// DGT boards (dgt_protocol.h kUsbVendorId/kUsbProductId is only a hint: candidates are
// always confirmed by a handshake before use, docs/protocols.md §1.1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
