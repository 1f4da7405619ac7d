// `eboard-sim dgt --link PATH [--speed X] [faults...] SCRIPT` (interfaces.md §2).
//
// One poll loop: the pty master, a signalfd, and timers computed from the script. With
// --speed X > 0 script time runs X times wall time from the moment the host first puts
// the board in an update mode; with --speed 0 the next statement is played only when the
// host has read everything sent so far ("as fast as the daemon reads"), and only once it
// has asked for the whole board (after power-up and after every plug-in).
#include "simulators/dgt/sim_dgt_main.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <string>

#include "engine/clock/time_control.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/fault_injector.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/script/script_reader.h"
#include "simulators/script/script_writer.h"

namespace eboard::sim {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kUsage =
    "usage: eboard-sim dgt --link PATH [--speed X] [--white left|right] [--turned]\n"
    "                      [--garbage N] [--drop N] [--split] [--delay MS]\n"
    "                      [--hangup-at SECONDS [--hangup-for SECONDS]] [--seed S]\n"
    "                      [--serial DIGITS] [--no-clock] [--linger SECONDS] [--verbose]\n"
    "                      [--rules NAME] [--clock TC] [--param NAME=VALUE]... SCRIPT\n"
    "Emulates a DGT board with a DGT 3000 clock on a pseudo-terminal linked at PATH,\n"
    "playing the sensor script SCRIPT ('-' for standard input). --speed 0 plays as fast as\n"
    "the host reads. Faults: --garbage N adds random bytes after every N-th message, --drop N\n"
    "drops a byte of every N-th message, --split delivers one byte at a time, --delay MS\n"
    "delays answers, --hangup-at T unplugs at script time T for --hangup-for seconds\n"
    "(default 2), --turned reports the board turned round. --linger S exits S seconds\n"
    "after the script ends (default: run until interrupted). --rules, --clock and --param\n"
    "set the DGT 3000 up for another game than the script's header names (eboardd passes\n"
    "its own when they override a sim: board's script).\n";

struct Options {
  std::string link;
  std::string script;
  double speed = 1.0;
  DgtEmulatorOptions emulator;
  FaultOptions faults;
  bool split = false;
  milliseconds delay{0};
  std::optional<script::Millis> hangup_at;
  double hangup_seconds = 2.0;
  std::optional<double> linger_seconds;
  std::optional<double> clock_seconds;
  // The game's set-up where it differs from the script's header (eboardd's --rules,
  // --clock, --param for a sim: board): the arbiter sets the clock for the game played.
  std::string rules;
  std::string clock;
  std::vector<std::pair<std::string, std::string>> params;
  bool verbose = false;
};

struct Chunk {
  Bytes bytes;
  Clock::time_point due;
};

bool parse_number(const char* text, double& out) {
  char* end = nullptr;
  out = std::strtod(text, &end);
  return end != text && *end == '\0' && out >= 0;
}

// Returns an error message, empty on success.
std::string parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](double& out) {
      if (i + 1 >= argc || !parse_number(argv[i + 1], out)) return false;
      ++i;
      return true;
    };
    double number = 0;
    if (arg == "--link" && i + 1 < argc) {
      o.link = argv[++i];
    } else if (arg == "--speed") {
      if (!value(o.speed)) return "--speed needs a number >= 0";
    } else if (arg == "--white" && i + 1 < argc) {
      const std::string side = argv[++i];
      if (side != "left" && side != "right") return "--white takes left or right";
      o.emulator.white_side =
          side == "left" ? drivers::ClockSide::kLeft : drivers::ClockSide::kRight;
    } else if (arg == "--turned") {
      o.emulator.turned_round = true;
    } else if (arg == "--garbage" || arg == "--drop") {
      if (!value(number) || number < 1) return arg + " needs a count >= 1";
      (arg == "--garbage" ? o.faults.garbage_every : o.faults.drop_every) =
          static_cast<int>(number);
    } else if (arg == "--split") {
      o.split = true;
    } else if (arg == "--delay") {
      if (!value(number)) return "--delay needs milliseconds";
      o.delay = milliseconds(static_cast<long>(number));
    } else if (arg == "--hangup-at") {
      if (!value(number)) return "--hangup-at needs seconds";
      o.hangup_at = script::Millis(static_cast<long>(number * 1000));
    } else if (arg == "--hangup-for") {
      if (!value(o.hangup_seconds)) return "--hangup-for needs seconds";
    } else if (arg == "--seed") {
      if (!value(number)) return "--seed needs a number";
      o.faults.seed = static_cast<std::uint32_t>(number);
    } else if (arg == "--serial" && i + 1 < argc) {
      o.emulator.serial = argv[++i];
    } else if (arg == "--no-clock") {
      o.emulator.clock_connected = false;
    } else if (arg == "--linger") {
      double seconds = 0;
      if (!value(seconds)) return "--linger needs seconds";
      o.linger_seconds = seconds;
    } else if (arg == "--clock-seconds") {
      double seconds = 0;
      if (!value(seconds)) return "--clock-seconds needs seconds";
      o.clock_seconds = seconds;
    } else if (arg == "--rules" && i + 1 < argc) {
      o.rules = argv[++i];
    } else if (arg == "--clock" && i + 1 < argc) {
      o.clock = argv[++i];
    } else if (arg == "--param" && i + 1 < argc) {
      const std::string text = argv[++i];
      const auto eq = text.find('=');
      if (eq == std::string::npos || eq == 0) return "--param needs NAME=VALUE, not '" + text + "'";
      o.params.emplace_back(text.substr(0, eq), text.substr(eq + 1));
    } else if (arg == "--verbose") {
      o.verbose = true;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return "unknown option '" + arg + "'";
    } else if (o.script.empty()) {
      o.script = arg;
    } else {
      return "only one SCRIPT";
    }
  }
  if (o.link.empty()) return "--link PATH is required";
  if (o.script.empty()) return "a SCRIPT is required";
  return "";
}

// How the arbiter sets the DGT 3000 for the game: the script's time control or, without a
// `clock` line, the rule set's default clock (interfaces.md §3 header defaults), credited and
// switching periods the way the rule set (with the script's `param` lines) says, rules.md D9.
// --rules, --clock and --param override the header as eboardd's options do.
// The clock shows the first period's base at the start, plus the first increment where it
// is credited at the start (`start_and_press`), as a DGT 3000 in Fischer mode does.
// Nothing when the control cannot be read (the daemon will have refused the script).
void set_clock_up(const script::ScriptFile& file, Options& o) {
  std::string rules_name, control;
  std::vector<const script::Param*> params;
  for (const auto& s : file.statements) {
    if (const auto* tc = std::get_if<script::TimeControl>(&s.body)) control = tc->text;
    if (const auto* rules = std::get_if<script::RulesName>(&s.body)) rules_name = rules->name;
    if (const auto* param = std::get_if<script::Param>(&s.body)) params.push_back(param);
  }
  if (!o.rules.empty()) rules_name = o.rules;
  if (!o.clock.empty()) control = o.clock;
  auto named = engine::rule_set_by_name(rules_name.empty() ? "fide-standard" : rules_name);
  if (!named) return;
  engine::RuleSet rules = named.value();
  for (const auto* param : params) (void)engine::apply_param(rules, param->name, param->value);
  for (const auto& [name, value] : o.params) (void)engine::apply_param(rules, name, value);
  auto tc = engine::parse_time_control(control.empty() ? rules.default_clock : control);
  if (!tc || tc->periods.empty()) return;
  const engine::Period& first = tc->periods.front();
  auto start = first.base;
  o.emulator.increment_at_start = rules.increment_credit == engine::IncrementCredit::kStartAndPress;
  if (first.adjustment == engine::Adjustment::kFischer && o.emulator.increment_at_start)
    start += first.adjustment_amount;
  o.emulator.periods_on_zero =
      engine::effective_trigger(*tc, rules.period_trigger) == engine::PeriodTrigger::kOnZero;
  if (!o.clock_seconds) o.clock_seconds = std::chrono::duration<double>(start).count();
  o.emulator.time_control = std::move(*tc);
}

void configure_from_script(const script::ScriptFile& file, Options& o) {
  bool has_clocktime = false;
  for (const auto& s : file.statements) {
    has_clocktime = has_clocktime || std::holds_alternative<script::ClockTime>(s.body);
  }
  set_clock_up(file, o);
  o.emulator.clock_counts_down = !has_clocktime;
  o.emulator.initial_time = script::Millis(static_cast<long>(o.clock_seconds.value_or(0) * 1000));
}

script::Placement header_placement(const script::ScriptFile& file) {
  for (const auto& s : file.statements) {
    if (const auto* start = std::get_if<script::Start>(&s.body)) {
      if (start->fen == "startpos") return script::start_placement();
      if (const auto p = script::parse_placement(start->fen.substr(0, start->fen.find(' '))))
        return *p;
    }
  }
  return script::start_placement();
}

int signal_fd() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  return signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
}

}  // namespace

int run_dgt(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--help") {
      std::cout << kUsage;
      return 0;
    }
  }
  if (const std::string error = parse_options(argc, argv, o); !error.empty()) {
    std::cerr << "eboard-sim dgt: " << error << "\n";
    return 2;
  }
  const script::ScriptFile file = script::read_script_file(o.script);
  if (!file.ok()) {
    std::cerr << file.error << "\n";
    return 2;
  }
  configure_from_script(file, o);
  DgtEmulator emulator(o.emulator);
  emulator.set_placement(header_placement(file));
  FaultInjector faults(o.faults);
  std::vector<script::Statement> timed;
  for (const auto& s : file.statements) {
    if (s.at && script::is_sensor(s.body)) timed.push_back(s);
  }

  PtyLink link(o.link);
  if (auto opened = link.open(); std::holds_alternative<PtyError>(opened)) {
    std::cerr << "eboard-sim dgt: " << std::get<PtyError>(opened).message << "\n";
    return 1;
  }
  std::cerr << "eboard-sim dgt: " << o.link << " -> " << link.slave_path() << "\n";
  const int signals = signal_fd();

  std::deque<Chunk> queue;
  const auto enqueue = [&](const Bytes& bytes, Clock::time_point due) {
    if (!bytes.empty()) queue.push_back(Chunk{faults.apply(bytes), due});
  };
  std::size_t next = 0;
  std::optional<Clock::time_point> start;
  Clock::time_point hung_until{};  // valid while `hung`
  bool hung = false;
  std::optional<Clock::time_point> finished;
  bool hangup_done = false;
  // FIONREAD on the slave lags a write by the kernel's flip-buffer work, so "the host has
  // read everything" also needs a moment since our last write.
  Clock::time_point last_write{};
  const auto drained = [&](Clock::time_point now, milliseconds settle) {
    return queue.empty() && link.unread_by_host() == 0 && now - last_write >= settle;
  };
  const auto wall = [&](double seconds) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  };

  for (;;) {
    const auto now = Clock::now();
    if (hung && now >= hung_until) {
      hung = false;
      if (auto opened = link.open(); std::holds_alternative<PtyError>(opened)) {
        std::cerr << "eboard-sim dgt: " << std::get<PtyError>(opened).message << "\n";
        return 1;
      }
      emulator.power_cycle();
      std::cerr << "eboard-sim dgt: plugged in again: " << link.slave_path() << "\n";
    }
    if (!start && emulator.host_active()) start = now;
    const script::Millis script_now =
        start ? std::chrono::duration_cast<script::Millis>((now - *start) * o.speed)
              : script::Millis(0);
    while (start && !hung && next < timed.size()) {
      const script::Statement& s = timed[next];
      const bool due = o.speed > 0 ? script_now >= *s.at
                                   : emulator.host_has_board() && drained(now, milliseconds(2));
      if (!due) break;
      if (o.hangup_at && !hangup_done && *s.at >= *o.hangup_at) {
        // Let the host take in what was sent before the line goes dead (bounded).
        if (!drained(now, milliseconds(100)) && now - last_write < milliseconds(1000)) break;
        // Unplugged: the game goes on, nobody hears it (the board is reset on return).
        hangup_done = true;
        link.hang_up();
        link.remove_link();
        queue.clear();
        emulator.power_cycle();
        const auto back = *o.hangup_at + std::chrono::duration_cast<script::Millis>(
                                             std::chrono::duration<double>(o.hangup_seconds));
        while (next < timed.size() && *timed[next].at < back) emulator.apply(timed[next++]);
        hung = true;
        hung_until = now + wall(o.speed > 0 ? o.hangup_seconds / o.speed : o.hangup_seconds);
        std::cerr << "eboard-sim dgt: unplugged at " << script::format_seconds(*o.hangup_at)
                  << "\n";
        break;
      }
      if (o.verbose) std::cerr << "play " << script::format_statement(s) << "\n";
      enqueue(emulator.apply(s), now);
      ++next;
      if (o.speed == 0) break;  // one statement per drained line
    }
    if (start && o.speed > 0 && !hung) enqueue(emulator.advance_clock(script_now), now);
    if (next == timed.size() && !finished) {
      finished = now;
      std::cerr << "eboard-sim dgt: script finished\n";
    }
    if (finished && o.linger_seconds && queue.empty() &&
        now - *finished >= wall(*o.linger_seconds)) {
      return 0;
    }

    // How long to sleep in poll.
    milliseconds timeout(200);
    const auto at_most = [&](Clock::duration d) {
      timeout = std::min(timeout, std::max(milliseconds(0), std::chrono::ceil<milliseconds>(d)));
    };
    if (hung) at_most(hung_until - now);
    if (!queue.empty()) at_most(queue.front().due - now);
    if (o.split || o.speed == 0) at_most(milliseconds(2));  // watching the host drain
    if (start && o.speed > 0 && next < timed.size()) {
      at_most(wall((*timed[next].at - script_now).count() / 1000.0 / o.speed));
    }
    if (o.speed > 0) at_most(milliseconds(50));  // the clock display ticks
    pollfd fds[2] = {{signals, POLLIN, 0}, {link.master_fd(), POLLIN, 0}};
    const bool ready = !queue.empty() && queue.front().due <= now;
    if (ready && link.is_open()) fds[1].events |= POLLOUT;
    const int nfds = link.is_open() ? 2 : 1;
    if (poll(fds, nfds, static_cast<int>(timeout.count())) < 0 && errno != EINTR) return 1;
    if (fds[0].revents & POLLIN) return 0;  // SIGINT / SIGTERM: the link goes in ~PtyLink
    if (!link.is_open()) continue;
    if (fds[1].revents & POLLIN) {
      std::uint8_t buffer[256];
      const ssize_t n = read(link.master_fd(), buffer, sizeof buffer);
      if (n > 0) {
        const std::size_t shown = emulator.displayed().size();
        enqueue(emulator.on_host_bytes(std::span(buffer, static_cast<std::size_t>(n))),
                Clock::now() + o.delay);
        // What the players see on the clock, for whoever watches the emulator (e2e tests).
        for (std::size_t i = shown; i < emulator.displayed().size(); ++i) {
          const std::string& text = emulator.displayed()[i];
          std::cerr << "eboard-sim dgt: clock "
                    << (text.empty() ? "shows the times" : "shows '" + text + "'") << "\n";
        }
      }
    }
    while (!queue.empty() && queue.front().due <= Clock::now()) {
      Bytes& bytes = queue.front().bytes;
      if (o.split && link.unread_by_host() > 0) break;
      const std::size_t count = o.split ? 1 : bytes.size();
      const ssize_t n = write(link.master_fd(), bytes.data(), count);
      if (n <= 0) break;
      last_write = Clock::now();
      bytes.erase(bytes.begin(), bytes.begin() + n);
      if (bytes.empty()) queue.pop_front();
      if (o.split) break;
    }
  }
}

}  // namespace eboard::sim
