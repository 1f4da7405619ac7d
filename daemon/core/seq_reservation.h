// Seqs reserved ahead, durably, so that `--journal-fsync after-publish` can publish an
// event before its journal record is synced and still never give a seq a consumer has
// seen to a different event (BENCHMARKS.md "The daemon").
//
// The problem: after-publish writes a record (pwrite, page cache), publishes it at once
// and lets the sync worker fdatasync it right after. A kill -9 loses nothing (the page
// cache survives the process), but a power cut or kernel crash can lose the last records
// after consumers received them; numbering from the journal's last durable seq would
// then reissue those seqs with other content.
//
// The answer: a per-board sidecar file next to the journal records R, "seqs up to R may
// have been published". No seq above R is published before a sidecar with a larger R is
// on the disk (written on the sync worker, long before it is needed: raised to
// last + kReserveAhead whenever last > R - kRaiseMargin). On start, if something may have
// been lost (the sidecar's boot id differs from the kernel's and the last run did not
// close cleanly), numbering continues at R + 1 after a `seqsLost` event naming
// last + 1 .. R. Otherwise (same boot: a process crash keeps the page cache; or a clean
// close) it continues at last + 1, exactly as under the other policies.
//
// A boot id of "-" in the sidecar trusts no process crash either: it is written while
// journal records wait for a full disk (journal.h), when even the page cache does not
// hold every published event, so a restart on the same boot declares the gap too.
//
// Sidecar format, one text line (readable with cat, checked by CRC-32C):
//   eboardd-seq-reservation 1 reserved=<R> boot=<boot id> clean=<0|1> crc=<8 hex digits>
// The CRC covers everything before " crc=". Written as temp file + fsync + rename + fsync
// of the directory, so a power cut leaves the old or the new file, never a torn one. When
// that fails (a full disk has no block for the new file), the line is rewritten in place
// in the existing file's first block, which needs no new space: a power cut during that
// write can tear it, and a torn line is damaged. A damaged file (torn, disk error, hand
// edit) is reported and treated as "unknown":
// numbering jumps by kUnknownJump, which is more than any reservation can have reached.
// No sidecar at all (journals from before after-publish, or other policies) means the
// journal is the truth.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.h"

namespace eboard::daemon {

inline constexpr std::uint32_t kReserveAhead = 1024;
inline constexpr std::uint32_t kRaiseMargin = 512;
inline constexpr std::uint32_t kUnknownJump = 1u << 16;

struct SeqReservation {
  std::uint32_t reserved = 0;  // seqs up to this may have been published
  std::string boot_id;         // the kernel's boot id when it was written
  bool clean = false;          // written at a clean shutdown, after the final sync
};

struct ReservationRead {
  enum class Status : std::uint8_t { kMissing, kValid, kDamaged };
  Status status = Status::kMissing;
  SeqReservation reservation;
  std::string problem;  // for kDamaged: what is wrong, naming the file
};

std::string reservation_path(const std::string& journal_path);
std::string encode_reservation(const SeqReservation& reservation);
ReservationRead read_reservation(const std::string& path);
// Durable replace (temp + fsync + rename + fsync dir). Blocks on the disk: call it on
// the sync worker, or at start-up before the loop runs.
std::optional<Error> write_reservation(const std::string& path, const SeqReservation& reservation);

// The kernel's boot id from `path` (normally /proc/sys/kernel/random/boot_id), "" when
// unreadable (then every unclean start counts as a reboot: the safe side).
std::string read_boot_id(const std::string& path);

// Where numbering continues after a journal whose last seq is `journal_last` and whose
// damaged tail could hold seqs up to `damaged_up_to` (journal.h Damage; 0: no damage).
// The rule: above every seq that may ever have been published.
struct SeqStart {
  std::uint32_t next_seq = 1;
  // Seqs that may have been published and are lost: a seqsLost event is due.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> lost;
  std::string reason;  // why (for the event and the log); "" when nothing is lost
};
SeqStart decide_seq_start(std::uint32_t journal_last, std::uint32_t damaged_up_to,
                          const ReservationRead& read, std::string_view boot_id);

}  // namespace eboard::daemon
