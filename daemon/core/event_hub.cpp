#include "daemon/core/event_hub.h"

#include <algorithm>
#include <iostream>

namespace eboard::daemon {
namespace {

void put_varint(std::string& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

std::size_t varint_size(std::uint64_t value) {
  std::size_t size = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++size;
  }
  return size;
}

// Frame.event is field 3, length-delimited: tag (3 << 3) | 2.
constexpr char kFrameEventTag = 0x1A;

}  // namespace

std::string frame_from_event_bytes(std::string_view event_bytes) {
  const std::size_t inner = 1 + varint_size(event_bytes.size()) + event_bytes.size();
  std::string out;
  out.reserve(inner + varint_size(inner));
  put_varint(out, inner);
  out.push_back(kFrameEventTag);
  put_varint(out, event_bytes.size());
  out.append(event_bytes);
  return out;
}

EventHub::EventHub(const std::vector<std::string>& board_ids) {
  boards_.reserve(board_ids.size());
  for (const auto& id : board_ids) boards_.emplace_back(id);
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
  if (b.journal) {
    if (auto error = b.journal->append(event.seq(), scratch_)) {
      std::cerr << "<3>eboardd: board " << event.board_id() << ": journal: " << error->message
                << "\n";
    }
  }
  b.state.apply(event);
  auto frame = std::make_shared<const std::string>(frame_from_event_bytes(scratch_));
  const std::uint32_t seq = event.seq();
  if (!post_) {
    deliver(board, event, frame);
    return seq;
  }
  pending_.events.push_back(Pending{board, std::move(event), std::move(frame)});
  if (!flush_scheduled_) {
    flush_scheduled_ = true;
    post_([this] { flush(); });
  }
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
  std::vector<int> fds;
  for (Board& b : boards_) {
    if (!b.journal) continue;
    if (const int fd = b.journal->claim_sync(true); fd >= 0) fds.push_back(fd);
  }
  Batch batch;
  std::swap(batch, pending_);
  if (fds.empty() && in_flight_.empty()) {
    deliver(batch);
    extend_journals_when_calm();
    return;
  }
  // Even a batch without a sync of its own waits for the ones before it (seq order).
  in_flight_.push_back(std::move(batch));
  worker_->submit(std::move(fds), [this] { post_([this] { complete_front(); }); });
}

void EventHub::complete_front() {
  Batch batch = std::move(in_flight_.front());
  in_flight_.pop_front();
  deliver(batch);
  extend_journals_when_calm();
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

void EventHub::deliver(std::size_t board, const eboard::v1::Event& event, const SharedBytes& frame) {
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
