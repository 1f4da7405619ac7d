#include "simulators/emulator/serial_bus.h"

#include <sys/stat.h>

#include <cstdio>

#include "drivers/transport/serial_ports.h"

namespace eboard::sim {

std::string SerialBus::link_path() const {
  return directory + "/" + drivers::emulated_serial_file(vendor_id, product_id, serial);
}

int take_serial_bus_option(int argc, char** argv, int i, SerialBus& bus, std::string& error) {
  const std::string arg = argv[i];
  if (arg != "--serial-bus" && arg != "--serial" && arg != "--usb-id") return 0;
  if (i + 1 >= argc) {
    error = arg + " needs a value";
    return -1;
  }
  const std::string value = argv[i + 1];
  if (arg == "--serial-bus") bus.directory = value;
  if (arg == "--serial") {
    bus.serial = value;
    bus.serial_given = true;
  }
  if (arg == "--usb-id") {
    unsigned vendor = 0;
    unsigned product = 0;
    int consumed = 0;
    if (std::sscanf(value.c_str(), "%4x:%4x%n", &vendor, &product, &consumed) != 2 ||
        consumed != static_cast<int>(value.size())) {
      error = "--usb-id needs VVVV:PPPP in hex, not '" + value + "'";
      return -1;
    }
    bus.vendor_id = static_cast<std::uint16_t>(vendor);
    bus.product_id = static_cast<std::uint16_t>(product);
  }
  return 2;
}

std::string pty_link_path(const std::string& link, const SerialBus& bus, std::string& error) {
  if (!link.empty() && !bus.directory.empty()) {
    error = "--link and --serial-bus exclude each other";
    return "";
  }
  if (link.empty() && bus.directory.empty()) {
    error = "--link PATH or --serial-bus DIR is required";
    return "";
  }
  if (!link.empty() && bus.serial_given) {
    error = "--serial names the USB adapter's serial number: it needs --serial-bus";
    return "";
  }
  if (!link.empty()) return link;
  if (bus.serial.empty() || bus.serial.find_first_of("/.") != std::string::npos) {
    error = "--serial must be a non-empty serial number without '/' or '.'";
    return "";
  }
  ::mkdir(bus.directory.c_str(), 0750);
  return bus.link_path();
}

}  // namespace eboard::sim
