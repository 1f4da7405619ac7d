#include "daemon/programs/eboardd/print_out.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <utility>

namespace eboard::daemon {
namespace {

constexpr auto kRetry = std::chrono::milliseconds(20);

bool writable(int fd, int wait_ms) {
  pollfd p{fd, POLLOUT, 0};
  return ::poll(&p, 1, wait_ms) == 1 && (p.revents & POLLOUT);
}

}  // namespace

PrintOut::PrintOut(boost::asio::io_context& io, int fd, std::size_t limit_bytes,
                   std::function<void(const std::string&)> warn)
    : fd_(fd), limit_(limit_bytes), warn_(std::move(warn)), retry_(io) {}

void PrintOut::write(const std::string& text) {
  if (failed_) return;
  flush();  // what the reader made room for goes first
  if (queued_bytes() + text.size() > limit_) {
    if (dropped_++ == 0 && warn_)
      warn_("standard output is not read: printed events are dropped until it is");
    ++dropped_total_;
    return;
  }
  pending_ += text;
  flush();
}

PrintOut::~PrintOut() {
  using Steady = std::chrono::steady_clock;
  const auto until = Steady::now() + kDrainLimit;
  while (!failed_ && queued_bytes() > 0 && Steady::now() < until) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Steady::now());
    flush(static_cast<int>(std::max<long long>(1, left.count())));
  }
}

void PrintOut::flush(int wait_ms) {
  while (offset_ < pending_.size() && writable(fd_, wait_ms)) {
    const std::size_t chunk = std::min<std::size_t>(PIPE_BUF, pending_.size() - offset_);
    const ssize_t n = ::write(fd_, pending_.data() + offset_, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {  // EPIPE (SIGPIPE is ignored), EBADF, ENOSPC: nothing more goes there
      failed_ = true;
      pending_.clear();
      offset_ = 0;
      return;
    }
    offset_ += static_cast<std::size_t>(n);
  }
  if (offset_ == pending_.size()) {
    pending_.clear();
    offset_ = 0;
    if (dropped_ > 0 && warn_)
      warn_("standard output is read again: " + std::to_string(dropped_) +
            " printed event(s) were dropped");
    dropped_ = 0;
    return;
  }
  if (offset_ > limit_ / 2) {  // keep the queue's memory to what waits
    pending_.erase(0, offset_);
    offset_ = 0;
  }
  if (wait_ms == 0) arm();
}

void PrintOut::arm() {
  if (armed_) return;
  armed_ = true;
  retry_.expires_after(kRetry);
  retry_.async_wait([this](const boost::system::error_code& error) {
    armed_ = false;
    if (!error) flush();
  });
}

}  // namespace eboard::daemon
