// A board's journal: every event, in seq order, appended before it is published
// (docs/design.md "Nothing is lost"). The file format is in journal_format.h.
//
// Why a zero tail: under FsyncPolicy::kAlways every published event waits for one
// fdatasync. An append that grows the file makes that sync also write the inode (new
// size) and allocate blocks; an overwrite of blocks that already hold written zeros is a
// data-only sync (BENCHMARKS.md "The daemon"). So the file is extended ahead of the
// records in chunks of real zero bytes (not fallocate: its unwritten extents need a
// metadata change on their first write), synced apart from any event: at open, and later
// at a calm moment chosen by the hub (event_hub.h) on the sync worker. A chunk is at most
// kPreallocBytes and at most half the file system's free space, so a nearly full disk
// still starts the daemon (with a smaller tail, or none).
//
// Damage: loading keeps every record that is intact (journal_format.h finds records
// again after damaged bytes). The seqs between two kept records that are neither there
// nor declared by a seqsLost event are lost to damage and named in the warning. Non-zero
// bytes after the last kept record (a torn write, or damage) are overwritten with zeros
// and synced; damage() says how many seqs they could have held, so that numbering
// continues above them (event_hub.h start_numbering). It never throws and never refuses
// to start because of damage.
//
// A full disk: a record that cannot be written is never skipped. It waits, in memory,
// with every record after it, in order; retry() (the hub calls it on a timer of the event
// loop, with backoff) writes them once the disk takes them, so the file stays contiguous
// in seq order. A write that failed halfway is overwritten by the retry at the same place.
//
// Seq gaps: the chain is seq = previous + 1, with one exception, a `seqsLost` event
// (seq_reservation.h) whose seq is its last_seq + 1 and whose first_seq is the previous
// record's seq + 1. A replay from a seq inside such a gap starts at that event.
//
// The journal keeps only the file offset of each record in memory (8 bytes an event);
// replays for `subscribe.from_seq` read the file with pread. Writes are pwrite(2) on the
// event-loop thread: a record is a few hundred bytes into the page cache. fdatasync
// follows the configured FsyncPolicy and, in the daemon, runs on the sync worker thread
// (sync_worker.h), never on the loop.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/core/config.h"
#include "eboard/v1/event.pb.h"
#include "util/result.h"

namespace eboard::daemon {

class Journal {
 public:
  using Visitor = std::function<void(const eboard::v1::Event& event)>;
  // pwrite(2)'s contract; the seam below every write of the journal (tests make it fail
  // the way a full disk does).
  using Writer = std::function<ssize_t(int fd, const void* data, std::size_t size, off_t offset)>;

  // What loading found damaged (see the top of this file).
  struct Damage {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> lost;  // seq ranges, inclusive
    std::uint64_t tail_bytes = 0;  // non-zero bytes after the last record, now zeros
    std::uint32_t tail_bound = 0;  // the highest seq those bytes could hold; 0: none
    bool upgraded = false;         // was format 1, rewritten as format 2
  };

  // Opens (creating) the journal at `path`, calls `visit` for every intact record in
  // order; `warning` gets a one-line note when something was damaged.
  static Result<Journal> open(const std::string& path, FsyncPolicy policy, const Visitor& visit,
                              std::string& warning, Writer writer = {});

  Journal(Journal&& other) noexcept;
  Journal& operator=(Journal&& other) noexcept;
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;
  ~Journal();

  // The seq of the last record, written or waiting (0: empty).
  std::uint32_t last_seq() const { return last_seq_; }
  const Damage& damage() const { return damage_; }
  // Appends the record of an event already serialised; `seq` must be last_seq() + 1, or
  // larger for the seqsLost event that declares the gap (SeqJump::kSeqsLost). The error
  // is for a seq out of order only: a record the disk refuses waits (waiting()).
  enum class SeqJump : std::uint8_t { kNone, kSeqsLost };
  std::optional<Error> append(std::uint32_t seq, std::string_view event_bytes,
                              SeqJump jump = SeqJump::kNone);

  // Records accepted and not yet written (a full or failing disk).
  bool waiting() const { return !waiting_.empty(); }
  std::size_t waiting_records() const { return waiting_.size(); }
  std::uint32_t first_waiting_seq() const { return waiting_.empty() ? 0 : waiting_.front().seq; }
  // Why the last write failed ("No space left on device").
  const std::string& write_error() const { return write_error_; }
  // Writes the waiting records in order, as many as the disk takes; true when none is
  // left waiting.
  bool retry();

  // The binary Events with seq in [from, to], as stored (checksums verified); seqs in a
  // gap are skipped. Waiting records are included except under kAlways (where they have
  // not been published).
  std::vector<std::string> read_range(std::uint32_t from, std::uint32_t to) const;
  // fdatasync if records were written since the last sync (on this thread).
  void sync_if_dirty();
  // Group commit with the sync off the loop (event_hub.h, sync_worker.h): with deferral
  // on, append() only writes; the hub then claims the file to sync. claim_sync() returns
  // the fd to fdatasync when records were written since the last claim (for a batch,
  // `for_batch`, only under kAlways and kAfterPublish; the interval timer and shutdown
  // claim under any policy but kNever), else -1, and clears the mark. The fd stays open
  // while the journal lives.
  void defer_sync(bool on) { defer_ = on; }
  int claim_sync(bool for_batch);
  const std::string& path() const { return path_; }
  FsyncPolicy policy() const { return policy_; }

  // The zero tail (see the top of this file). wants_extension(): fewer than
  // kExtendBelowBytes of it are left. extend() writes up to kPreallocBytes more zeros
  // after it (into the page cache, no sync) and returns the fd to fdatasync, or -1 when
  // nothing was added (records then grow the file, as before the zero tail existed).
  static constexpr std::uint64_t kPreallocBytes = 256 * 1024;
  static constexpr std::uint64_t kExtendBelowBytes = 64 * 1024;
  bool wants_extension() const { return fd_ >= 0 && allocated_ - end_ < kExtendBelowBytes; }
  int extend();
  // Bytes of records (the logical end) and of the file (records + zero tail).
  std::uint64_t logical_size() const { return end_; }
  std::uint64_t allocated_size() const { return allocated_; }

 private:
  Journal(int fd, std::string path, FsyncPolicy policy, Writer writer);

  bool write_all_at(std::string_view bytes, std::uint64_t offset);
  bool write_zeros_at(std::uint64_t offset, std::uint64_t count);
  std::optional<std::string> load(const Visitor& visit);
  std::optional<std::string> upgrade(const std::vector<std::string>& events);
  // Writes one record at the logical end; false (write_error_ set) when the disk refused.
  bool write_record(std::uint32_t seq, const std::string& record);
  // Index of the first record with seq >= `seq` (offsets_.size() when none).
  std::size_t index_at_or_after(std::uint32_t seq) const;
  void add_record(std::uint32_t seq, std::uint64_t offset);

  int fd_ = -1;
  std::string path_;
  FsyncPolicy policy_ = FsyncPolicy::kAlways;
  Writer writer_;
  Damage damage_;

  // A run of consecutive seqs: record `first_index + k` has seq `first_seq + k`. One run
  // per gap plus the first, so the lookup is a short scan.
  struct Run {
    std::uint32_t first_seq;
    std::size_t first_index;
  };
  std::vector<Run> runs_;
  std::vector<std::uint64_t> offsets_;  // where each written record starts, in file order
  std::uint32_t written_seq_ = 0;       // the last written record's seq
  std::uint32_t last_seq_ = 0;          // the last accepted one (written or waiting)
  struct Waiting {
    std::uint32_t seq;
    std::string record;  // encoded, journal_format.h
  };
  std::deque<Waiting> waiting_;
  std::string write_error_;
  std::uint64_t end_ = 0;        // logical end: the next record goes here
  std::uint64_t allocated_ = 0;  // file size; [end_, allocated_) holds written zeros
  bool dirty_ = false;
  bool defer_ = false;
};

// Encodes one record in the current format (exposed for tests that write journals).
std::string encode_journal_record(std::string_view event_bytes);

}  // namespace eboard::daemon
