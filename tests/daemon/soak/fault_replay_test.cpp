// The fault soak's line in virtual time (fault_replay.h): every press the script makes is
// reported once by the driver, in its place, and none that it does not make, under
// damaged clock messages and over many timings of the two sides. The soak's runs differ in
// their timing only; here each timing repeats exactly.
//
// The default is the soak's corrupt-clock-3 run of world championship game 33 (seed 1761)
// over 90 timings. EBOARD_REPLAY_GAME=K [EBOARD_REPLAY_LAST_GAME=L] plays games K..L of
// EBOARD_REPLAY_FILE (the same file by default) with the soak's seed for each;
// EBOARD_REPLAY_TIMINGS=N draws N jitter seeds per (wake, jitter) pair (default 10);
// EBOARD_REPLAY_CORRUPT=N and EBOARD_REPLAY_DROP=N change the faults, EBOARD_REPLAY_SPLIT=N
// cuts the first test's writes too (LineTiming::split_ms). EBOARD_REPLAY_WAKE=ms,
// EBOARD_REPLAY_JITTER=ms and EBOARD_REPLAY_SEED=N play only the timings with that wake
// period, jitter or jitter seed, to trace one failure.
#include "tests/daemon/soak/fault_replay.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "simulators/script_gen/script_gen.h"
#include "tests/daemon/soak/fault_soak.h"

namespace eboard::daemon::soak {
namespace {

int env_int(const char* name, int otherwise) {
  const char* text = std::getenv(name);
  return text && *text ? std::atoi(text) : otherwise;
}

std::vector<script::Statement> timed_lines(const CorpusGame& game, std::uint32_t seed) {
  sim::ScriptGenOptions options;
  options.noise = sim::NoiseModel::kHuman;
  options.seed = seed;
  options.rules = kRules;
  options.clock = kClock;
  std::vector<script::Statement> timed;
  for (auto& s : sim::generate_script(game.game, options))
    if (s.at && script::is_sensor(s.body)) timed.push_back(std::move(s));
  return timed;
}

// A press reported this long after its lever was played is a lost one (the gate holds a
// reading for a round trip or a few, and asks again after 300 ms).
constexpr std::int64_t kLateMs = 2000;

struct PressCheck {
  std::size_t levers = 0;              // played after the driver's first reading
  std::vector<std::int64_t> lost;      // wall ms of each lever no press reported
  std::vector<std::int64_t> invented;  // wall ms of each press no lever explains
};

struct Lever {
  std::int64_t at_ms;  // wall time it was played
  drivers::ClockSide side;
};

std::vector<Lever> levers_of(const std::vector<script::Statement>& timed, const ReplayResult& r,
                             double speed) {
  std::vector<Lever> levers;
  for (const auto& s : timed) {
    const auto* lever = std::get_if<script::Lever>(&s.body);
    if (!lever) continue;
    const auto at =
        r.started_at_ms + static_cast<std::int64_t>(static_cast<double>(s.at->count()) / speed);
    levers.push_back({at, lever->side == script::Side::kWhite ? drivers::ClockSide::kLeft
                                                              : drivers::ClockSide::kRight});
  }
  return levers;
}

// The driver's first reading is its reference (clock_gate.h): a lever played before it
// may be no change it can see, so only the levers after it must be reported.
PressCheck check_presses(const std::vector<Lever>& levers, const ReplayResult& r) {
  std::int64_t reference = -1;
  for (std::size_t i = 0; i < r.events.size() && reference < 0; ++i)
    if (std::holds_alternative<drivers::ClockReading>(r.events[i])) reference = r.event_at_ms[i];
  PressCheck check;
  const auto lose = [&](const Lever& l) {
    if (l.at_ms > reference) check.lost.push_back(l.at_ms);
  };
  for (const Lever& l : levers) check.levers += l.at_ms > reference ? 1 : 0;
  std::size_t next = 0;
  for (std::size_t i = 0; i < r.events.size(); ++i) {
    const auto* press = std::get_if<drivers::LeverPressed>(&r.events[i]);
    if (!press) continue;
    const std::int64_t at = r.event_at_ms[i];
    while (next < levers.size() &&
           (at - levers[next].at_ms > kLateMs ||
            (levers[next].at_ms <= reference && levers[next].side != press->side)))
      lose(levers[next++]);
    // A lever lost just before: the press is the next one's.
    if (next + 1 < levers.size() && levers[next].side != press->side &&
        levers[next + 1].at_ms <= at)
      lose(levers[next++]);
    if (next < levers.size() && levers[next].at_ms <= at && levers[next].side == press->side) {
      ++next;
    } else {
      check.invented.push_back(at);
    }
  }
  for (; next < levers.size(); ++next) lose(levers[next]);
  return check;
}

// What the driver read and reported around `at_ms`, for a failure's message.
std::string trace(const ReplayResult& r, const std::vector<Lever>& levers, std::int64_t at_ms) {
  std::string text;
  char line[160];
  for (const Lever& l : levers) {
    if (l.at_ms < at_ms - 300 || l.at_ms > at_ms + 500) continue;
    std::snprintf(line, sizeof line, "\n  %lld lever %s", static_cast<long long>(l.at_ms),
                  l.side == drivers::ClockSide::kLeft ? "left" : "right");
    text += line;
  }
  for (const auto& t : r.transfers) {
    if (t.at_ms < at_ms - 300 || t.at_ms > at_ms + 500) continue;
    std::snprintf(line, sizeof line, "\n  %lld %s", static_cast<long long>(t.at_ms),
                  t.to_host ? "<-" : "->");
    text += line;
    for (auto b : t.bytes) {
      std::snprintf(line, sizeof line, " %02x", b);
      text += line;
    }
  }
  for (std::size_t i = 0; i < r.events.size(); ++i) {
    if (r.event_at_ms[i] < at_ms - 300 || r.event_at_ms[i] > at_ms + 500) continue;
    if (const auto* p = std::get_if<drivers::LeverPressed>(&r.events[i])) {
      std::snprintf(line, sizeof line, "\n  %lld press %s",
                    static_cast<long long>(r.event_at_ms[i]),
                    p->side == drivers::ClockSide::kLeft ? "left" : "right");
      text += line;
    }
  }
  return text;
}

// Plays the chosen games over every timing with `split_ms` (LineTiming) and reports each
// timing that lost or invented a press as a failure.
void replay_games(int split_ms) {
  const int first = env_int("EBOARD_REPLAY_GAME", 33);
  const int last = env_int("EBOARD_REPLAY_LAST_GAME", first);
  const char* file = std::getenv("EBOARD_REPLAY_FILE");
  const auto games = corpus_file(file && *file ? file : "world_championship_matches_1886-2008.pgn");
  const FaultPattern pattern = pattern_named("corrupt-clock-3");
  const int timings = env_int("EBOARD_REPLAY_TIMINGS", 10);
  // One timing only, to trace a failure: EBOARD_REPLAY_WAKE, _JITTER, _SEED (0: all).
  const int only_wake = env_int("EBOARD_REPLAY_WAKE", 0);
  const int only_jitter = env_int("EBOARD_REPLAY_JITTER", 0);
  const int only_seed = env_int("EBOARD_REPLAY_SEED", 0);
  std::size_t runs = 0, failed = 0;
  for (const CorpusGame& game : games) {
    if (game.number < first || game.number > last) continue;
    const std::uint32_t seed = seed_of(game, pattern);  // 1761 for game 33
    const auto timed = timed_lines(game, seed);
    sim::FaultOptions faults;
    faults.corrupt_clock_every = env_int("EBOARD_REPLAY_CORRUPT", 3);
    faults.drop_every = env_int("EBOARD_REPLAY_DROP", 0);
    faults.seed = seed;
    for (int wake : {20, 35, 50}) {
      if (only_wake > 0 && wake != only_wake) continue;
      for (int jitter : {5, 20, 60}) {
        if (only_jitter > 0 && jitter != only_jitter) continue;
        for (int j = 1; j <= timings; ++j) {
          if (only_seed > 0 && j != only_seed) continue;
          LineTiming timing;
          timing.wake_ms = wake;
          timing.jitter_ms = jitter;
          timing.jitter_seed = static_cast<std::uint32_t>(j);
          timing.split_ms = split_ms;
          const ReplayResult r = replay_on_line(timed, kRules, kClock, faults, timing);
          const auto levers = levers_of(timed, r, timing.speed);
          const PressCheck check = check_presses(levers, r);
          ++runs;
          if (check.lost.empty() && check.invented.empty()) continue;
          ++failed;
          const std::int64_t at = check.invented.empty() ? check.lost.front()
                                  : check.lost.empty()
                                      ? check.invented.front()
                                      : std::min(check.lost.front(), check.invented.front());
          std::string lost_at;
          for (const std::int64_t ms : check.lost) lost_at += " " + std::to_string(ms);
          ADD_FAILURE() << game.file << " game " << game.number << ", seed " << seed << ", wake "
                        << wake << " ms, jitter " << jitter << " ms (seed " << j << "), split "
                        << split_ms << " ms: " << check.lost.size() << " of " << check.levers
                        << " presses lost, " << check.invented.size() << " invented; first at "
                        << at << " ms (levers lost at" << lost_at << "):" << trace(r, levers, at);
        }
      }
    }
  }
  std::printf("%zu runs, %zu with a press lost or invented\n", runs, failed);
}

TEST(FaultReplay, EveryPressOnceUnderDamagedClockMessages) {
  replay_games(env_int("EBOARD_REPLAY_SPLIT", 0));
}

// The same line with every write of the emulator cut into pieces up to 3 ms apart (the
// soak's `split` pattern does the same over a pty): the driver reads messages across
// reads, and the gate's confirmations are no different for it.
TEST(FaultReplay, EveryPressOnceUnderSplitWritesAndDamagedClockMessages) { replay_games(3); }

}  // namespace
}  // namespace eboard::daemon::soak
