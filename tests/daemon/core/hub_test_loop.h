// The event loop of the hub's tests: a thread-safe task queue standing in for asio::post
// + io_context, run by hand, and a listener that records "board:seq" of what it is given.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "daemon/core/event_hub.h"

namespace eboard::daemon::hub_test {

class Loop {
 public:
  void post(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    ready_.notify_one();
  }
  // Runs the tasks queued when called, not those they or the sync worker post meanwhile
  // (so a test can tell "closed the batch" from "the worker finished"); with `wait`,
  // first waits (bounded) until one is queued.
  std::size_t run(bool wait = false) {
    std::deque<std::function<void()>> batch;
    {
      std::unique_lock lock(mutex_);
      if (wait) ready_.wait_for(lock, std::chrono::seconds(10), [this] { return !tasks_.empty(); });
      batch.swap(tasks_);
    }
    for (auto& task : batch) task();
    return batch.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
};

struct Recorder final : EventListener {
  std::vector<std::string> seen;  // "board:seq", and "ack" for callbacks
  void on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes&) override {
    seen.push_back(std::to_string(board) + ":" + std::to_string(event.seq()));
  }
};

}  // namespace eboard::daemon::hub_test
