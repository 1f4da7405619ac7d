// bench_relay's emulated boards (benchmarks/relay_bench.cpp): each board's DGT emulator on
// its own pty, all of them played by one thread that owns every master fd.
#pragma once

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/proc_stats.h"
#include "drivers/dgt/dgt_protocol.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/script/script_reader.h"

namespace eboard::bench {

using Clock = std::chrono::steady_clock;

// One emulated board: its pty, its script's sensor statements, and when each press went out.
struct RelayBoard {
  std::string id;    // "bMM"
  std::string node;  // "nNN"
  std::unique_ptr<sim::PtyLink> link;
  std::unique_ptr<sim::DgtEmulator> emulator;
  std::vector<script::Statement> timed;
  std::size_t next = 0;
  // How long after its daemon has the board its script starts: players at an event do not
  // press in the same millisecond (bench_relay --stagger).
  Clock::duration start_delay{};
  std::optional<Clock::time_point> start;
  std::vector<Clock::time_point> presses;  // press n-1 completes ply n
  // When the daemon asked for the clock's state (DGT_SEND_CLK, which it does to confirm a
  // press, clock_gate.h) first after each press; a default time point when it did not.
  std::vector<Clock::time_point> asked;
  std::string pending;  // bytes not yet taken by the pty
  std::string key() const { return node + "/" + id; }
};

// What the playing thread did: its CPU time and how many times it went round its loop.
struct PlayStats {
  double cpu_seconds = 0;
  std::uint64_t passes = 0;
  std::vector<double> pass_work_ms;  // each pass' time outside poll()
};

// Applies every statement that is due (script time = time since the board's start x
// speed) and the clock's running down; true when the board's script is played.
inline bool advance(RelayBoard& b, Clock::time_point now, double speed) {
  if (!b.start && b.emulator->host_has_board()) b.start = now + b.start_delay;
  if (!b.start || now < *b.start) return false;
  const auto script_now = std::chrono::duration_cast<script::Millis>((now - *b.start) * speed);
  while (b.next < b.timed.size() && *b.timed[b.next].at <= script_now) {
    const script::Statement& s = b.timed[b.next++];
    const auto bytes = b.emulator->apply(s);
    b.pending.append(bytes.begin(), bytes.end());
    if (std::holds_alternative<script::Lever>(s.body)) b.presses.push_back(Clock::now());
  }
  const auto tick = b.emulator->advance_clock(script_now);
  b.pending.append(tick.begin(), tick.end());
  return b.next == b.timed.size();
}

// Reads what the daemon sent the board (and answers it); writes what is pending.
inline void exchange(RelayBoard& b, short revents) {
  if (revents & POLLIN) {
    std::uint8_t buffer[512];
    const ssize_t n = ::read(b.link->master_fd(), buffer, sizeof buffer);
    if (n > 0) {
      // A 0x41 inside a longer command would count too (clock commands, which these daemons
      // are not asked to send).
      if (std::memchr(buffer, drivers::dgt::kSendClock, static_cast<std::size_t>(n)) != nullptr &&
          b.asked.size() < b.presses.size()) {
        b.asked.resize(b.presses.size() - 1);
        b.asked.push_back(Clock::now());
      }
      const auto reply = b.emulator->on_host_bytes(std::span(buffer, static_cast<std::size_t>(n)));
      b.pending.append(reply.begin(), reply.end());
    }
  }
  if (!b.pending.empty()) {
    const ssize_t n = ::write(b.link->master_fd(), b.pending.data(), b.pending.size());
    if (n > 0) b.pending.erase(0, static_cast<std::size_t>(n));
  }
}

// Plays every board's script on its pty, answering the daemons' commands, until `stop`;
// the one thread owning every master fd. When every script is played and its last bytes
// are written it says so through `played` (and `played_at`, and the stats up to then), and
// goes on answering: a daemon may still ask the board something about the last press
// (a board that stopped answering then would lose the game's last move).
inline PlayStats play(std::vector<RelayBoard>& boards, double speed, const std::atomic<bool>& stop,
                      std::atomic<bool>& played, Clock::time_point& played_at) {
  PlayStats stats;
  std::vector<pollfd> fds(boards.size());
  for (; !stop; ++stats.passes) {
    const auto now = Clock::now();
    bool all_done = true;
    for (RelayBoard& b : boards) all_done = advance(b, now, speed) && b.pending.empty() && all_done;
    if (all_done && !played) {
      stats.cpu_seconds = thread_cpu_seconds();
      played_at = now;
      played = true;
    }
    for (std::size_t i = 0; i < boards.size(); ++i) {
      fds[i] = {boards[i].link->master_fd(),
                static_cast<short>(POLLIN | (boards[i].pending.empty() ? 0 : POLLOUT)), 0};
    }
    const auto before_poll = Clock::now();
    ::poll(fds.data(), fds.size(), 5);
    const auto after_poll = Clock::now();
    for (std::size_t i = 0; i < boards.size(); ++i) exchange(boards[i], fds[i].revents);
    if (!played) {
      stats.pass_work_ms.push_back(
          std::chrono::duration<double, std::milli>(before_poll - now + Clock::now() - after_poll)
              .count());
    }
  }
  if (!played) stats.cpu_seconds = thread_cpu_seconds();
  return stats;
}

}  // namespace eboard::bench
