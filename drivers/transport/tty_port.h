// A serial line, raw, no flow control, non-blocking, its fd usable in poll/epoll. The line
// settings come from the device family (factory.h): DGT 9600 8N1 (docs/protocols.md §1.1),
// ChessLink 38400 7O1 (§5), Certabo 38400 8N1 (§7).
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

#include "drivers/transport/transport.h"

struct sp_port;

namespace eboard::drivers {

class TtyPort final : public Transport {
 public:
  // Opens and configures `path`; input already queued is flushed (stale bytes).
  static std::variant<TtyPort, IoError> open(const std::string& path,
                                             const LineSettings& line = LineSettings{});

  TtyPort(TtyPort&& other) noexcept;
  TtyPort& operator=(TtyPort&& other) noexcept;
  TtyPort(const TtyPort&) = delete;
  TtyPort& operator=(const TtyPort&) = delete;
  ~TtyPort() override;

  int fd() const override { return fd_; }
  const std::string& name() const override { return path_; }
  const std::string& path() const { return path_; }
  bool opened_with_libserialport() const { return sp_ != nullptr; }
  std::string opened_with() const override { return sp_ ? "libserialport" : "termios"; }

  // Reads what is available (0 bytes when nothing is). Hang-up, EOF or an error is an
  // IoError: the device is gone and the caller reconnects.
  std::variant<std::size_t, IoError> read_some(std::span<std::uint8_t> buffer) override;
  // Writes as much as the line takes now; returns how many bytes were written.
  std::variant<std::size_t, IoError> write_some(std::span<const std::uint8_t> bytes) override;

 private:
  TtyPort(int fd, sp_port* sp, std::string path) : fd_(fd), sp_(sp), path_(std::move(path)) {}
  void close();

  int fd_ = -1;
  sp_port* sp_ = nullptr;
  std::string path_;
};

}  // namespace eboard::drivers
