#include "simulators/emulator/run_emulator.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <deque>
#include <iostream>

#include "simulators/script/script_writer.h"

namespace eboard::sim {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct Chunk {
  Message bytes;
  Clock::time_point due;
};

int signal_fd() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  return signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
}

Clock::duration wall(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

class Runner {
 public:
  Runner(const RunOptions& o, BoardEmulator& board, EmulatorLink& link,
         const std::vector<script::Statement>& timed)
      : o_(o), board_(board), link_(link), timed_(timed), faults_(o.faults) {}
  int run();

 private:
  void enqueue(const Messages& messages, Clock::time_point due) {
    for (const auto& m : messages) {
      if (m.empty()) continue;
      queue_.push_back(
          Chunk{board_.one_message_each() ? faults_.apply_one(m) : faults_.apply(m), due});
    }
  }
  // FIONREAD on the slave lags a write by the kernel's flip-buffer work, so "the host has
  // read everything" also needs a moment since our last write.
  bool drained(Clock::time_point now, milliseconds settle) const {
    return queue_.empty() && link_.unread_by_host() == 0 && now - last_write_ >= settle;
  }
  bool play(Clock::time_point now, script::Millis script_now);
  void unplug(Clock::time_point now);
  milliseconds timeout(Clock::time_point now, script::Millis script_now) const;
  void write_due();

  const RunOptions& o_;
  BoardEmulator& board_;
  EmulatorLink& link_;
  const std::vector<script::Statement>& timed_;
  FaultInjector faults_;
  std::deque<Chunk> queue_;
  std::size_t next_ = 0;
  std::optional<Clock::time_point> start_;
  bool hung_ = false;
  Clock::time_point hung_until_{};
  bool hangup_done_ = false;
  // When the unplug became due: the host gets a bounded moment to take in what was sent
  // (measured from here, not from the last write, which a ticking clock keeps renewing).
  std::optional<Clock::time_point> hangup_due_since_;
  std::optional<Clock::time_point> finished_;
  Clock::time_point last_write_{};
};

// Plays the statements that are due; false when it must wait.
bool Runner::play(Clock::time_point now, script::Millis script_now) {
  while (start_ && !hung_ && next_ < timed_.size()) {
    const script::Statement& s = timed_[next_];
    const bool due = o_.speed > 0 ? script_now >= *s.at
                                  : board_.host_has_board() && drained(now, milliseconds(2));
    if (!due) return false;
    if (o_.hangup_at && !hangup_done_ && *s.at >= *o_.hangup_at) {
      if (!hangup_due_since_) hangup_due_since_ = now;
      if (!drained(now, milliseconds(100)) && now - *hangup_due_since_ < milliseconds(1000)) {
        return false;
      }
      unplug(now);
      return false;
    }
    if (o_.verbose) std::cerr << "play " << script::format_statement(s) << "\n";
    enqueue(board_.apply(s), now);
    ++next_;
    if (o_.speed == 0) return true;  // one statement per drained line
  }
  return true;
}

// Unplugged: the game goes on, nobody hears it (the board is reset on return).
void Runner::unplug(Clock::time_point now) {
  hangup_done_ = true;
  link_.hang_up();
  link_.remove_link();
  queue_.clear();
  board_.power_cycle();
  const auto back = *o_.hangup_at + std::chrono::duration_cast<script::Millis>(
                                        std::chrono::duration<double>(o_.hangup_seconds));
  while (next_ < timed_.size() && *timed_[next_].at < back) board_.apply(timed_[next_++]);
  hung_ = true;
  hung_until_ = now + wall(o_.speed > 0 ? o_.hangup_seconds / o_.speed : o_.hangup_seconds);
  std::cerr << o_.name << ": unplugged at " << script::format_seconds(*o_.hangup_at) << "\n";
}

milliseconds Runner::timeout(Clock::time_point now, script::Millis script_now) const {
  milliseconds timeout(200);
  const auto at_most = [&](Clock::duration d) {
    timeout = std::min(timeout, std::max(milliseconds(0), std::chrono::ceil<milliseconds>(d)));
  };
  if (hung_) at_most(hung_until_ - now);
  if (!queue_.empty()) at_most(queue_.front().due - now);
  if (o_.split || o_.speed == 0 || hangup_due_since_) at_most(milliseconds(2));
  if (start_ && o_.speed > 0 && next_ < timed_.size()) {
    at_most(wall((*timed_[next_].at - script_now).count() / 1000.0 / o_.speed));
  }
  if (o_.speed > 0) at_most(milliseconds(50));  // clock displays tick, boards stream
  return timeout;
}

void Runner::write_due() {
  while (!queue_.empty() && queue_.front().due <= Clock::now()) {
    Message& bytes = queue_.front().bytes;
    const bool split = o_.split && !link_.packets();
    if (split && link_.unread_by_host() > 0) break;
    const std::size_t count = split ? 1 : bytes.size();
    const ssize_t n = write(link_.data_fd(), bytes.data(), count);
    if (n <= 0) break;
    last_write_ = Clock::now();
    if (link_.packets()) {
      queue_.pop_front();  // a packet goes whole or not at all
    } else {
      bytes.erase(bytes.begin(), bytes.begin() + n);
      if (bytes.empty()) queue_.pop_front();
    }
    if (split) break;
  }
}

int Runner::run() {
  const int signals = signal_fd();
  for (;;) {
    const auto now = Clock::now();
    if (hung_ && now >= hung_until_) {
      hung_ = false;
      if (auto opened = link_.open(); std::holds_alternative<PtyError>(opened)) {
        std::cerr << o_.name << ": " << std::get<PtyError>(opened).message << "\n";
        return 1;
      }
      board_.power_cycle();
      std::cerr << o_.name << ": plugged in again: " << link_.describe() << "\n";
    }
    if (!start_ && board_.host_active()) start_ = now;
    const script::Millis script_now =
        start_ ? std::chrono::duration_cast<script::Millis>((now - *start_) * o_.speed)
               : script::Millis(0);
    play(now, script_now);
    if (start_ && o_.speed > 0 && !hung_ && link_.is_open())
      enqueue(board_.advance(script_now), now);
    if (next_ == timed_.size() && !finished_) {
      finished_ = now;
      std::cerr << o_.name << ": script finished\n";
    }
    if (finished_ && o_.linger_seconds && queue_.empty() &&
        now - *finished_ >= wall(*o_.linger_seconds)) {
      return 0;
    }
    pollfd fds[3] = {
        {signals, POLLIN, 0}, {link_.data_fd(), POLLIN, 0}, {link_.accept_fd(), POLLIN, 0}};
    const bool ready = !queue_.empty() && queue_.front().due <= now;
    if (ready && link_.is_open()) fds[1].events |= POLLOUT;
    if (!link_.is_open()) fds[1].fd = -1;
    if (poll(fds, 3, static_cast<int>(timeout(now, script_now).count())) < 0 && errno != EINTR) {
      return 1;
    }
    if (fds[0].revents & POLLIN) return 0;  // SIGINT / SIGTERM: the link goes with it
    if (fds[2].revents & POLLIN) link_.accept();
    if (!link_.is_open()) continue;
    if (fds[1].revents & (POLLHUP | POLLERR) && link_.packets()) {
      link_.host_left();  // the host closed the device: wait for it to open it again
      board_.power_cycle();
      queue_.clear();
      continue;
    }
    if (fds[1].revents & POLLIN) {
      std::uint8_t buffer[512];
      const ssize_t n = read(link_.data_fd(), buffer, sizeof buffer);
      if (n > 0) {
        enqueue(board_.on_host_bytes(std::span(buffer, static_cast<std::size_t>(n))),
                Clock::now() + o_.delay);
        if (o_.after_host_bytes) o_.after_host_bytes();
      }
    }
    write_due();
  }
}

}  // namespace

int run_emulator(const RunOptions& options, BoardEmulator& board, EmulatorLink& link,
                 const std::vector<script::Statement>& timed) {
  Runner runner(options, board, link, timed);
  return runner.run();
}

}  // namespace eboard::sim
