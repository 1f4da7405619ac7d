// The serial ports the daemon's boards hold, and the serial numbers boards are named by,
// shared by every DeviceLink of one daemon (owned by run_daemon, used on the loop only).
// `dgt:auto` without `serial=` takes the first DGT board found that no other board
// holds and that no `dgt:auto,serial=N` board is named by: the shipped configuration's
// way of attaching whatever boards are plugged in (README.md, "Raspberry Pi").
// A link probing a port holds it too, so that two links never talk to one board at once.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace eboard::daemon {

class PortClaims {
 public:
  // False if another link holds `path`. Paths are compared after resolving links
  // (/dev/eboard/dgt-N and /dev/serial/by-id/... name a /dev/ttyACMn).
  // A released path may be gone already (unplugged): it is found by the name it was
  // claimed under.
  bool claim(const std::string& path) { return held_.emplace(resolved(path), path).second; }
  void release(const std::string& path) {
    std::erase_if(held_, [&path](const auto& entry) { return entry.second == path; });
  }
  // Held by a link, or named by a board's spec (`dgt:/dev/ttyACM0`): not for auto boards.
  bool taken(const std::string& path) const {
    const std::string key = resolved(path);
    return held_.count(key) > 0 || named_paths_.count(key) > 0;
  }
  void name_path(const std::string& path) { named_paths_.insert(resolved(path)); }

  // A `serial=N` board's number: no board without serial= takes that board.
  void name_serial(const std::string& serial) { named_serials_.insert(serial); }
  bool serial_named(const std::string& serial) const { return named_serials_.count(serial) > 0; }

 private:
  static std::string resolved(const std::string& path) {
    std::error_code error;
    const auto canonical = std::filesystem::canonical(path, error);
    return error ? path : canonical.string();
  }

  std::map<std::string, std::string> held_;  // resolved path -> the path as claimed
  std::set<std::string> named_paths_;
  std::set<std::string> named_serials_;
};

}  // namespace eboard::daemon
