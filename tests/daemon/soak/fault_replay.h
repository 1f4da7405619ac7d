// The fault soak's line, in one process and in virtual time: a corpus game's script on the
// DGT emulator (simulators/dgt/dgt_emulator.h) with the fault injector's damage, read by
// the DGT driver, as `eboard-sim dgt` and eboardd do over a pty, but with the moments the
// two sides read and write chosen by the caller instead of by the scheduler. The soak's
// runs differ from one another in those moments only (its seeds fix the script and the
// faults), so a run it could not repeat is searched for here over the latencies and the
// emulator's wake-up period, and the one found repeats exactly.
// Split writes are modelled too (each emulator write cut into pieces that arrive apart);
// what it does not model: a hang-up and kill -9 restarts (the soak's own).
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "drivers/dgt/dgt_driver.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_set.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/fault_injector.h"
#include "simulators/script/statement.h"

namespace eboard::daemon::soak {

struct LineTiming {
  double speed = 20;            // script time per wall time, as the soak's kSpeed
  int emulator_to_host_ms = 1;  // a write of the emulator until the driver reads it
  int host_to_emulator_ms = 1;  // a write of the driver until the emulator reads it
  int wake_ms = 50;             // the emulator loop's longest sleep (run_emulator.cpp)
  int run_after_ms = 4500;      // wall time after the script's last line (the soak's wait)
  // Up to this much more on each write, drawn from `jitter_seed` (a loaded machine); the
  // order of the bytes on each side is kept.
  int jitter_ms = 0;
  std::uint32_t jitter_seed = 1;
  // Each write of the emulator cut at random places into pieces, each arriving up to this
  // many ms after the one before it (0: writes arrive whole), as a USB-serial adapter
  // hands a message over in several reads; drawn from `jitter_seed` too.
  int split_ms = 0;
};

struct ReplayResult {
  std::vector<drivers::SensorEvent> events;  // what the driver reported, in order
  std::vector<std::int64_t> event_at_ms;     // wall time of each
  std::int64_t started_at_ms = 0;            // when script time began (the host's first command)
  std::int64_t last_line_at_ms = 0;          // when the script's last line was played
  std::uint64_t corrupted = 0;               // clock messages the injector damaged
  // Every read of the driver and every write of it: when and what (for a failure's trace).
  struct Transfer {
    std::int64_t at_ms;
    bool to_host;
    drivers::dgt::Bytes bytes;
  };
  std::vector<Transfer> transfers;
};

// Plays `timed` (the script's timed sensor lines) under `faults` with `timing`.
inline ReplayResult replay_on_line(const std::vector<script::Statement>& timed,
                                   const std::string& rules_name, const std::string& clock,
                                   const sim::FaultOptions& faults, const LineTiming& timing) {
  using std::chrono::milliseconds;
  sim::DgtEmulatorOptions options;
  // As eboard-sim dgt sets the DGT 3000 up (sim_dgt_main.cpp set_clock_up).
  auto rules = engine::rule_set_by_name(rules_name).value();
  auto control = engine::parse_time_control(clock).value();
  options.increment_at_start = rules.increment_credit == engine::IncrementCredit::kStartAndPress;
  options.periods_on_zero =
      engine::effective_trigger(control, rules.period_trigger) == engine::PeriodTrigger::kOnZero;
  auto start = control.periods.front().base;
  if (control.periods.front().adjustment == engine::Adjustment::kFischer &&
      options.increment_at_start)
    start += control.periods.front().adjustment_amount;
  options.initial_time = start;
  options.time_control = control;
  sim::DgtEmulator emulator(options);
  sim::FaultInjector injector(faults);
  drivers::dgt::DgtDriver driver;

  struct InFlight {
    std::int64_t due;
    drivers::dgt::Bytes bytes;
  };
  std::deque<InFlight> to_host, to_emulator;
  std::mt19937 jitter(timing.jitter_seed);
  const auto due = [&](const std::deque<InFlight>& line, std::int64_t now, int latency) {
    std::int64_t when = now + latency;
    if (timing.jitter_ms > 0) when += static_cast<std::int64_t>(jitter() % (timing.jitter_ms + 1));
    return line.empty() ? when : std::max(when, line.back().due);
  };
  ReplayResult result;
  const auto at = [](std::int64_t ms) { return drivers::TimePoint{} + milliseconds(ms); };
  const auto collect = [&](drivers::DecoderOutput& out, std::int64_t now) {
    for (auto& e : out.events) {
      result.events.push_back(std::move(e));
      result.event_at_ms.push_back(now);
    }
    if (!out.to_send.empty()) result.transfers.push_back({now, false, out.to_send});
    if (!out.to_send.empty())
      to_emulator.push_back(
          {due(to_emulator, now, timing.host_to_emulator_ms), std::move(out.to_send)});
  };
  const auto emit = [&](const drivers::dgt::Bytes& bytes, std::int64_t now) {
    if (bytes.empty()) return;
    drivers::dgt::Bytes damaged = injector.apply(bytes);
    std::int64_t when = due(to_host, now, timing.emulator_to_host_ms);
    if (timing.split_ms <= 0 || damaged.size() < 2) {
      to_host.push_back({when, std::move(damaged)});
      return;
    }
    for (std::size_t begin = 0; begin < damaged.size();) {
      const std::size_t piece = 1 + jitter() % (damaged.size() - begin);
      const auto first = damaged.begin() + static_cast<std::ptrdiff_t>(begin);
      to_host.push_back(
          {when, drivers::dgt::Bytes(first, first + static_cast<std::ptrdiff_t>(piece))});
      begin += piece;
      when += static_cast<std::int64_t>(jitter() % (timing.split_ms + 1));
    }
  };
  {
    drivers::DecoderOutput out;
    driver.on_connected(at(0), out);
    collect(out, 0);
  }
  std::optional<std::int64_t> started, finished;
  std::size_t next = 0;
  std::int64_t next_wake = 0;
  for (std::int64_t now = 0;; ++now) {
    if (finished && now > *finished + timing.run_after_ms) break;
    if (now > 4 * 3600 * 1000) break;  // a script that never ends: the caller sees it
    bool woke = now >= next_wake;
    while (!to_emulator.empty() && to_emulator.front().due <= now) {
      emit(emulator.on_host_bytes(to_emulator.front().bytes), now);
      to_emulator.pop_front();
      woke = true;
    }
    if (!started && emulator.host_active()) started = result.started_at_ms = now;
    const auto script_now = script::Millis(
        started ? static_cast<std::int64_t>(static_cast<double>(now - *started) * timing.speed)
                : 0);
    if (started && next < timed.size() && script_now >= *timed[next].at) woke = true;
    if (woke) {
      while (started && next < timed.size() && script_now >= *timed[next].at)
        emit(emulator.apply(timed[next++]), now);
      if (started) emit(emulator.advance_clock(script_now), now);
      if (next == timed.size() && !finished) finished = result.last_line_at_ms = now;
      next_wake = now + timing.wake_ms;
      if (started && next < timed.size()) {
        const auto until = static_cast<std::int64_t>(
            static_cast<double>((*timed[next].at - script_now).count()) / timing.speed);
        next_wake = std::min(next_wake, now + std::max<std::int64_t>(1, until));
      }
    }
    drivers::dgt::Bytes arrived;
    while (!to_host.empty() && to_host.front().due <= now) {
      arrived.insert(arrived.end(), to_host.front().bytes.begin(), to_host.front().bytes.end());
      to_host.pop_front();
    }
    if (!arrived.empty()) {
      result.transfers.push_back({now, true, arrived});
      drivers::DecoderOutput out;
      driver.on_bytes(arrived, at(now), out);
      collect(out, now);
    }
    if (const auto deadline = driver.next_deadline(); deadline && *deadline <= at(now)) {
      drivers::DecoderOutput out;
      driver.on_timer(at(now), out);
      collect(out, now);
    }
  }
  result.corrupted = injector.corrupted_clock_messages();
  return result;
}

}  // namespace eboard::daemon::soak
