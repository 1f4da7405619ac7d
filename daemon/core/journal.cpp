#include "daemon/core/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "daemon/core/crc32c.h"

namespace eboard::daemon {
namespace {

void put_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// Reads a varint at `pos`; nullopt when the bytes end first or it is over 5 bytes long
// (a record is far below 4 GiB).
std::optional<std::uint64_t> get_varint(std::string_view bytes, std::size_t& pos) {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (pos >= bytes.size()) return std::nullopt;
    const auto byte = static_cast<std::uint8_t>(bytes[pos++]);
    value |= std::uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return std::nullopt;
}

std::uint32_t read_le32(std::string_view bytes) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<std::uint8_t>(bytes[i]);
  return value;
}

std::string errno_text() { return std::strerror(errno); }

bool read_all(int fd, std::string& out) {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

// pwrite of all of `bytes` at `offset`; false (errno set) on failure.
bool write_all_at(int fd, std::string_view bytes, std::uint64_t offset) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::pwrite(fd, bytes.data() + written, bytes.size() - written,
                               static_cast<off_t>(offset + written));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

bool write_zeros_at(int fd, std::uint64_t offset, std::uint64_t count) {
  static constexpr std::size_t kBlock = 64 * 1024;
  const std::string zeros(static_cast<std::size_t>(std::min<std::uint64_t>(count, kBlock)), '\0');
  for (std::uint64_t done = 0; done < count;) {
    const auto piece = static_cast<std::size_t>(std::min<std::uint64_t>(count - done, kBlock));
    if (!write_all_at(fd, std::string_view(zeros).substr(0, piece), offset + done)) return false;
    done += piece;
  }
  return true;
}

// The one seq jump the chain allows (journal.h): a seqsLost event declaring exactly the
// seqs between the previous record and itself.
bool declares_gap(const eboard::v1::Event& event, std::uint32_t previous) {
  return event.has_seqs_lost() && event.seq() > previous + 1 &&
         event.seqs_lost().first_seq() == previous + 1 &&
         event.seqs_lost().last_seq() == event.seq() - 1;
}

}  // namespace

std::string encode_journal_record(std::string_view event_bytes) {
  std::string record;
  record.reserve(event_bytes.size() + 9);
  put_varint(record, event_bytes.size());
  record.append(event_bytes);
  const std::uint32_t crc = crc32c(event_bytes);
  for (int i = 0; i < 4; ++i) record.push_back(static_cast<char>((crc >> (8 * i)) & 0xFF));
  return record;
}

Result<Journal> Journal::open(const std::string& path, FsyncPolicy policy, const Visitor& visit,
                              std::string& warning) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0640);
  if (fd < 0) return Error{path + ": cannot open journal: " + errno_text()};
  Journal journal(fd, path, policy);
  std::string bytes;
  if (!read_all(fd, bytes)) return Error{path + ": cannot read journal: " + errno_text()};

  std::size_t pos = 0;
  std::string problem;
  eboard::v1::Event event;
  while (pos < bytes.size()) {
    if (bytes[pos] == '\0') {
      problem = "data after the journal's end";  // reported only if non-zero bytes follow
      break;
    }
    std::size_t cursor = pos;
    const auto length = get_varint(bytes, cursor);
    if (!length || *length > bytes.size() - cursor || bytes.size() - cursor - *length < 4) {
      problem = "incomplete record";
      break;
    }
    const std::string_view payload(bytes.data() + cursor, *length);
    if (crc32c(payload) != read_le32(std::string_view(bytes).substr(cursor + *length, 4))) {
      problem = "checksum mismatch";
      break;
    }
    if (!event.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
      problem = "record does not parse as an Event";
      break;
    }
    if (event.seq() != journal.last_seq() + 1 && !declares_gap(event, journal.last_seq())) {
      problem =
          "seq " + std::to_string(event.seq()) + " follows " + std::to_string(journal.last_seq());
      break;
    }
    journal.add_record(event.seq(), pos);
    visit(event);
    pos = cursor + *length + 4;
  }
  journal.end_ = pos;
  journal.allocated_ = bytes.size();
  // Everything after the logical end must read as zeros, or a later record written there
  // could run into old bytes; a damaged or unsynced tail is zeroed, not truncated, so the
  // preallocated space stays.
  const std::size_t last = bytes.find_last_not_of('\0');
  if (last != std::string::npos && last >= pos) {
    warning = path + ": " + problem + " at byte " + std::to_string(pos) + " after seq " +
              std::to_string(journal.last_seq()) + "; cut off " + std::to_string(last + 1 - pos) +
              " bytes";
    if (!write_zeros_at(fd, pos, last + 1 - pos) || ::fdatasync(fd) != 0) {
      return Error{path + ": cannot cut off the damaged tail: " + errno_text()};
    }
  }
  // The first zero tail is written and synced here, at start-up, not before an event.
  if (journal.wants_extension() && journal.extend() >= 0) ::fdatasync(fd);
  return journal;
}

int Journal::extend() {
  if (fd_ < 0) return -1;
  if (!write_zeros_at(fd_, allocated_, kPreallocBytes)) return -1;
  allocated_ += kPreallocBytes;
  return fd_;
}

Journal::Journal(Journal&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      policy_(other.policy_),
      runs_(std::move(other.runs_)),
      offsets_(std::move(other.offsets_)),
      last_seq_(other.last_seq_),
      end_(other.end_),
      allocated_(other.allocated_),
      dirty_(other.dirty_),
      defer_(other.defer_) {
  other.fd_ = -1;
}

Journal& Journal::operator=(Journal&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    policy_ = other.policy_;
    runs_ = std::move(other.runs_);
    offsets_ = std::move(other.offsets_);
    last_seq_ = other.last_seq_;
    end_ = other.end_;
    allocated_ = other.allocated_;
    dirty_ = other.dirty_;
    defer_ = other.defer_;
    other.fd_ = -1;
  }
  return *this;
}

Journal::~Journal() {
  if (fd_ >= 0) {
    if (dirty_) ::fdatasync(fd_);
    ::close(fd_);
  }
}

void Journal::add_record(std::uint32_t seq, std::uint64_t offset) {
  if (runs_.empty() || seq != last_seq_ + 1) runs_.push_back(Run{seq, offsets_.size()});
  offsets_.push_back(offset);
  last_seq_ = seq;
}

std::size_t Journal::index_at_or_after(std::uint32_t seq) const {
  for (std::size_t r = runs_.size(); r-- > 0;) {
    const Run& run = runs_[r];
    if (seq < run.first_seq) continue;
    const std::size_t run_end = r + 1 < runs_.size() ? runs_[r + 1].first_index : offsets_.size();
    const std::uint64_t index = run.first_index + std::uint64_t{seq - run.first_seq};
    // Past this run: in the gap before the next one (its first record) or past the end.
    return index < run_end ? static_cast<std::size_t>(index) : run_end;
  }
  return 0;
}

std::optional<Error> Journal::append(std::uint32_t seq, std::string_view event_bytes,
                                     SeqJump jump) {
  if (seq != last_seq() + 1 && !(jump == SeqJump::kSeqsLost && seq > last_seq() + 1)) {
    return Error{path_ + ": seq " + std::to_string(seq) + " after " + std::to_string(last_seq())};
  }
  const std::string record = encode_journal_record(event_bytes);
  if (!write_all_at(fd_, record, end_)) {
    const std::string error = errno_text();
    // Leave no partial record behind (the next start would cut it anyway).
    write_zeros_at(fd_, end_, record.size());
    return Error{path_ + ": write: " + error};
  }
  add_record(seq, end_);
  end_ += record.size();
  // Past the zero tail (a burst longer than it, or extend() failed): the file grew like
  // an old-format journal; correct, only this record's sync is the slower kind.
  allocated_ = std::max(allocated_, end_);
  // Without the hub's deferral nobody picks a calm moment: extend here, before the sync
  // that then covers both.
  if (!defer_ && wants_extension()) extend();
  // Without the hub (no group commit), after-publish has nobody to publish first: it syncs
  // like always.
  if ((policy_ == FsyncPolicy::kAlways || policy_ == FsyncPolicy::kAfterPublish) && !defer_) {
    ::fdatasync(fd_);
  } else {
    dirty_ = true;
  }
  return std::nullopt;
}

std::vector<std::string> Journal::read_range(std::uint32_t from, std::uint32_t to) const {
  std::vector<std::string> events;
  if (from == 0) from = 1;
  to = std::min(to, last_seq());
  if (from > to) return events;
  const std::size_t first = index_at_or_after(from);
  const std::size_t stop = to == last_seq() ? offsets_.size() : index_at_or_after(to + 1);
  if (first >= stop) return events;
  const std::uint64_t begin = offsets_[first];
  const std::uint64_t end = stop < offsets_.size() ? offsets_[stop] : end_;
  std::string bytes(end - begin, '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n =
        ::pread(fd_, bytes.data() + got, bytes.size() - got, static_cast<off_t>(begin + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return events;
    got += static_cast<std::size_t>(n);
  }
  std::size_t pos = 0;
  for (std::size_t index = first; index < stop; ++index) {
    const auto length = get_varint(bytes, pos);
    if (!length || pos + *length + 4 > bytes.size()) break;
    const std::string_view payload(bytes.data() + pos, *length);
    if (crc32c(payload) != read_le32(std::string_view(bytes).substr(pos + *length, 4))) break;
    events.emplace_back(payload);
    pos += *length + 4;
  }
  return events;
}

void Journal::sync_if_dirty() {
  if (dirty_ && fd_ >= 0) {
    ::fdatasync(fd_);
    dirty_ = false;
  }
}

}  // namespace eboard::daemon
