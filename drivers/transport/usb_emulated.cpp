// The emulated USB bus (usb_bus.h): a directory in which each Unix SOCK_SEQPACKET socket
// is one plugged-in HID device, named by emulated_device_file(). Plugging in is the
// socket appearing (the emulator binds it under a temporary name and renames it when it
// listens, so it is never seen half-made), unplugging is it going; inotify reports both.
// Opening the device connects to it; each packet is one HID report.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "drivers/transport/emulated_directory.h"
#include "drivers/transport/usb_bus.h"

namespace eboard::drivers {
namespace {

class SocketHidTransport final : public Transport {
 public:
  SocketHidTransport(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  ~SocketHidTransport() override { ::close(fd_); }
  int fd() const override { return fd_; }
  const std::string& name() const override { return name_; }
  std::string opened_with() const override { return "emulated USB"; }

  std::variant<std::size_t, IoError> read_some(std::span<std::uint8_t> buffer) override {
    const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (n > 0) return hid_message_length(buffer.data(), static_cast<std::size_t>(n));
    if (n == 0) return IoError{name_ + ": device unplugged"};
    if (errno == EAGAIN || errno == EINTR) return std::size_t{0};
    return IoError{name_ + ": read failed: " + std::strerror(errno)};
  }
  std::variant<std::size_t, IoError> write_some(std::span<const std::uint8_t> bytes) override {
    const std::size_t length = hid_message_length(bytes.data(), bytes.size());
    const ssize_t n = ::send(fd_, bytes.data(), length, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EAGAIN || errno == EINTR) return std::size_t{0};
    return IoError{name_ + ": write failed: " + std::strerror(errno)};
  }

 private:
  int fd_;
  std::string name_;
};

class EmulatedBus final : public UsbBus {
 public:
  EmulatedBus(std::string directory, int inotify)
      : directory_(std::move(directory)), inotify_(inotify) {}
  ~EmulatedBus() override { ::close(inotify_); }

  std::string name() const override { return "emulated USB bus in " + directory_; }

  std::vector<UsbDeviceInfo> devices() override {
    std::vector<UsbDeviceInfo> found;
    for (const std::string& file : emulated_device_files(directory_, kHidSuffix))
      found.push_back(*parse_emulated_device_file(file));
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.location < b.location; });
    return found;
  }

  std::variant<TransportPtr, IoError> open_hid(const UsbDeviceInfo& device) override {
    const std::string file = device.location.substr(device.location.find(':') + 1);
    const std::string path = directory_ + "/" + file;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) return IoError{path + ": path too long"};
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return IoError{std::string("socket: ") + std::strerror(errno)};
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
      IoError error{device.location + ": cannot open: " + std::strerror(errno)};
      ::close(fd);
      return error;
    }
    return TransportPtr(std::make_unique<SocketHidTransport>(fd, device.location));
  }

  int hotplug_fd() const override { return inotify_; }

  std::vector<UsbEvent> take_events() override {
    return take_emulated_events(inotify_, kHidSuffix);
  }

 private:
  std::string directory_;
  int inotify_;
};

}  // namespace

std::unique_ptr<UsbBus> make_emulated_bus(const std::string& directory, std::string& error) {
  const int fd = watch_emulated_directory(directory, error);
  if (fd < 0) return nullptr;
  return std::make_unique<EmulatedBus>(directory, fd);
}

}  // namespace eboard::drivers
