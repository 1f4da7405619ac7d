#include "drivers/transport/tty_port.h"

#include <fcntl.h>
#include <libserialport.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eboard::drivers {
namespace {

std::string describe(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

speed_t speed_of(int baud) {
  switch (baud) {
    case 38400: return B38400;
    case 19200: return B19200;
    case 57600: return B57600;
    case 115200: return B115200;
    default: return B9600;
  }
}

// Raw, no flow control, the family's speed, bits and parity; reads return at once
// (VMIN = VTIME = 0). With parity on, a character with a parity error reads as itself
// (no INPCK): the protocols' own checksums catch it, and an eONE's replies fail a strict
// odd-parity check (docs/protocols.md §5 practical notes).
bool configure(int fd, const LineSettings& line) {
  termios tio{};
  if (tcgetattr(fd, &tio) != 0) return false;
  cfmakeraw(&tio);
  tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB | PARODD | CRTSCTS | CSIZE);
  tio.c_cflag |= CLOCAL | CREAD | (line.data_bits == 7 ? CS7 : CS8);
  if (line.parity != Parity::kNone) tio.c_cflag |= PARENB;
  if (line.parity == Parity::kOdd) tio.c_cflag |= PARODD;
  tio.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY | INPCK);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  cfsetispeed(&tio, speed_of(line.baud));
  cfsetospeed(&tio, speed_of(line.baud));
  if (tcsetattr(fd, TCSANOW, &tio) != 0) return false;
  tcflush(fd, TCIFLUSH);
  return true;
}

// libserialport first; nullptr when it does not know the port (ptys) or cannot open it.
sp_port* open_with_libserialport(const std::string& path, const LineSettings& line) {
  sp_port* port = nullptr;
  if (sp_get_port_by_name(path.c_str(), &port) != SP_OK) return nullptr;
  if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
    sp_free_port(port);
    return nullptr;
  }
  sp_set_baudrate(port, line.baud);
  sp_set_bits(port, line.data_bits);
  sp_set_parity(port, line.parity == Parity::kOdd    ? SP_PARITY_ODD
                      : line.parity == Parity::kEven ? SP_PARITY_EVEN
                                                     : SP_PARITY_NONE);
  sp_set_stopbits(port, 1);
  sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE);
  return port;
}

}  // namespace

std::variant<TtyPort, IoError> TtyPort::open(const std::string& path, const LineSettings& line) {
  sp_port* sp = open_with_libserialport(path, line);
  int fd = -1;
  if (sp != nullptr) {
    if (sp_get_port_handle(sp, &fd) != SP_OK) fd = -1;
  }
  if (fd < 0) {
    if (sp != nullptr) {
      sp_close(sp);
      sp_free_port(sp);
      sp = nullptr;
    }
    fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return IoError{describe(path, "cannot open")};
  }
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 || !configure(fd, line)) {
    IoError error{describe(path, "cannot configure the line")};
    TtyPort(fd, sp, path).close();
    return error;
  }
  return TtyPort(fd, sp, path);
}

TtyPort::TtyPort(TtyPort&& other) noexcept
    : fd_(other.fd_), sp_(other.sp_), path_(std::move(other.path_)) {
  other.fd_ = -1;
  other.sp_ = nullptr;
}

TtyPort& TtyPort::operator=(TtyPort&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = other.fd_;
    sp_ = other.sp_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
    other.sp_ = nullptr;
  }
  return *this;
}

TtyPort::~TtyPort() { close(); }

void TtyPort::close() {
  if (sp_ != nullptr) {
    sp_close(sp_);  // closes fd_ too
    sp_free_port(sp_);
  } else if (fd_ >= 0) {
    ::close(fd_);
  }
  sp_ = nullptr;
  fd_ = -1;
}

std::variant<std::size_t, IoError> TtyPort::read_some(std::span<std::uint8_t> buffer) {
  const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
  if (n > 0) return static_cast<std::size_t>(n);
  if (n == 0) return IoError{path_ + ": device closed (hang-up)"};
  if (errno == EAGAIN || errno == EINTR) return std::size_t{0};
  return IoError{describe(path_, "read failed")};
}

std::variant<std::size_t, IoError> TtyPort::write_some(std::span<const std::uint8_t> bytes) {
  const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
  if (n >= 0) return static_cast<std::size_t>(n);
  if (errno == EAGAIN || errno == EINTR) return std::size_t{0};
  return IoError{describe(path_, "write failed")};
}

}  // namespace eboard::drivers
