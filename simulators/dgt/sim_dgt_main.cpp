// `eboard-sim dgt --link PATH | --serial-bus DIR [--speed X] [faults...] SCRIPT`
// (docs/interfaces.md §2).
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

#include "drivers/dgt/dgt_protocol.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/fault_injector.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/emulator/run_emulator.h"
#include "simulators/emulator/run_options.h"
#include "simulators/emulator/serial_bus.h"
#include "simulators/script/script_header.h"
#include "simulators/script/script_reader.h"
#include "simulators/script/script_writer.h"

namespace eboard::sim {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kUsage =
    "usage: eboard-sim dgt --link PATH | --serial-bus DIR [--usb-id VVVV:PPPP]\n"
    "                      [--speed X] [--white left|right] [--turned]\n"
    "                      [--garbage N] [--drop N] [--corrupt-clock N] [--split] [--delay MS]\n"
    "                      [--hangup-at SECONDS [--hangup-for SECONDS]] [--seed S]\n"
    "                      [--serial DIGITS] [--no-clock] [--linger SECONDS] [--verbose]\n"
    "                      [--rules NAME] [--clock TC] [--param NAME=VALUE]... SCRIPT\n"
    "Emulates a DGT board with a DGT 3000 clock on a pseudo-terminal linked at PATH,\n"
    "playing the sensor script SCRIPT ('-' for standard input). --serial-bus plugs it in as\n"
    "an emulated USB-serial port in DIR instead (eboardd --serial-emulator DIR), with the\n"
    "board's --serial as its USB serial number and the USB id 04d8:000a (or --usb-id).\n"
    "--serial sets the board's serial number (default 24680). --speed 0 plays as fast as\n"
    "the host reads. Faults: --garbage N adds random bytes after every N-th message, --drop N\n"
    "drops a byte of every N-th message, --corrupt-clock N damages one data byte of every\n"
    "N-th clock message, --split delivers one byte at a time, --delay MS\n"
    "delays answers, --hangup-at T unplugs at script time T for --hangup-for seconds\n"
    "(default 2), --turned reports the board turned round. --linger S exits S seconds\n"
    "after the script ends (default: run until interrupted). --rules, --clock and --param\n"
    "set the DGT 3000 up for another game than the script's header names (eboardd passes\n"
    "its own when they override a sim: board's script).\n";

struct Options {
  std::string link;
  SerialBus bus{"", "", drivers::dgt::kUsbVendorId, drivers::dgt::kUsbProductId, false};
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
    std::string bus_error;
    if (arg != "--serial") {
      if (const int taken = take_serial_bus_option(argc, argv, i, o.bus, bus_error)) {
        if (taken < 0) return bus_error;
        i += taken - 1;
        continue;
      }
    }
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
    } else if (arg == "--corrupt-clock") {
      if (!value(number) || number < 1) return "--corrupt-clock needs a count >= 1";
      o.faults.corrupt_clock_every = static_cast<int>(number);
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
  o.bus.serial = o.emulator.serial;  // the board's own serial number, on its USB descriptor
  std::string error;
  o.link = pty_link_path(o.link, o.bus, error);
  if (!error.empty()) return error;
  if (o.script.empty()) return "a SCRIPT is required";
  return "";
}

// How the arbiter sets the DGT 3000 for the game: the script's time control or, without a
// `clock` line, the rule set's default clock (docs/interfaces.md §3 header defaults), credited and
// switching periods the way the rule set (with the script's `param` lines) says, docs/rules.md D9.
// --rules, --clock and --param override the header as eboardd's options do.
// The clock shows the first period's base at the start, plus the first increment where it
// is credited at the start (`start_and_press`), as a DGT 3000 in Fischer mode does.
// Nothing when the control cannot be read (the daemon will have refused the script).
void set_clock_up(const script::ScriptFile& file, Options& o) {
  script::Header header = script::header_of(file);
  if (!o.rules.empty()) header.rules = o.rules;
  if (!o.clock.empty()) header.clock = o.clock;
  auto named =
      engine::rule_set_by_name(header.rules.empty() ? engine::kDefaultRuleSetName : header.rules);
  if (!named) return;
  engine::RuleSet rules = named.value();
  for (const auto& [name, value] : header.params) (void)engine::apply_param(rules, name, value);
  for (const auto& [name, value] : o.params) (void)engine::apply_param(rules, name, value);
  auto tc = engine::parse_time_control(header.clock.empty() ? rules.default_clock : header.clock);
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

// The DGT emulator as the loop sees it (board_emulator.h).
class DgtBoard final : public BoardEmulator {
 public:
  explicit DgtBoard(DgtEmulator& emulator) : emulator_(emulator) {}
  Messages on_host_bytes(std::span<const std::uint8_t> bytes) override {
    return {emulator_.on_host_bytes(bytes)};
  }
  Messages apply(const script::Statement& statement) override {
    return {emulator_.apply(statement)};
  }
  Messages advance(script::Millis at) override { return {emulator_.advance_clock(at)}; }
  void power_cycle() override { emulator_.power_cycle(); }
  void set_placement(const script::Placement& placement) override {
    emulator_.set_placement(placement);
  }
  bool host_active() const override { return emulator_.host_active(); }
  bool host_has_board() const override { return emulator_.host_has_board(); }
  bool one_message_each() const override { return false; }

 private:
  DgtEmulator& emulator_;
};

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
  const std::vector<script::Statement> timed = timed_sensor_lines(file);
  PtyLink link(o.link);
  if (auto opened = link.open(); std::holds_alternative<PtyError>(opened)) {
    std::cerr << "eboard-sim dgt: " << std::get<PtyError>(opened).message << "\n";
    return 1;
  }
  std::cerr << "eboard-sim dgt: " << o.link << " -> " << link.slave_path() << "\n";
  RunOptions run;
  run.name = "eboard-sim dgt";
  run.speed = o.speed;
  run.faults = o.faults;
  run.split = o.split;
  run.delay = o.delay;
  run.hangup_at = o.hangup_at;
  run.hangup_seconds = o.hangup_seconds;
  run.linger_seconds = o.linger_seconds;
  run.verbose = o.verbose;
  // What the players see on the clock, for whoever watches the emulator (e2e tests).
  std::size_t shown = 0;
  run.after_host_bytes = [&] {
    for (; shown < emulator.displayed().size(); ++shown) {
      const std::string& text = emulator.displayed()[shown];
      std::cerr << "eboard-sim dgt: clock "
                << (text.empty() ? "shows the times" : "shows '" + text + "'") << "\n";
    }
  };
  DgtBoard board(emulator);
  return run_emulator(run, board, link, timed);
}

}  // namespace eboard::sim
