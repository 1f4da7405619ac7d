// Plays the built-in demo game (daemon/core/demo_game.h) on an emulated DGT board held by
// this process (the simulators' PtyLink + DgtEmulator, the code of `eboard-sim dgt`),
// while reading a consumer socket of the daemon under test. For every clock press it
// records when the press's bytes were written to the pty and when the `moveCompleted`
// it causes arrived on the consumer, with that event's seq, so other clients' arrival
// times of the same event (MQTT, WebSocket) can be matched by seq. Shared by
// bench_daemon_latency and bench_broadcast_latency (BENCHMARKS.md).
//
// `games` > 1 plays the same game again: after each game the board is set back to the
// start placement and a NewGame command goes over the consumer socket (so the socket
// must be one that allows control: eboardd's Unix socket); its ack is awaited before the
// next game's first move.
#pragma once

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
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
inline constexpr std::chrono::milliseconds kDemoClockTime = std::chrono::seconds(300);
inline sim::DgtEmulator demo_board() {
  sim::DgtEmulatorOptions options;
  options.initial_time = kDemoClockTime;
  sim::DgtEmulator board(options);
  board.set_placement(script::start_placement());
  return board;
}

// Plays the game `games` times; `pace_ms` between presses (0: as fast as the daemon
// answers). `board_id` names the board for the NewGame commands.
inline std::vector<PressSample> play_demo_on_pty(sim::PtyLink& link, sim::DgtEmulator& board,
                                                 int consumer, int pace_ms, int games = 1,
                                                 const std::string& board_id = "b1") {
  using namespace std::chrono_literals;
  const auto script_text = daemon::demo_script();
  std::istringstream script_in(script_text.value());
  const auto script = script::read_script(script_in, "demo");
  proto::FrameReader reader;
  std::uint32_t moved_seq = 0;
  bool acked = false;
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
          if (frame.has_ack() && frame.ack().command_id() != 0) acked = true;
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
  // Later games run on the emulator's time line after the earlier ones; its clock levers
  // only toggle, so when a game's last press is by the side that presses first (an odd
  // number of plies), the other side presses once between the games.
  std::optional<script::Side> first_press;
  std::optional<script::Side> last_press;
  script::Millis game_length{0};
  const script::Millis initial_time = kDemoClockTime;
  for (const auto& s : script.statements) {
    if (s.at) game_length = std::max(game_length, *s.at + script::Millis(10000));
    if (const auto* lever = std::get_if<script::Lever>(&s.body)) {
      if (!first_press) first_press = lever->side;
      last_press = lever->side;
    }
  }
  const auto send = [&](script::Statement s, int game) {
    s.at = *s.at + game * game_length;
    const auto bytes = board.apply(s);
    if (!bytes.empty()) (void)!::write(link.master_fd(), bytes.data(), bytes.size());
  };
  std::vector<PressSample> samples;
  for (int game = 0; game < games; ++game) {
    if (game > 0) {
      if (first_press && first_press == last_press) {
        const auto other =
            *first_press == script::Side::kWhite ? script::Side::kBlack : script::Side::kWhite;
        send(script::Statement{0, script::Millis(game_length - script::Millis(5000)),
                               script::Lever{other}},
             game - 1);
        pump(50ms, false);
      }
      // The clock set back to the demo's 5 minutes (no flag falls in a later game) and the
      // pieces back to the start (the script's first statement), then a new game.
      send(script::Statement{0, script::Millis(0),
                             script::ClockTime{initial_time, initial_time, {}, {}}},
           game);
      pump(20ms, false);
      for (const auto& s : script.statements) {
        if (!s.at || !std::holds_alternative<script::Placement>(s.body)) continue;
        send(s, game);
        break;
      }
      pump(50ms, false);
      eboard::v1::Frame command;
      command.mutable_command()->set_command_id(static_cast<std::uint32_t>(game));
      command.mutable_command()->set_board_id(board_id);
      command.mutable_command()->mutable_new_game();
      const std::string bytes = proto::encode_delimited(command);
      (void)!::send(consumer, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      acked = false;
      const auto asked = Clock::now();
      while (!acked && Clock::now() - asked < 5s) pump(20ms, false);
      pump(100ms, false);
    }
    int press_index = 0;
    for (const auto& s : script.statements) {
      if (!s.at || !script::is_sensor(s.body)) continue;
      script::Statement timed = s;
      timed.at = *s.at + game * game_length;
      const auto bytes = board.apply(timed);
      const bool press = std::holds_alternative<script::Lever>(s.body);
      if (press) pump(std::chrono::milliseconds(pace_ms), false);
      const auto t0 = Clock::now();
      if (!bytes.empty()) (void)!::write(link.master_fd(), bytes.data(), bytes.size());
      if (press) {
        ++press_index;
        if (pump(1000ms, true)) {
          samples.push_back({t0, Clock::now(), moved_seq});
        } else {
          // Not a sample (there is no arrival time); said, so a run's count shows it.
          std::fprintf(stderr, "game %d, press %d: no moveCompleted within 1 s\n", game + 1,
                       press_index);
        }
      } else {
        pump(2ms, false);
      }
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
