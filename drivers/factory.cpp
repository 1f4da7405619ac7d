#include "drivers/factory.h"

#include "drivers/certabo/certabo_driver.h"
#include "drivers/chesslink/chesslink_driver.h"
#include "drivers/chessnut/chessnut_driver.h"
#include "drivers/dgt/dgt_driver.h"
#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers {
namespace {

const std::vector<DriverInfo>& registry() {
  // Line settings and USB ids: docs/protocols.md §1.1 (DGT 9600 8N1; 04D8:000A, 045B:8111 §11.15),
  // §5 (ChessLink 38400 7O1), §6 (Chessnut VID 2D80, products 80xx-86xx under a mask as
  // Chessnut's EasyLinkSDK matches them), §7 (Certabo 38400 8N1 on a CP210x, 10C4:EA60).
  static const std::vector<DriverInfo> drivers = {
      {"dgt",
       "DGT electronic board",
       "DGT board",
       TransportKind::kSerial,
       LineSettings{9600, 8, Parity::kNone},
       {UsbMatch{dgt::kUsbVendorId, dgt::kUsbProductId}, UsbMatch{0x045B, 0x8111}},
       true,
       true},
      {"chesslink",
       "Millennium ChessLink / eONE",
       "ChessLink board",
       TransportKind::kSerial,
       LineSettings{38400, 7, Parity::kOdd},
       {},
       false,
       true},
      {"chessnut",
       "Chessnut Air / Air+ / Pro (USB HID)",
       "Chessnut board",
       TransportKind::kUsbHid,
       LineSettings{},
       {UsbMatch{0x2D80, 0x8000, 0xF800}},
       false,
       false},
      {"certabo",
       "Certabo RFID board",
       "Certabo board",
       TransportKind::kSerial,
       LineSettings{38400, 8, Parity::kNone},
       {UsbMatch{0x10C4, 0xEA60}},
       false,
       false},
  };
  return drivers;
}

}  // namespace

std::span<const DriverInfo> all_drivers() { return registry(); }

const DriverInfo* find_driver(std::string_view name) {
  for (const DriverInfo& info : registry()) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string driver_names() {
  std::string names;
  for (const DriverInfo& info : registry())
    names += (names.empty() ? "" : ", ") + std::string(info.name);
  return names;
}

std::unique_ptr<Decoder> make_decoder(const BoardSpec& spec, const DecoderContext& context) {
  if (spec.driver == "dgt") return std::make_unique<dgt::DgtDriver>();
  if (spec.driver == "chesslink") return std::make_unique<chesslink::ChessLinkDriver>();
  if (spec.driver == "chessnut") return std::make_unique<chessnut::ChessnutDriver>();
  if (spec.driver == "certabo")
    return std::make_unique<certabo::CertaboDriver>(context.calibration);
  return nullptr;
}

}  // namespace eboard::drivers
