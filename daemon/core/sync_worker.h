// The one thread that runs the journals' fdatasync calls, so a disk's sync latency never
// stalls the event loop ("no blocking call on the loop"). The loop writes
// records with write(2) itself (a few hundred bytes into the page cache) and hands the
// worker "sync these files"; the worker syncs them in order and calls `done` on its own
// thread, which posts the completion back to the loop (asio::post is thread-safe).
//
// Requests are served strictly first in, first out, so completions arrive in the order
// the batches were handed over and the hub can publish batches in seq order.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace eboard::daemon {

class SyncWorker {
 public:
  SyncWorker();
  ~SyncWorker();  // finishes the queued requests, then joins
  SyncWorker(const SyncWorker&) = delete;
  SyncWorker& operator=(const SyncWorker&) = delete;

  // fdatasync each of `fds` (open until `done` ran), then call `done` (may be empty) on
  // the worker thread.
  void submit(std::vector<int> fds, std::function<void()> done);

 private:
  struct Request {
    std::vector<int> fds;
    std::function<void()> done;
  };
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Request> queue_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after the members it uses exist
};

}  // namespace eboard::daemon
