#include "daemon/core/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "daemon/core/journal_format.h"

namespace eboard::daemon {
namespace {

namespace format = journal_format;

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

// The one seq jump the chain allows (journal.h): a seqsLost event declaring exactly the
// seqs between the previous record and itself.
bool declares_gap(const eboard::v1::Event& event, std::uint32_t previous) {
  return event.has_seqs_lost() && event.seq() > previous + 1 &&
         event.seqs_lost().first_seq() == previous + 1 &&
         event.seqs_lost().last_seq() == event.seq() - 1;
}

std::string seq_ranges(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges) {
  std::string text;
  for (const auto& [first, last] : ranges) {
    if (!text.empty()) text += ", ";
    text += std::to_string(first);
    if (last != first) text += ".." + std::to_string(last);
  }
  return text;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Bytes the next zero chunk may take: kPreallocBytes, or half of what the file system
// has left, in whole 4 KiB pages.
std::uint64_t chunk_for(int fd) {
  struct statvfs st {};
  if (::fstatvfs(fd, &st) != 0) return Journal::kPreallocBytes;
  const std::uint64_t free_bytes = std::uint64_t{st.f_bavail} * st.f_frsize;
  return std::min<std::uint64_t>(Journal::kPreallocBytes, free_bytes / 2) / 4096 * 4096;
}

}  // namespace

std::string encode_journal_record(std::string_view event_bytes) {
  return format::encode_record(event_bytes);
}

Journal::Journal(int fd, std::string path, FsyncPolicy policy, Writer writer)
    : fd_(fd), path_(std::move(path)), policy_(policy), writer_(std::move(writer)) {
  if (!writer_)
    writer_ = [](int f, const void* d, std::size_t n, off_t o) { return ::pwrite(f, d, n, o); };
}

bool Journal::write_all_at(std::string_view bytes, std::uint64_t offset) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = writer_(fd_, bytes.data() + written, bytes.size() - written,
                              static_cast<off_t>(offset + written));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ENOSPC;  // a write that takes nothing is a full disk
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

bool Journal::write_zeros_at(std::uint64_t offset, std::uint64_t count) {
  static constexpr std::size_t kBlock = 64 * 1024;
  const std::string zeros(static_cast<std::size_t>(std::min<std::uint64_t>(count, kBlock)), '\0');
  for (std::uint64_t done = 0; done < count;) {
    const auto piece = static_cast<std::size_t>(std::min<std::uint64_t>(count - done, kBlock));
    if (!write_all_at(std::string_view(zeros).substr(0, piece), offset + done)) return false;
    done += piece;
  }
  return true;
}

Result<Journal> Journal::open(const std::string& path, FsyncPolicy policy, const Visitor& visit,
                              std::string& warning, Writer writer) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0640);
  if (fd < 0) return Error{path + ": cannot open journal: " + errno_text()};
  Journal journal(fd, path, policy, std::move(writer));
  if (auto error = journal.load(visit)) return Error{*error};
  const Damage& d = journal.damage_;
  if (!d.lost.empty() || d.tail_bytes > 0) {
    warning = path + ": damaged";
    if (!d.lost.empty()) warning += ": records lost: seq " + seq_ranges(d.lost);
    if (d.tail_bytes > 0) {
      warning += (d.lost.empty() ? ": " : "; ") + std::to_string(d.tail_bytes) +
                 " bytes after seq " + std::to_string(journal.last_seq()) + " cut off (" +
                 (d.tail_bound > 0 ? "they could hold seqs up to " + std::to_string(d.tail_bound)
                                   : "no record of this journal: a page of zeros before them") +
                 ")";
    }
    warning += "; every intact record is kept";
  }
  // The first zero tail is written and synced here, at start-up, not before an event.
  if (journal.wants_extension() && journal.extend() >= 0) ::fdatasync(fd);
  return journal;
}

std::optional<std::string> Journal::load(const Visitor& visit) {
  std::string bytes;
  if (!read_all(fd_, bytes)) return path_ + ": cannot read journal: " + errno_text();
  const format::Format kind = format::detect(bytes);
  eboard::v1::Event event;
  std::vector<std::string> v1_events;  // kept to be rewritten in format 2
  const auto keep = [&](const format::Found& found) {
    if (!event.ParseFromArray(found.event.data(), static_cast<int>(found.event.size()))) {
      return false;
    }
    if (event.seq() <= last_seq_) return false;  // out of order: not a record of this chain
    if (event.seq() != last_seq_ + 1 && !declares_gap(event, last_seq_)) {
      damage_.lost.emplace_back(last_seq_ + 1, event.seq() - 1);
    }
    add_record(event.seq(), found.offset);
    if (kind == format::Format::kV1) v1_events.emplace_back(found.event);
    visit(event);
    return true;
  };
  const format::ScanResult scan = format::scan(bytes, kind, keep);
  written_seq_ = last_seq_;
  end_ = scan.logical_end;
  allocated_ = bytes.size();
  damage_.tail_bytes = scan.tail_damage_bytes;
  if (scan.tail_record_bytes > 0) {
    const std::uint64_t per_record = kind == format::Format::kV1 ? 10 : format::kMinRecordBytes;
    damage_.tail_bound = static_cast<std::uint32_t>(std::min<std::uint64_t>(
        0xFFFFFFFFu, last_seq_ + (scan.tail_record_bytes + per_record - 1) / per_record));
  }
  if (kind == format::Format::kV1) return upgrade(v1_events);
  if (kind == format::Format::kEmpty || !bytes.starts_with(format::kFileHeader)) {
    // A new journal, or a header lost to damage: records (if any) start after it.
    end_ = std::max<std::uint64_t>(end_, format::kFileHeader.size());
    if (!offsets_.empty() && offsets_.front() < format::kFileHeader.size()) {
      return path_ + ": damaged beyond repair (a record where the header belongs)";
    }
    if (!write_all_at(format::kFileHeader, 0)) return path_ + ": cannot write: " + errno_text();
    allocated_ = std::max<std::uint64_t>(allocated_, format::kFileHeader.size());
  }
  // Everything after the logical end must read as zeros, or a later record written there
  // could run into old bytes; zeroed, not truncated, so the preallocated space stays.
  if (scan.tail_damage_bytes > 0 &&
      (!write_zeros_at(end_, scan.tail_damage_bytes) || ::fdatasync(fd_) != 0)) {
    return path_ + ": cannot cut off the damaged tail: " + errno_text();
  }
  return std::nullopt;
}

// Format 1 is rewritten as format 2 beside the journal and renamed over it (durably), so
// a crash during the upgrade leaves one whole journal or the other.
std::optional<std::string> Journal::upgrade(const std::vector<std::string>& events) {
  std::string bytes(format::kFileHeader);
  offsets_.clear();
  for (const std::string& e : events) {
    offsets_.push_back(bytes.size());
    bytes += format::encode_record(e);
  }
  const std::string temp = path_ + ".upgrade";
  const int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
  if (fd < 0) return temp + ": cannot create: " + errno_text();
  const int old = fd_;
  fd_ = fd;
  const bool written =
      write_all_at(bytes, 0) && ::fsync(fd) == 0 && ::rename(temp.c_str(), path_.c_str()) == 0;
  const std::string error = errno_text();
  if (!written) {
    fd_ = old;
    ::close(fd);
    ::unlink(temp.c_str());
    return path_ + ": cannot rewrite the journal in the current format: " + error;
  }
  ::close(old);
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  end_ = bytes.size();
  allocated_ = bytes.size();
  damage_.upgraded = true;
  return std::nullopt;
}

int Journal::extend() {
  if (fd_ < 0) return -1;
  // Ends on a page boundary (the first chunk after the header is 18 bytes short).
  const std::uint64_t end = (allocated_ + chunk_for(fd_)) / 4096 * 4096;
  if (end <= allocated_) return -1;
  const std::uint64_t chunk = end - allocated_;
  if (!write_zeros_at(allocated_, chunk)) {
    // Give back what the failed chunk took: the records need it more.
    if (::ftruncate(fd_, static_cast<off_t>(allocated_)) != 0) return -1;
    return -1;
  }
  allocated_ += chunk;
  return fd_;
}

Journal::Journal(Journal&& other) noexcept
    : fd_(other.fd_),
      path_(std::move(other.path_)),
      policy_(other.policy_),
      writer_(std::move(other.writer_)),
      damage_(std::move(other.damage_)),
      runs_(std::move(other.runs_)),
      offsets_(std::move(other.offsets_)),
      written_seq_(other.written_seq_),
      last_seq_(other.last_seq_),
      waiting_(std::move(other.waiting_)),
      write_error_(std::move(other.write_error_)),
      end_(other.end_),
      allocated_(other.allocated_),
      dirty_(other.dirty_),
      defer_(other.defer_) {
  other.fd_ = -1;
}

Journal& Journal::operator=(Journal&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    policy_ = other.policy_;
    writer_ = std::move(other.writer_);
    damage_ = std::move(other.damage_);
    runs_ = std::move(other.runs_);
    offsets_ = std::move(other.offsets_);
    written_seq_ = other.written_seq_;
    last_seq_ = other.last_seq_;
    waiting_ = std::move(other.waiting_);
    write_error_ = std::move(other.write_error_);
    end_ = other.end_;
    allocated_ = other.allocated_;
    dirty_ = other.dirty_;
    defer_ = other.defer_;
  }
  return *this;
}

Journal::~Journal() {
  if (fd_ >= 0) {
    if (dirty_) ::fdatasync(fd_);
    ::close(fd_);
    fd_ = -1;
  }
}

void Journal::add_record(std::uint32_t seq, std::uint64_t offset) {
  if (runs_.empty() || seq != written_seq_ + 1) runs_.push_back(Run{seq, offsets_.size()});
  offsets_.push_back(offset);
  written_seq_ = seq;
  last_seq_ = std::max(last_seq_, seq);
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
  if (seq != last_seq_ + 1 && !(jump == SeqJump::kSeqsLost && seq > last_seq_ + 1)) {
    return Error{path_ + ": seq " + std::to_string(seq) + " after " + std::to_string(last_seq_)};
  }
  last_seq_ = seq;
  std::string record = format::encode_record(event_bytes);
  // Behind a record that waits, every record waits: the file stays in seq order.
  if (!waiting_.empty() || !write_record(seq, record)) {
    waiting_.push_back(Waiting{seq, std::move(record)});
  }
  return std::nullopt;
}

bool Journal::write_record(std::uint32_t seq, const std::string& record) {
  if (!write_all_at(record, end_)) {
    write_error_ = errno_text();
    // A piece written past the zero tail grew the file: take it back (a shrink needs no
    // space); a piece inside the tail is overwritten by the retry.
    if (end_ + record.size() > allocated_) {
      [[maybe_unused]] const int ignored = ::ftruncate(fd_, static_cast<off_t>(allocated_));
    }
    return false;
  }
  add_record(seq, end_);
  end_ += record.size();
  // Past the zero tail (a burst longer than it, or extend() failed): the file grew like
  // a journal without a tail; correct, only this record's sync is the slower kind.
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
  return true;
}

bool Journal::retry() {
  while (!waiting_.empty()) {
    if (!write_record(waiting_.front().seq, waiting_.front().record)) return false;
    waiting_.pop_front();
  }
  write_error_.clear();
  return true;
}

int Journal::claim_sync(bool for_batch) {
  if (!dirty_ || fd_ < 0 || policy_ == FsyncPolicy::kNever) return -1;
  if (for_batch && policy_ != FsyncPolicy::kAlways && policy_ != FsyncPolicy::kAfterPublish) {
    return -1;
  }
  dirty_ = false;
  return fd_;
}

std::vector<std::string> Journal::read_range(std::uint32_t from, std::uint32_t to) const {
  std::vector<std::string> events;
  if (from == 0) from = 1;
  const std::uint32_t written_to = std::min(to, written_seq_);
  if (from <= written_to) {
    const std::size_t first = index_at_or_after(from);
    const std::size_t stop =
        written_to == written_seq_ ? offsets_.size() : index_at_or_after(written_to + 1);
    if (first < stop) {
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
      // Records at their own offsets: damaged bytes may lie between them.
      for (std::size_t index = first; index < stop; ++index) {
        const auto found = format::record_at(bytes, offsets_[index] - begin);
        if (!found) break;
        events.emplace_back(found->event);
      }
    }
  }
  if (policy_ == FsyncPolicy::kAlways) return events;
  for (const Waiting& w : waiting_) {
    if (w.seq < from || w.seq > to) continue;
    if (const auto found = format::record_at(w.record, 0)) events.emplace_back(found->event);
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
