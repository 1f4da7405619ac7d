// The one place that knows every device family: a board
// spec's driver name (`dgt:`, `chesslink:`, `chessnut:`, `certabo:`) gives the family's
// description - how its devices are reached and found - and a fresh Decoder for it.
// DeviceLink, eboard-dump and eboard-dump --list reach every family through here; adding
// a family touches its own folder, this file and its emulator, nothing in the daemon.
// (`sim:` is the daemon's: an emulated DGT board it starts itself, daemon.cpp.)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "drivers/board_spec.h"
#include "drivers/decoder.h"
#include "drivers/transport/transport.h"

namespace eboard::drivers {

enum class TransportKind : std::uint8_t {
  kSerial,  // a tty: USB CDC/serial adapter, Bluetooth SPP, or an emulator's pty
  kUsbHid,  // a USB HID device through libusb (usb_bus.h)
};

// A USB vendor id and a product id under a mask: (product & mask) == product_id.
struct UsbMatch {
  std::uint16_t vendor_id = 0;
  std::uint16_t product_id = 0;
  std::uint16_t product_mask = 0xFFFF;
  bool matches(std::uint16_t vendor, std::uint16_t product) const {
    return vendor == vendor_id && (product & product_mask) == product_id;
  }
};

struct DriverInfo {
  std::string_view name;         // the spec's DRIVER
  std::string_view description;  // for --list and messages
  std::string_view board;        // "DGT board": for status texts ("looking for a DGT board")
  TransportKind transport = TransportKind::kSerial;
  LineSettings line;                 // kSerial
  std::vector<UsbMatch> usb;         // kSerial: a hint (probe those ports first); kUsbHid: the ids
  bool device_names_serial = false;  // the device answers with its serial number (DGT);
                                     // otherwise a USB descriptor's serial number is used
  bool probe_others = false;         // kSerial auto: also probe USB serial ports without the ids
};

// Every family, in a fixed order.
std::span<const DriverInfo> all_drivers();
const DriverInfo* find_driver(std::string_view name);
// "dgt, chesslink, chessnut, certabo" for messages.
std::string driver_names();

// What a decoder may be given besides bytes: state kept by the caller (a Certabo board's
// calibration, read from and written to the state directory by DeviceLink).
struct DecoderContext {
  std::string calibration;  // the text of a Calibration event stored earlier, or ""
};

// A decoder for `spec`'s family; nullptr for a driver name find_driver() does not know.
std::unique_ptr<Decoder> make_decoder(const BoardSpec& spec, const DecoderContext& context = {});

}  // namespace eboard::drivers
