// `eboard-dump --list` (docs/interfaces.md §2): every board that can be found, one line each:
// `FAMILY PORT serial SERIAL (details)`. Serial ports are probed with each family's own
// handshake through its decoder from the factory (a DGT board names its serial number;
// the others are known by their USB adapter's), USB HID boards are read from the bus.
// Each probe is bounded (kProbe); a port that answers one family is not tried for another.
#include <poll.h>

#include <algorithm>
#include <chrono>

#include "daemon/programs/eboard_dump/dump_session.h"
#include "drivers/factory.h"
#include "drivers/transport/serial_ports.h"
#include "drivers/transport/tty_port.h"
#include "drivers/transport/usb_bus.h"

namespace eboard::daemon {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kProbe = std::chrono::milliseconds(2500);

struct Found {
  std::string serial;
  std::string model;
};

// Opens `path` as `info`'s family and waits for the decoder's confirmation.
std::optional<Found> probe(const drivers::DriverInfo& info, const std::string& path) {
  auto opened = drivers::TtyPort::open(path, info.line);
  auto* port = std::get_if<drivers::TtyPort>(&opened);
  if (!port) return std::nullopt;
  auto decoder =
      drivers::make_decoder(drivers::BoardSpec{std::string(info.name), path, {}, {}, {}});
  drivers::DecoderOutput out;
  decoder->on_connected(Clock::now(), out);
  std::optional<Found> found;
  const auto end = Clock::now() + kProbe;
  while (Clock::now() < end) {
    if (!out.to_send.empty()) (void)port->write_some(out.to_send);
    out.to_send.clear();
    for (const auto& event : out.events) {
      if (const auto* status = std::get_if<drivers::LinkStatus>(&event)) {
        if (status->state == drivers::LinkState::kConfirmed) found = found.value_or(Found{});
        if (status->state == drivers::LinkState::kNoAnswer) return std::nullopt;
      }
      const auto* device = std::get_if<drivers::DeviceInfo>(&event);
      if (found && device && device->kind == drivers::InfoKind::kSerial)
        found->serial = device->text;
      if (found && device && device->kind == drivers::InfoKind::kModel) found->model = device->text;
    }
    out.events.clear();
    // A DGT board names its serial number right after the handshake: wait for it.
    if (found && (!info.device_names_serial || !found->serial.empty())) return found;
    pollfd fd{port->fd(), POLLIN, 0};
    poll(&fd, 1, 50);
    std::uint8_t buffer[512];
    const auto n = port->read_some(buffer);
    if (!std::holds_alternative<std::size_t>(n)) return found;
    decoder->on_bytes(std::span(buffer, std::get<std::size_t>(n)), Clock::now(), out);
    decoder->on_timer(Clock::now(), out);
  }
  return found;
}

}  // namespace

int run_list(const DumpOptions& options, std::ostream& lines, std::ostream& log) {
  std::size_t boards = 0;
  std::string error;
  auto source = options.serial_emulator.empty()
                    ? drivers::make_system_serial_ports()
                    : drivers::make_emulated_serial_ports(options.serial_emulator, error);
  if (!source) {
    log << "eboard-dump: " << error << "\n";
    return 2;
  }
  const auto ports = source->ports();
  std::vector<std::string> taken;
  for (const auto& info : drivers::all_drivers()) {
    if (info.transport != drivers::TransportKind::kSerial) continue;
    for (const auto& port : drivers::serial_candidates(ports, info.usb, info.probe_others)) {
      if (std::find(taken.begin(), taken.end(), port.path) != taken.end()) continue;
      const auto found = probe(info, port.path);
      if (!found) continue;
      taken.push_back(port.path);
      ++boards;
      const std::string serial = !found->serial.empty() ? found->serial : port.usb_serial;
      lines << info.name << " " << port.path << " serial " << (serial.empty() ? "?" : serial)
            << " (" << (found->model.empty() ? std::string(info.description) : found->model) << "; "
            << drivers::describe_port(port) << ")\n";
    }
  }
  auto bus = options.usb_emulator.empty() ? drivers::make_libusb_bus(error)
                                          : drivers::make_emulated_bus(options.usb_emulator, error);
  if (!bus) log << "eboard-dump: " << error << " (USB boards not listed)\n";
  for (const auto& device : bus ? bus->devices() : std::vector<drivers::UsbDeviceInfo>{}) {
    for (const auto& info : drivers::all_drivers()) {
      if (info.transport != drivers::TransportKind::kUsbHid) continue;
      const bool ours = std::any_of(info.usb.begin(), info.usb.end(), [&](const auto& id) {
        return id.matches(device.vendor_id, device.product_id);
      });
      if (!ours) continue;
      ++boards;
      char ids[16];
      std::snprintf(ids, sizeof ids, "%04x:%04x", device.vendor_id, device.product_id);
      lines << info.name << " " << device.location << " serial "
            << (device.serial.empty() ? "?" : device.serial) << " (" << info.description << "; "
            << ids << (device.product.empty() ? "" : " " + device.product) << ")\n";
    }
  }
  log << "eboard-dump: " << boards << " board(s) found\n";
  return 0;
}

}  // namespace eboard::daemon
