// A serial line for the DGT protocol: 9600 8N1, raw, no flow control (protocols.md §1.1),
// non-blocking, its fd usable in poll/epoll.
//
// libserialport opens real ports (UARTs, USB CDC-ACM/serial adapters, rfcomm) where it
// can; Debian's 0.1.1 looks ports up in sysfs and refuses pseudo-terminals, so those (and
// anything else it refuses) are opened with open(2) + termios. Either way the line
// settings are applied through termios on the same fd, so both paths behave alike. The
// protocol code above sees only read_some/write_some.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>

struct sp_port;

namespace eboard::drivers {

struct IoError {
  std::string message;
};

class TtyPort {
 public:
  // Opens and configures `path`; input already queued is flushed (stale bytes).
  static std::variant<TtyPort, IoError> open(const std::string& path);

  TtyPort(TtyPort&& other) noexcept;
  TtyPort& operator=(TtyPort&& other) noexcept;
  TtyPort(const TtyPort&) = delete;
  TtyPort& operator=(const TtyPort&) = delete;
  ~TtyPort();

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  bool opened_with_libserialport() const { return sp_ != nullptr; }

  // Reads what is available (0 bytes when nothing is). Hang-up, EOF or an error is an
  // IoError: the device is gone and the caller reconnects.
  std::variant<std::size_t, IoError> read_some(std::span<std::uint8_t> buffer);
  // Writes as much as the line takes now; returns how many bytes were written.
  std::variant<std::size_t, IoError> write_some(std::span<const std::uint8_t> bytes);

 private:
  TtyPort(int fd, sp_port* sp, std::string path) : fd_(fd), sp_(sp), path_(std::move(path)) {}
  void close();

  int fd_ = -1;
  sp_port* sp_ = nullptr;
  std::string path_;
};

}  // namespace eboard::drivers
