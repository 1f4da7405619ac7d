#include "daemon/core/sync_worker.h"

#include <unistd.h>

namespace eboard::daemon {

SyncWorker::SyncWorker() : thread_([this] { run(); }) {}

SyncWorker::~SyncWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void SyncWorker::submit(std::vector<int> fds, std::function<void()> done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Request{std::move(fds), std::move(done)});
  }
  wake_.notify_one();
}

void SyncWorker::run() {
  for (;;) {
    Request request;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left to sync
      request = std::move(queue_.front());
      queue_.pop_front();
    }
    // A failed sync is not retried: fdatasync reports a lost write once (and Linux drops
    // the dirty pages), so the records' durability is unknown; the events still go out.
    for (const int fd : request.fds) ::fdatasync(fd);
    if (request.done) request.done();
  }
}

}  // namespace eboard::daemon
