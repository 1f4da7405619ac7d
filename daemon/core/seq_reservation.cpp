#include "daemon/core/seq_reservation.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "daemon/core/crc32c.h"

namespace eboard::daemon {
namespace {

constexpr std::string_view kMagic = "eboardd-seq-reservation 1 ";
constexpr std::size_t kMaxFileBytes = 512;  // a valid line is under 120 bytes

std::string hex8(std::uint32_t value) {
  char text[9];
  std::snprintf(text, sizeof text, "%08x", value);
  return text;
}

// The value of ` name=` up to the next space or the end, nullopt when absent.
std::optional<std::string> field(std::string_view line, std::string_view name) {
  const std::string key = " " + std::string(name) + "=";
  const auto at = line.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const auto begin = at + key.size();
  const auto end = line.find(' ', begin);
  return std::string(line.substr(begin, end == std::string_view::npos ? end : end - begin));
}

std::optional<std::uint32_t> parse_u32(const std::string& text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value > 0xFFFFFFFFu) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string reservation_path(const std::string& journal_path) {
  return journal_path + ".reservation";
}

std::string encode_reservation(const SeqReservation& r) {
  std::string body = std::string(kMagic) + "reserved=" + std::to_string(r.reserved) +
                     " boot=" + (r.boot_id.empty() ? "-" : r.boot_id) +
                     " clean=" + (r.clean ? "1" : "0");
  return body + " crc=" + hex8(crc32c(body)) + "\n";
}

ReservationRead read_reservation(const std::string& path) {
  ReservationRead read;
  std::ifstream in(path, std::ios::binary);
  if (!in) return read;  // kMissing
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  const auto damaged = [&](const std::string& why) {
    read.status = ReservationRead::Status::kDamaged;
    read.problem = path + ": " + why;
    return read;
  };
  if (text.size() > kMaxFileBytes) return damaged("longer than any reservation line");
  if (text.empty() || text.back() != '\n') return damaged("incomplete (no end of line)");
  text.pop_back();
  if (text.compare(0, kMagic.size(), kMagic) != 0)
    return damaged("not a seq reservation (bad header)");
  const auto crc_at = text.rfind(" crc=");
  if (crc_at == std::string::npos) return damaged("no checksum");
  const std::string body = text.substr(0, crc_at);
  if (text.substr(crc_at + 5) != hex8(crc32c(body))) return damaged("checksum mismatch");
  const auto reserved = field(body, "reserved");
  const auto boot = field(body, "boot");
  const auto clean = field(body, "clean");
  const auto value = reserved ? parse_u32(*reserved) : std::nullopt;
  if (!value || !boot || !clean || (*clean != "0" && *clean != "1")) {
    return damaged("missing or bad field");
  }
  read.status = ReservationRead::Status::kValid;
  read.reservation = SeqReservation{*value, *boot == "-" ? "" : *boot, *clean == "1"};
  return read;
}

// The fallback of write_reservation (seq_reservation.h): the line rewritten in the
// existing file, whose first block is already allocated.
std::optional<Error> rewrite_in_place(const std::string& path, const std::string& bytes,
                                      const std::string& why) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Error{why};
  const bool written =
      ::pwrite(fd, bytes.data(), bytes.size(), 0) == static_cast<ssize_t>(bytes.size()) &&
      ::ftruncate(fd, static_cast<off_t>(bytes.size())) == 0 && ::fdatasync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written) return Error{why + "; in place: " + std::strerror(saved)};
  return std::nullopt;
}

std::optional<Error> write_reservation(const std::string& path, const SeqReservation& reservation) {
  const std::string temp = path + ".tmp";
  const std::string bytes = encode_reservation(reservation);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
  if (fd < 0) {
    return rewrite_in_place(path, bytes, temp + ": cannot create: " + std::strerror(errno));
  }
  const bool written = write_all(fd, bytes) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return rewrite_in_place(path, bytes, temp + ": cannot write: " + std::strerror(saved));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    return Error{path + ": cannot rename into place: " + std::strerror(errno)};
  }
  // The rename is durable only once the directory is synced.
  const int dir = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return Error{path + ": cannot open its directory: " + std::strerror(errno)};
  const bool synced = ::fsync(dir) == 0;
  const int dir_errno = errno;
  ::close(dir);
  if (!synced) return Error{path + ": cannot sync its directory: " + std::strerror(dir_errno)};
  return std::nullopt;
}

std::string read_boot_id(const std::string& path) {
  std::ifstream in(path);
  std::string id;
  std::getline(in, id);
  // A boot id is a UUID; anything with a space would break the sidecar's fields.
  if (id.find_first_of(" \t\r") != std::string::npos) return "";
  return id;
}

SeqStart decide_seq_start(std::uint32_t journal_last, std::uint32_t damaged_up_to,
                          const ReservationRead& read, std::string_view boot_id) {
  SeqStart start;
  start.next_seq = journal_last + 1;
  std::uint32_t lost_to = journal_last;
  if (damaged_up_to > journal_last) {
    lost_to = damaged_up_to;
    start.reason = "the journal's last records are damaged";
  }
  switch (read.status) {
    case ReservationRead::Status::kMissing: break;
    case ReservationRead::Status::kDamaged:
      lost_to = std::max(lost_to, journal_last + kUnknownJump);
      start.reason = "the seq reservation is unreadable (" + read.problem + ")";
      break;
    case ReservationRead::Status::kValid: {
      const SeqReservation& r = read.reservation;
      // At or below the journal's end it promised nothing beyond it (a later run under
      // another policy journalled past it, or a gap was already declared).
      if (r.reserved <= lost_to) break;
      if (r.clean) {
        // A clean close wrote every seq up to `reserved`: the journal lost its end since.
        lost_to = r.reserved;
        start.reason = "the journal ends before the seq of the last clean close";
      } else if (boot_id.empty() || r.boot_id != boot_id) {
        lost_to = r.reserved;
        start.reason = r.boot_id.empty() && !boot_id.empty()
                           ? "the previous run stopped while records waited for the disk"
                           : "the previous run did not close cleanly and the kernel has "
                             "restarted since";
      }
      // Same boot, not clean: the process died, the page cache kept every record it wrote.
      break;
    }
  }
  if (lost_to > journal_last) {
    start.lost = std::make_pair(journal_last + 1, lost_to);
    start.next_seq = lost_to + 1;
  }
  return start;
}

}  // namespace eboard::daemon
