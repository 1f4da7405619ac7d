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

// 9600 8N1 raw, no flow control; reads return at once (VMIN = VTIME = 0).
bool configure(int fd) {
  termios tio{};
  if (tcgetattr(fd, &tio) != 0) return false;
  cfmakeraw(&tio);
  tio.c_cflag &= ~static_cast<tcflag_t>(CSTOPB | PARENB | CRTSCTS);
  tio.c_cflag |= CLOCAL | CREAD | CS8;
  tio.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  cfsetispeed(&tio, B9600);
  cfsetospeed(&tio, B9600);
  if (tcsetattr(fd, TCSANOW, &tio) != 0) return false;
  tcflush(fd, TCIFLUSH);
  return true;
}

// libserialport first; nullptr when it does not know the port (ptys) or cannot open it.
sp_port* open_with_libserialport(const std::string& path) {
  sp_port* port = nullptr;
  if (sp_get_port_by_name(path.c_str(), &port) != SP_OK) return nullptr;
  if (sp_open(port, SP_MODE_READ_WRITE) != SP_OK) {
    sp_free_port(port);
    return nullptr;
  }
  sp_set_baudrate(port, 9600);
  sp_set_bits(port, 8);
  sp_set_parity(port, SP_PARITY_NONE);
  sp_set_stopbits(port, 1);
  sp_set_flowcontrol(port, SP_FLOWCONTROL_NONE);
  return port;
}

}  // namespace

std::variant<TtyPort, IoError> TtyPort::open(const std::string& path) {
  sp_port* sp = open_with_libserialport(path);
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
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 || !configure(fd)) {
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
