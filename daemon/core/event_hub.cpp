#include "daemon/core/event_hub.h"

#include <unistd.h>

#include <algorithm>

#include "util/varint.h"

namespace eboard::daemon {
namespace {

// Frame.event is field 3, length-delimited: tag (3 << 3) | 2.
constexpr char kFrameEventTag = 0x1A;

}  // namespace

std::string frame_from_event_bytes(std::string_view event_bytes) {
  const std::size_t inner = 1 + varint_size(event_bytes.size()) + event_bytes.size();
  std::string out;
  out.reserve(inner + varint_size(inner));
  append_varint(out, inner);
  out.push_back(kFrameEventTag);
  append_varint(out, event_bytes.size());
  out.append(event_bytes);
  return out;
}

std::string_view event_bytes_of_frame(std::string_view frame) {
  const VarintRead inner = read_varint(frame);
  if (inner.status != VarintStatus::kComplete || inner.value != frame.size() - inner.bytes) {
    return {};
  }
  frame.remove_prefix(inner.bytes);
  if (frame.empty() || frame.front() != kFrameEventTag) return {};
  frame.remove_prefix(1);
  const VarintRead length = read_varint(frame);
  if (length.status != VarintStatus::kComplete || length.value != frame.size() - length.bytes) {
    return {};
  }
  return frame.substr(length.bytes);
}

EventHub::EventHub(const std::vector<std::string>& board_ids, Logger& log) : log_(log) {
  boards_.reserve(board_ids.size());
  for (const auto& id : board_ids) boards_.emplace_back(id);
  stalled_from_.assign(board_ids.size(), 0);
}

void EventHub::attach_journal(std::size_t board, Journal journal, const BoardState& recovered) {
  Board& b = boards_[board];
  b.last_seq = journal.last_seq();
  b.journal.emplace(std::move(journal));
  b.journal->defer_sync(static_cast<bool>(post_));
  b.state = recovered;
}

std::uint32_t EventHub::publish(std::size_t board, eboard::v1::Event event) {
  Board& b = boards_[board];
  event.set_seq(++b.last_seq);
  event.set_board_id(b.state.snapshot().board_id());
  scratch_.clear();
  event.SerializeToString(&scratch_);
  bool stalled = false;
  if (b.journal) {
    const auto jump = event.has_seqs_lost() ? Journal::SeqJump::kSeqsLost : Journal::SeqJump::kNone;
    const bool was_waiting = b.journal->waiting();
    if (auto error = b.journal->append(event.seq(), scratch_, jump)) {
      log_.error("board " + event.board_id() + ": journal: " + error->message);
    }
    stalled = !was_waiting && b.journal->waiting();
  }
  b.state.apply(event);
  auto frame = std::make_shared<const std::string>(frame_from_event_bytes(scratch_));
  const std::uint32_t seq = event.seq();
  const bool waits = b.reservation && reserve_ahead(board, seq);
  if (!post_) {
    deliver(board, event, frame);
  } else {
    pending_.events.push_back(Pending{board, std::move(event), std::move(frame)});
    pending_.waits_for_reservation = pending_.waits_for_reservation || waits;
    if (!flush_scheduled_) {
      flush_scheduled_ = true;
      post_([this] { flush(); });
    }
  }
  // After the event is in its batch: the storageStatus event follows it.
  if (stalled) journal_stalled(board);
  return seq;
}

void EventHub::set_group_commit(Post post) {
  post_ = std::move(post);
  if (post_ && !worker_) worker_ = std::make_unique<SyncWorker>();
  for (Board& b : boards_) {
    if (b.journal) b.journal->defer_sync(static_cast<bool>(post_));
  }
}

void EventHub::when_published(std::function<void()> then) {
  if (!pending_.events.empty()) {
    pending_.then.push_back(std::move(then));
  } else if (!in_flight_.empty()) {
    in_flight_.back().then.push_back(std::move(then));
  } else {
    then();
  }
}

void EventHub::flush() {
  flush_scheduled_ = false;
  std::vector<int> fds;        // synced before the batch is delivered (kAlways)
  std::vector<int> after_fds;  // synced right after it (kAfterPublish)
  for (Board& b : boards_) {
    if (!b.journal) continue;
    if (const int fd = b.journal->claim_sync(true); fd >= 0) {
      (b.journal->policy() == FsyncPolicy::kAfterPublish ? after_fds : fds).push_back(fd);
    }
  }
  Batch batch;
  std::swap(batch, pending_);
  batch.id = next_batch_id_++;
  const bool journal_waits = always_journal_waiting();
  if (!journal_waits && fds.empty() && !batch.waits_for_reservation && in_flight_.empty()) {
    deliver(batch);
    if (!after_fds.empty()) worker_->submit(std::move(after_fds), nullptr);
    extend_journals_when_calm();
    return;
  }
  // Even a batch without a sync of its own waits for the ones before it (seq order). One
  // waiting for a reservation is behind that write in the worker's queue (reserve_ahead
  // submitted it before this), so its completion means the reservation is on the disk.
  fds.insert(fds.end(), after_fds.begin(), after_fds.end());
  const std::uint64_t id = batch.id;
  batch.waits_for_journal = journal_waits;
  in_flight_.push_back(std::move(batch));
  if (journal_waits) {
    // Synced and released by retry_journals() once its records are written.
    if (!fds.empty()) worker_->submit(std::move(fds), nullptr);
    return;
  }
  worker_->submit(std::move(fds), [this, id] { post_([this, id] { synced(id); }); });
}

void EventHub::synced(std::uint64_t last_id) {
  for (Batch& batch : in_flight_) {
    if (batch.id <= last_id && !batch.waits_for_journal) batch.synced = true;
  }
  deliver_ready();
}

void EventHub::deliver_ready() {
  bool delivered = false;
  while (!in_flight_.empty() && in_flight_.front().synced) {
    Batch batch = std::move(in_flight_.front());
    in_flight_.pop_front();
    deliver(batch);
    delivered = true;
  }
  if (delivered) extend_journals_when_calm();
}

Result<SeqStart> EventHub::start_numbering(std::size_t board, const std::string& boot_id,
                                           Reserve reserve) {
  Board& b = boards_[board];
  if (!b.journal) return Error{"board " + board_id(board) + ": numbering without a journal"};
  const bool reserves = reserve == Reserve::kAhead;
  const std::string path = reservation_path(b.journal->path());
  const ReservationRead read = reserves ? read_reservation(path) : ReservationRead{};
  SeqStart start = decide_seq_start(b.last_seq, b.journal->damage().tail_bound, read, boot_id);
  if (reserves) {
    // Covers the seqsLost event too; on the disk before anything is published.
    const SeqReservation first{start.next_seq + kReserveAhead, boot_id, false};
    if (auto error = write_reservation(path, first)) return *error;
    b.reservation = Board::Reservation{path, boot_id, first.reserved, first.reserved};
  }
  b.last_seq = start.next_seq - 1;
  if (start.lost) {
    eboard::v1::Event gap;
    // Public: a broadcast consumer resuming from a lost seq must see why it is missing.
    gap.set_visibility(eboard::v1::VISIBILITY_PUBLIC);
    gap.set_game_id(b.state.snapshot().game_id());
    gap.set_rules(b.state.snapshot().rules());
    auto* lost = gap.mutable_seqs_lost();
    lost->set_first_seq(start.lost->first);
    lost->set_last_seq(start.lost->second);
    lost->set_reason(start.reason);
    publish(board, std::move(gap));
  }
  return start;
}

bool EventHub::reserve_ahead(std::size_t board, std::uint32_t seq) {
  Board::Reservation& r = *boards_[board].reservation;
  if (seq + kRaiseMargin > r.requested) {
    r.requested = seq + kReserveAhead;
    write_reservation_async(board);
  }
  if (seq <= r.durable) return false;
  ++reservation_waits_;
  return true;
}

void EventHub::reservation_written(std::size_t board, std::uint32_t reserved,
                                   const std::optional<Error>& error) {
  Board::Reservation& r = *boards_[board].reservation;
  if (error) {
    // Events above the durable reservation still go out once their batch's sync is done
    // (as under kAlways with a failed sync); the next publish asks again.
    log_.error("board " + board_id(board) + ": seq reservation: " + error->message);
    if (r.requested == reserved) r.requested = r.durable;
    return;
  }
  r.durable = std::max(r.durable, reserved);
}

void EventHub::close() {
  worker_.reset();  // finishes the queued syncs and reservation writes
  post_ = nullptr;
  bool all_synced = true;
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    Board& b = boards_[i];
    if (!b.journal) continue;
    // A last try for records that waited for the disk; those it cannot write are lost,
    // and the reservation is not marked clean, so their seqs are never given again.
    if (b.journal->waiting() && !b.journal->retry()) {
      log_.error("board " + board_id(i) + ": journal " + b.journal->path() + ": " +
                 std::to_string(b.journal->waiting_records()) +
                 " record(s) could not be written before the stop (" + b.journal->write_error() +
                 "), from seq " + std::to_string(b.journal->first_waiting_seq()));
    }
    b.journal->defer_sync(false);
    if (const int fd = b.journal->claim_sync(false); fd >= 0)
      all_synced = ::fdatasync(fd) == 0 && all_synced;
  }
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    Board& b = boards_[i];
    if (!b.reservation || !all_synced || b.journal->waiting()) continue;
    if (auto error = write_reservation(b.reservation->path,
                                       SeqReservation{b.last_seq, b.reservation->boot_id, true})) {
      log_.error("board " + board_id(i) + ": clean-close mark: " + error->message);
    }
  }
}

// A journal's zero tail (journal.h) is extended, and that extension synced, only when no
// batch is waiting for the worker: the events just published are out, and the next one
// (a board's next field update, a second's clock event) is typically milliseconds away,
// longer than the extension's sync. The worker serves requests in order, so an extension
// queued while a batch waits would sit in front of that batch's sync (and of its
// moveCompleted); queued now, it is usually done before the next batch arrives. It comes
// once every kPreallocBytes - kExtendBelowBytes of records (thousands of events).
void EventHub::extend_journals_when_calm() {
  if (!in_flight_.empty() || !pending_.events.empty()) return;
  std::vector<int> fds;
  for (Board& b : boards_) {
    if (!b.journal || !b.journal->wants_extension()) continue;
    const int fd = b.journal->extend();
    if (fd >= 0 && b.journal->policy() != FsyncPolicy::kNever) fds.push_back(fd);
  }
  if (!fds.empty()) worker_->submit(std::move(fds), nullptr);
}

void EventHub::deliver(Batch& batch) {
  for (const Pending& p : batch.events) deliver(p.board, p.event, p.frame);
  for (auto& then : batch.then) then();
}

void EventHub::deliver(std::size_t board, const eboard::v1::Event& event,
                       const SharedBytes& frame) {
  // A listener may remove itself (a slow consumer) while being called: iterate a copy.
  const std::vector<EventListener*> listeners = listeners_;
  for (EventListener* listener : listeners) {
    if (std::find(listeners_.begin(), listeners_.end(), listener) != listeners_.end()) {
      listener->on_event(board, event, frame);
    }
  }
}

void EventHub::add_listener(EventListener* listener) { listeners_.push_back(listener); }

void EventHub::remove_listener(EventListener* listener) {
  listeners_.erase(std::remove(listeners_.begin(), listeners_.end(), listener), listeners_.end());
}

std::optional<std::size_t> EventHub::find_board(std::string_view id) const {
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    if (boards_[i].state.snapshot().board_id() == id) return i;
  }
  return std::nullopt;
}

std::vector<std::string> EventHub::replay(std::size_t board, std::uint32_t from) const {
  const Board& b = boards_[board];
  if (!b.journal) return {};
  return b.journal->read_range(from, b.last_seq);
}

void EventHub::sync_journals() {
  if (!worker_) {
    for (Board& b : boards_) {
      if (b.journal) b.journal->sync_if_dirty();
    }
    return;
  }
  std::vector<int> fds;
  for (Board& b : boards_) {
    if (!b.journal) continue;
    if (const int fd = b.journal->claim_sync(false); fd >= 0) fds.push_back(fd);
  }
  if (!fds.empty()) worker_->submit(std::move(fds), nullptr);
}

}  // namespace eboard::daemon
