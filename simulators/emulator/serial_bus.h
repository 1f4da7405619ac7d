// `--serial-bus DIR [--serial N] [--usb-id VVVV:PPPP]`, the other way for a serial
// board's emulator to plug in: as an emulated USB-serial port in DIR
// (drivers/transport/serial_ports.h), found by `auto` in eboardd --serial-emulator DIR,
// instead of a pty linked at a path of one's choosing (--link PATH). The port's link is
// named by the USB id and serial number a real adapter would show; it is there while the
// emulator is plugged in (the pty's own link, pty_link.h: made at start and on a replug,
// removed at an unplug and at the exit).
#pragma once

#include <cstdint>
#include <string>

namespace eboard::sim {

struct SerialBus {
  std::string directory;  // "" without --serial-bus
  std::string serial;     // the adapter's USB serial number
  std::uint16_t vendor_id = 0;
  std::uint16_t product_id = 0;
  bool serial_given = false;  // --serial was taken here (it names the adapter's, not a pty's)
  // DIR/VVVV-PPPP-SERIAL.tty
  std::string link_path() const;
};

// Takes --serial-bus DIR, --serial N or --usb-id VVVV:PPPP at argv[i]: 0 when it is none
// of them, the number of arguments taken, or -1 with `error` set (run_options.h's OwnOption).
int take_serial_bus_option(int argc, char** argv, int i, SerialBus& bus, std::string& error);

// Where the emulator's pty is linked: --link PATH or the serial bus's port, exactly one of
// them; "" and `error` set otherwise (or when the serial number cannot be a file name).
// The serial bus's directory is created.
std::string pty_link_path(const std::string& link, const SerialBus& bus, std::string& error);

}  // namespace eboard::sim
