// eboardd's standard output for --print, without blocking the event loop.
//
// The problem: --print writes every event to stdout. When stdout is a pipe that nobody
// reads (a supervisor that only keeps stderr, a `| head` that ended, a reader that
// stopped), the pipe fills after 64 KiB and a blocking write stops the one event-loop
// thread: no board is read, no client served, no journal written. The daemon must not
// stop on its own printed output.
//
// So output is queued, up to a bound, and written only when the fd takes it: each write
// is at most PIPE_BUF bytes and only after poll() says the fd is writable (a pipe then has
// a free page, so such a write does not block; a regular file always takes it). What does
// not fit the queue is dropped, whole lines at a time, and counted: a warning when the
// dropping starts, and the count once output flows again. A timer retries while bytes
// wait. What it deliberately does not do: make the fd non-blocking (O_NONBLOCK would
// change the open file description that the parent shell may share, e.g. a terminal).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace eboard::daemon {

inline constexpr std::size_t kPrintQueueBytes = 1 << 20;  // about 3,000 JSON events
inline constexpr std::chrono::milliseconds kDrainLimit{1000};

class PrintOut {
 public:
  // `warn` is told when output starts being dropped and when it flows again.
  PrintOut(boost::asio::io_context& io, int fd, std::size_t limit_bytes,
           std::function<void(const std::string&)> warn);
  // Once the loop has ended: what still waits gets up to kDrainLimit to be written.
  ~PrintOut();
  // Queues `text` (whole lines) and writes what the fd takes now.
  void write(const std::string& text);
  std::uint64_t dropped_writes() const { return dropped_total_; }
  std::size_t queued_bytes() const { return pending_.size() - offset_; }

 private:
  void flush(int wait_ms = 0);
  void arm();

  int fd_;
  std::size_t limit_;
  std::function<void(const std::string&)> warn_;
  boost::asio::steady_timer retry_;
  bool armed_ = false;
  std::string pending_;
  std::size_t offset_ = 0;     // of pending_, written already
  std::uint64_t dropped_ = 0;  // since output last flowed
  std::uint64_t dropped_total_ = 0;
  bool failed_ = false;  // the fd refused a write for good (EPIPE, EBADF)
};

}  // namespace eboard::daemon
