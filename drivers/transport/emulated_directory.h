// What the emulated USB bus (usb_emulated.cpp) and the emulated serial ports
// (serial_emulated.cpp) share: a directory in which each entry named by
// emulated_device_file() is one plugged-in device, watched with inotify so that its
// arrival (created or renamed in) and its departure (removed or renamed out) are events.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "drivers/transport/usb_bus.h"

namespace eboard::drivers {

// An inotify descriptor watching `directory` (created if missing), or -1 with `error` set.
int watch_emulated_directory(const std::string& directory, std::string& error);

// The names of the entries that name a device with `suffix`, in directory order.
std::vector<std::string> emulated_device_files(const std::string& directory,
                                               std::string_view suffix);

// Every arrival and departure of a device with `suffix` that `inotify` has reported.
std::vector<UsbEvent> take_emulated_events(int inotify, std::string_view suffix);

}  // namespace eboard::drivers
