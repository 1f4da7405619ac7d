#include "simulators/chessnut/hid_socket_link.h"

#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "drivers/transport/usb_bus.h"

namespace eboard::sim {

HidSocketLink::HidSocketLink(std::string directory, std::uint16_t vendor, std::uint16_t product,
                             std::string serial)
    : directory_(std::move(directory)),
      path_(directory_ + "/" + drivers::emulated_device_file(vendor, product, serial)) {}

HidSocketLink::~HidSocketLink() {
  hang_up();
  remove_link();
}

std::variant<std::monostate, PtyError> HidSocketLink::open() {
  hang_up();
  ::mkdir(directory_.c_str(), 0750);
  const std::string temporary = directory_ + "/.plugging-" + std::to_string(::getpid());
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (temporary.size() >= sizeof address.sun_path || path_.size() >= sizeof address.sun_path) {
    return PtyError{path_ + ": path too long for a socket"};
  }
  std::memcpy(address.sun_path, temporary.c_str(), temporary.size() + 1);
  ::unlink(temporary.c_str());
  listener_ = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (listener_ < 0 ||
      ::bind(listener_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener_, 1) != 0 || ::rename(temporary.c_str(), path_.c_str()) != 0) {
    return PtyError{path_ + ": cannot plug in: " + std::strerror(errno)};
  }
  return std::monostate{};
}

void HidSocketLink::accept() {
  const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) return;
  if (connection_ >= 0) {
    ::close(fd);  // the device is open already
    return;
  }
  connection_ = fd;
}

void HidSocketLink::host_left() {
  if (connection_ >= 0) ::close(connection_);
  connection_ = -1;
}

void HidSocketLink::hang_up() {
  host_left();
  if (listener_ >= 0) ::close(listener_);
  listener_ = -1;
}

void HidSocketLink::remove_link() { ::unlink(path_.c_str()); }

// What the host has not read yet: a Unix socket charges a queued packet to its sender
// until the receiver takes it.
int HidSocketLink::unread_by_host() const {
  int unread = 0;
  if (connection_ < 0 || ioctl(connection_, TIOCOUTQ, &unread) != 0) return 0;
  return unread;
}

}  // namespace eboard::sim
