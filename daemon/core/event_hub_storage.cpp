// The hub's side of a journal the disk refuses (event_hub.h set_retry_schedule,
// journal.h "A full disk"): saying so, retrying on the loop's timer, and releasing what
// waited once the records are written.
#include <algorithm>

#include "daemon/core/event_hub.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

v1::Event storage_event(const Journal& journal, v1::StorageState state, std::uint32_t first_seq,
                        std::uint32_t records) {
  v1::Event event;
  // Public, as deviceStatus is: a broadcast that stops should say why.
  event.set_visibility(v1::VISIBILITY_PUBLIC);
  auto* status = event.mutable_storage_status();
  status->set_state(state);
  status->set_path(journal.path());
  if (state == v1::STORAGE_STATE_FAILING) status->set_detail(journal.write_error());
  status->set_waiting_records(records);
  status->set_first_waiting_seq(first_seq);
  return event;
}

}  // namespace

bool EventHub::always_journal_waiting() const {
  return std::any_of(boards_.begin(), boards_.end(), [](const Board& b) {
    return b.journal && b.journal->policy() == FsyncPolicy::kAlways && b.journal->waiting();
  });
}

std::size_t EventHub::waiting_records() const {
  std::size_t records = 0;
  for (const Board& b : boards_) records += b.journal ? b.journal->waiting_records() : 0;
  return records;
}

void EventHub::journal_stalled(std::size_t board) {
  Board& b = boards_[board];
  const Journal& journal = *b.journal;
  stalled_from_[board] = journal.first_waiting_seq();
  const bool always = journal.policy() == FsyncPolicy::kAlways;
  log_.warning("board " + board_id(board) + ": journal " + journal.path() +
               ": cannot write: " + journal.write_error() + "; records wait in memory from seq " +
               std::to_string(journal.first_waiting_seq()) + " and are retried; " +
               (always ? "the stream waits for them"
                       : "the stream goes on, and a stop before they are written leaves a "
                         "seqsLost gap"));
  if (b.reservation && b.reservation->trusted) {
    // Before the batch of the refused record goes out: a restart, even on this boot, must
    // not number from the journal's end (seq_reservation.h).
    b.reservation->trusted = false;
    write_reservation_async(board);
    pending_.waits_for_reservation = true;
  }
  publish(board, storage_event(journal, v1::STORAGE_STATE_FAILING, journal.first_waiting_seq(),
                               static_cast<std::uint32_t>(journal.waiting_records())));
  schedule_retry();
}

void EventHub::schedule_retry() {
  if (retry_scheduled_ || !schedule_) return;
  retry_scheduled_ = true;
  schedule_(retry_delay_, [this] { retry_journals(); });
}

void EventHub::retry_journals() {
  retry_scheduled_ = false;
  bool all_written = true;
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    Board& b = boards_[i];
    if (!b.journal || !b.journal->waiting()) continue;
    if (b.journal->retry()) {
      journal_recovered(i);
    } else {
      all_written = false;
      // The same text each time, so the log holds it once with a count (log.h).
      log_.warning("board " + board_id(i) + ": journal " + b.journal->path() +
                   ": still cannot write: " + b.journal->write_error());
    }
  }
  if (!all_written) {
    retry_delay_ = std::min(retry_delay_ * 2, kMaxRetry);
    schedule_retry();
    return;
  }
  retry_delay_ = kFirstRetry;
  if (always_journal_waiting()) return;
  // kAlways: the batches that waited are synced now, then delivered in order.
  std::uint64_t last_id = 0;
  for (Batch& batch : in_flight_) {
    if (!batch.waits_for_journal) continue;
    batch.waits_for_journal = false;
    last_id = batch.id;
  }
  if (last_id == 0) return;
  std::vector<int> fds;
  for (Board& b : boards_) {
    if (!b.journal) continue;
    if (const int fd = b.journal->claim_sync(true); fd >= 0) fds.push_back(fd);
  }
  if (!worker_) {
    synced(last_id);
    return;
  }
  worker_->submit(std::move(fds), [this, last_id] { post_([this, last_id] { synced(last_id); }); });
}

void EventHub::journal_recovered(std::size_t board) {
  Board& b = boards_[board];
  const std::uint32_t first = stalled_from_[board];
  const std::uint32_t records = b.journal->last_seq() - first + 1;
  stalled_from_[board] = 0;
  log_.info("board " + board_id(board) + ": journal " + b.journal->path() + ": written again; " +
            std::to_string(records) + " record(s) that waited from seq " + std::to_string(first) +
            " are on the disk");
  if (b.reservation) {
    b.reservation->trusted = true;
    write_reservation_async(board);
  }
  publish(board, storage_event(*b.journal, v1::STORAGE_STATE_OK, first, records));
}

void EventHub::write_reservation_async(std::size_t board) {
  Board::Reservation& r = *boards_[board].reservation;
  const SeqReservation record{r.requested, r.trusted ? r.boot_id : "", false};
  if (!worker_) {
    reservation_written(board, record.reserved, write_reservation(r.path, record));
    return;
  }
  worker_->submit({}, [this, board, path = r.path, record] {
    auto error = write_reservation(path, record);
    post_([this, board, record, error] { reservation_written(board, record.reserved, error); });
  });
}

}  // namespace eboard::daemon
