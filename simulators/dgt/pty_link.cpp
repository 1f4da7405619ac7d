#include "simulators/dgt/pty_link.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace eboard::sim {

PtyLink::~PtyLink() {
  hang_up();
  remove_link();
}

std::variant<std::monostate, PtyError> PtyLink::open() {
  hang_up();
  master_ = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) {
    return PtyError{std::string("cannot create a pseudo-terminal: ") + std::strerror(errno)};
  }
  const char* name = ptsname(master_);
  if (name == nullptr) return PtyError{"ptsname failed"};
  slave_path_ = name;
  slave_ = ::open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (slave_ < 0) return PtyError{slave_path_ + ": " + std::strerror(errno)};
  // Raw from the start: no echo of our messages back to us before the host configures it.
  termios tio{};
  tcgetattr(slave_, &tio);
  cfmakeraw(&tio);
  tcsetattr(slave_, TCSANOW, &tio);
  // Replace the link atomically so a host polling for it never sees a dangling one.
  const std::string temporary = link_path_ + ".new";
  ::unlink(temporary.c_str());
  if (::symlink(slave_path_.c_str(), temporary.c_str()) != 0 ||
      ::rename(temporary.c_str(), link_path_.c_str()) != 0) {
    return PtyError{link_path_ + ": cannot create the link: " + std::strerror(errno)};
  }
  return std::monostate{};
}

void PtyLink::hang_up() {
  if (slave_ >= 0) ::close(slave_);
  if (master_ >= 0) ::close(master_);
  slave_ = master_ = -1;
}

void PtyLink::remove_link() { ::unlink(link_path_.c_str()); }

int PtyLink::unread_by_host() const {
  int unread = 0;
  if (slave_ < 0 || ioctl(slave_, FIONREAD, &unread) != 0) return 0;
  return unread;
}

}  // namespace eboard::sim
