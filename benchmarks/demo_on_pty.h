// Plays the built-in demo game (daemon/core/demo_game.h) on an emulated DGT board held by
// this process (the simulators' PtyLink + DgtEmulator, the code of `eboard-sim dgt`),
// while reading a consumer socket of the daemon under test. For every clock press it
// records when the press's bytes were written to the pty and when the `moveCompleted`
// it causes arrived on the consumer, with that event's seq, so other clients' arrival
// times of the same event (MQTT, WebSocket) can be matched by seq. Shared by
// bench_daemon_latency and bench_broadcast_latency (BENCHMARKS.md).
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <sstream>
#include <vector>

#include "daemon/core/demo_game.h"
#include "eboard/v1/frame.pb.h"
#include "eboard/v1/framing.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/script/script_reader.h"

namespace eboard::bench {

using Clock = std::chrono::steady_clock;

struct PressSample {
  Clock::time_point written;   // the press's bytes went to the pty master
  Clock::time_point received;  // its moveCompleted arrived on the consumer socket
  std::uint32_t seq = 0;       // that moveCompleted's seq
};

// The emulated board with the demo game's clock (5 minutes, as eboardd's demo).
inline sim::DgtEmulator demo_board() {
  sim::DgtEmulatorOptions options;
  options.initial_time = std::chrono::seconds(300);
  sim::DgtEmulator board(options);
  board.set_placement(script::start_placement());
  return board;
}

// Plays the game; `pace_ms` between presses (0: as fast as the daemon answers).
inline std::vector<PressSample> play_demo_on_pty(sim::PtyLink& link, sim::DgtEmulator& board, int consumer,
                                                 int pace_ms) {
  using namespace std::chrono_literals;
  const auto script_text = daemon::demo_script();
  std::istringstream script_in(script_text.value());
  const auto script = script::read_script(script_in, "demo");
  proto::FrameReader reader;
  std::uint32_t moved_seq = 0;
  // Serves the host's commands and reads the consumer; true when a moveCompleted came.
  const auto pump = [&](std::chrono::milliseconds wait, bool want_move) -> bool {
    const auto end = Clock::now() + wait;
    for (;;) {
      pollfd fds[2] = {{link.master_fd(), POLLIN, 0}, {consumer, POLLIN, 0}};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
      ::poll(fds, 2, static_cast<int>(std::max<long>(0, left.count())));
      if (fds[0].revents & POLLIN) {
        std::uint8_t buffer[512];
        const ssize_t n = ::read(link.master_fd(), buffer, sizeof buffer);
        if (n > 0) {
          const auto reply = board.on_host_bytes(std::span(buffer, static_cast<std::size_t>(n)));
          if (!reply.empty()) (void)!::write(link.master_fd(), reply.data(), reply.size());
        }
      }
      if (fds[1].revents & POLLIN) {
        char buffer[65536];
        const ssize_t n = ::recv(consumer, buffer, sizeof buffer, 0);
        if (n <= 0) return false;
        reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
        eboard::v1::Frame frame;
        bool moved = false;
        while (reader.next(frame).value() == proto::ReadStatus::kMessage) {
          if (frame.has_event() && frame.event().has_move_completed()) {
            moved = true;
            moved_seq = frame.event().seq();
          }
        }
        if (moved && want_move) return true;
      }
      if (Clock::now() >= end) return false;
    }
  };
  const auto start = Clock::now();
  while (!board.host_has_board() && Clock::now() - start < 10s) pump(50ms, false);
  pump(300ms, false);
  std::vector<PressSample> samples;
  for (const auto& s : script.statements) {
    if (!s.at || !script::is_sensor(s.body)) continue;
    const auto bytes = board.apply(s);
    const bool press = std::holds_alternative<script::Lever>(s.body);
    if (press) pump(std::chrono::milliseconds(pace_ms), false);
    const auto t0 = Clock::now();
    if (!bytes.empty()) (void)!::write(link.master_fd(), bytes.data(), bytes.size());
    if (press) {
      if (pump(1000ms, true)) samples.push_back({t0, Clock::now(), moved_seq});
    } else {
      pump(2ms, false);
    }
  }
  return samples;
}

inline double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace eboard::bench
