// Where an emulated board meets its host (run_emulator.h): a pseudo-terminal for serial
// boards (simulators/dgt/pty_link.h), a socket of the emulated USB bus for HID boards
// (hid_socket_link.h). hang_up() is an unplug as the host sees it, open() plugs in again.
#pragma once

#include <string>
#include <variant>

namespace eboard::sim {

struct PtyError {
  std::string message;
};

class EmulatorLink {
 public:
  virtual ~EmulatorLink() = default;
  virtual std::variant<std::monostate, PtyError> open() = 0;
  virtual void hang_up() = 0;
  virtual void remove_link() = 0;
  // A host is there to talk to (a pty always is once open; a USB device once opened).
  virtual bool is_open() const = 0;
  virtual int data_fd() const = 0;
  // An fd to watch for a host arriving (-1: none), and what to do when it is readable.
  virtual int accept_fd() const { return -1; }
  virtual void accept() {}
  // The host closed the device (a USB link; a pty does not notice).
  virtual void host_left() {}
  // Bytes written by us that the host has not read yet.
  virtual int unread_by_host() const = 0;
  virtual std::string describe() const = 0;
  // Whether each message must go out as one write that is never split (USB reports).
  virtual bool packets() const { return false; }
};

}  // namespace eboard::sim
