// The serial ports the daemon's boards hold, and the serial numbers boards are named by,
// shared by every DeviceLink of one daemon (owned by run_daemon, used on the loop only).
// `dgt:auto` without `serial=` takes the first DGT board found that no other board
// holds and that no `dgt:auto,serial=N` board is named by: the shipped configuration's
// way of attaching whatever boards are plugged in (README.md, "Raspberry Pi").
// A link probing a port holds it too, so that two links never talk to one board at once.
//
// What a probe learns is kept for the other links: the family and serial number of the
// board on a port, until the port goes away (a listing without it, its hang-up, a USB
// departure), so that a link looking for another board passes it over without opening
// it. A port is known by its path and identity (the listing's description and USB serial
// number): a path reused by another device is not taken for the old one. And a link that
// passed over a port another link held is told when it is let go (wait_for_release()),
// instead of retrying on a timer, so that two links probing each other's boards at once
// each find their own at the next turn rather than after a backoff.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
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
    if (std::erase_if(held_, [&path](const auto& entry) { return entry.second == path; }) == 0)
      return;
    auto waiters = waiters_;  // a waiter may come or go meanwhile
    for (auto& [who, released] : waiters) {
      if (waiters_.count(who) > 0) released(path);
    }
  }
  // `released(path)` is called (on the loop, from inside the releasing link: it must only
  // schedule) whenever a held port is let go, until stop_waiting(who).
  using Released = std::function<void(const std::string& path)>;
  void wait_for_release(const void* who, Released released) { waiters_[who] = std::move(released); }
  void stop_waiting(const void* who) { waiters_.erase(who); }

  // Which device a listed port is: a path reused by another device is not the old one.
  struct PortIdentity {
    std::string description;  // the listing's
    std::string usb_serial;   // the USB adapter's serial number ("" when none)
    bool operator==(const PortIdentity&) const = default;
  };
  // The board a link found on a port: its driver ("dgt") and serial number.
  struct KnownBoard {
    std::string driver;
    std::string serial;
  };
  void learn(const std::string& path, const PortIdentity& identity, KnownBoard board) {
    known_[path] = Known{identity, std::move(board)};
  }
  std::optional<KnownBoard> known(const std::string& path, const PortIdentity& identity) const {
    const auto found = known_.find(path);
    if (found == known_.end() || found->second.identity != identity) return std::nullopt;
    return found->second.board;
  }
  void forget(const std::string& path) { known_.erase(path); }
  // The ports a listing no longer shows are gone.
  void forget_unlisted(const std::set<std::string>& listed) {
    std::erase_if(known_, [&listed](const auto& entry) { return listed.count(entry.first) == 0; });
  }
  // A USB device left: the ports that were it, or that cannot tell (no USB serial number).
  void forget_usb(const std::string& usb_serial) {
    std::erase_if(known_, [&usb_serial](const auto& entry) {
      const std::string& serial = entry.second.identity.usb_serial;
      return serial.empty() || serial == usb_serial;
    });
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

  struct Known {
    PortIdentity identity;
    KnownBoard board;
  };

  std::map<std::string, std::string> held_;  // resolved path -> the path as claimed
  std::set<std::string> named_paths_;
  std::set<std::string> named_serials_;
  std::map<std::string, Known> known_;  // by the path as listed
  std::map<const void*, Released> waiters_;
};

}  // namespace eboard::daemon
