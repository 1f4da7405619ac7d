#include "drivers/transport/emulated_directory.h"

#include <dirent.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eboard::drivers {

int watch_emulated_directory(const std::string& directory, std::string& error) {
  ::mkdir(directory.c_str(), 0750);
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0 || ::inotify_add_watch(fd, directory.c_str(),
                                    IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE) < 0) {
    error = directory + ": cannot watch: " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

std::vector<std::string> emulated_device_files(const std::string& directory,
                                               std::string_view suffix) {
  std::vector<std::string> files;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return files;
  while (const dirent* entry = ::readdir(dir)) {
    if (parse_emulated_device_file(entry->d_name, suffix)) files.emplace_back(entry->d_name);
  }
  ::closedir(dir);
  return files;
}

std::vector<UsbEvent> take_emulated_events(int inotify, std::string_view suffix) {
  std::vector<UsbEvent> events;
  alignas(inotify_event) char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(inotify, buffer, sizeof buffer);
    if (n <= 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      if (e->len == 0) continue;
      const auto device = parse_emulated_device_file(e->name, suffix);
      if (!device) continue;
      const bool arrived = e->mask & (IN_MOVED_TO | IN_CREATE);
      events.push_back({arrived ? UsbChange::kArrived : UsbChange::kLeft, *device});
    }
  }
  return events;
}

}  // namespace eboard::drivers
