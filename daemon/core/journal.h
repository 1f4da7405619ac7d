// A board's journal: every event, in seq order, appended before it is published
// (design.md "Nothing is lost"; issue 6 item 8).
//
// File format, one record per event:
//   varint  length of the Event's binary form (the standard length-delimited framing)
//   bytes   the eboard.v1.Event
//   4 bytes CRC-32C of those bytes, little-endian
// then zero bytes up to the end of the file. A length of 0 never starts a record (every
// Event has seq >= 1, so its binary form is never empty): the first zero length is the
// journal's logical end. Journals written before the zero tail existed simply end there.
//
// Why a zero tail: under FsyncPolicy::kAlways every published event waits for one
// fdatasync. An append that grows the file makes that sync also write the inode (new
// size) and allocate blocks; an overwrite of blocks that already hold written zeros is a
// data-only sync (on this VM's ext4: p50 ~190 us instead of ~270 us, p99 350-540 us instead
// of 440-770 us; BENCHMARKS.md "The daemon"). So the file is extended ahead of the records
// in chunks of real zero bytes (not fallocate: its unwritten extents need a metadata
// change on their first write), and that extension is synced apart from any event: at
// open, and later at a calm moment chosen by the hub (event_hub.h) on the sync worker.
//
// A power cut can leave the last record half-written (or written but not its checksum),
// and unsynced bytes after it. Loading stops at the first record that is incomplete,
// fails its checksum, does not parse or breaks the seq chain, or at the first zero
// length; every non-zero byte from there on is overwritten with zeros (synced) and
// reported. It never throws and never refuses to start because of a damaged tail.
//
// Seq gaps: the chain is seq = previous + 1, with one exception, a `seqsLost` event
// (seq_reservation.h: after a power cut under `after-publish`, numbering continues above
// the durable reservation) whose seq is its last_seq + 1 and whose first_seq is the
// previous record's seq + 1. A replay from a seq inside such a gap starts at that event.
//
// The journal keeps only the file offset of each record in memory, so a long history
// costs 8 bytes an event; replays for `subscribe.from_seq` read the file with pread at
// those (logical) offsets. Writes are plain pwrite(2) on the event-loop thread: a record
// is a few hundred bytes into the page cache. fdatasync follows the configured FsyncPolicy
// and, in the daemon, runs on the sync worker thread (sync_worker.h), never on the loop.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/core/config.h"
#include "eboard/v1/event.pb.h"
#include "engine/util/result.h"

namespace eboard::daemon {

class Journal {
 public:
  using Visitor = std::function<void(const eboard::v1::Event& event)>;

  // Opens (creating) the journal at `path`, calls `visit` for every intact record in
  // order, and cuts off a damaged tail; `warning` gets a one-line note when it cut.
  static Result<Journal> open(const std::string& path, FsyncPolicy policy, const Visitor& visit,
                              std::string& warning);

  Journal(Journal&& other) noexcept;
  Journal& operator=(Journal&& other) noexcept;
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  ~Journal();

  // The seq of the last record (0: empty).
  std::uint32_t last_seq() const { return last_seq_; }
  // Appends the record of an event already serialised; `seq` must be last_seq() + 1, or
  // larger for the seqsLost event that declares the gap (SeqJump::kSeqsLost).
  enum class SeqJump : std::uint8_t { kNone, kSeqsLost };
  std::optional<Error> append(std::uint32_t seq, std::string_view event_bytes,
                              SeqJump jump = SeqJump::kNone);
  // The binary Events with seq in [from, to], as stored (checksums verified); seqs in a
  // gap are skipped.
  std::vector<std::string> read_range(std::uint32_t from, std::uint32_t to) const;
  // fdatasync if records were written since the last sync (on this thread).
  void sync_if_dirty();
  // Group commit with the sync off the loop (event_hub.h, sync_worker.h): with deferral
  // on, append() only writes; the hub then claims the file to sync. claim_sync() returns
  // the fd to fdatasync when records were written since the last claim (for a batch,
  // `for_batch`, only under kAlways and kAfterPublish; the interval timer and shutdown
  // claim under any policy but kNever), else -1, and clears the mark. The fd stays open while the
  // journal lives.
  void defer_sync(bool on) { defer_ = on; }
  int claim_sync(bool for_batch) {
    if (!dirty_ || fd_ < 0 || policy_ == FsyncPolicy::kNever) return -1;
    if (for_batch && policy_ != FsyncPolicy::kAlways && policy_ != FsyncPolicy::kAfterPublish) {
      return -1;
    }
    dirty_ = false;
    return fd_;
  }
  const std::string& path() const { return path_; }
  FsyncPolicy policy() const { return policy_; }

  // The zero tail (see the top of this file). wants_extension(): fewer than
  // kExtendBelowBytes of it are left. extend() writes kPreallocBytes more zeros after it
  // (into the page cache, no sync) and returns the fd to fdatasync, or -1 when the write
  // failed (records then grow the file as they did before the zero tail existed).
  static constexpr std::uint64_t kPreallocBytes = 256 * 1024;
  static constexpr std::uint64_t kExtendBelowBytes = 64 * 1024;
  bool wants_extension() const { return fd_ >= 0 && allocated_ - end_ < kExtendBelowBytes; }
  int extend();
  // Bytes of records (the logical end) and of the file (records + zero tail).
  std::uint64_t logical_size() const { return end_; }
  std::uint64_t allocated_size() const { return allocated_; }

 private:
  Journal(int fd, std::string path, FsyncPolicy policy)
      : fd_(fd), path_(std::move(path)), policy_(policy) {}

  int fd_ = -1;
  std::string path_;
  FsyncPolicy policy_ = FsyncPolicy::kAlways;
  // Index of the first record with seq >= `seq` (records_count() when none).
  std::size_t index_at_or_after(std::uint32_t seq) const;
  void add_record(std::uint32_t seq, std::uint64_t offset);

  // A run of consecutive seqs: record `first_index + k` has seq `first_seq + k`. One run
  // per seqsLost gap plus the first, so the lookup is a short scan.
  struct Run {
    std::uint32_t first_seq;
    std::size_t first_index;
  };
  std::vector<Run> runs_;
  std::vector<std::uint64_t> offsets_;  // where each record starts, in file order
  std::uint32_t last_seq_ = 0;
  std::uint64_t end_ = 0;        // logical end: the next record goes here
  std::uint64_t allocated_ = 0;  // file size; [end_, allocated_) holds written zeros
  bool dirty_ = false;
  bool defer_ = false;
};

// Encodes one record (exposed for tests that write damaged journals).
std::string encode_journal_record(std::string_view event_bytes);

}  // namespace eboard::daemon
