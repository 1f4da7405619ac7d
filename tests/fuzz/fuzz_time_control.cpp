// Arbitrary bytes into the time-control grammar, the `param` reader and the clock model:
// never a crash or undefined behaviour; every error has a message; whatever parses
// formats back to text that parses to the same thing; a clock driven by arbitrary
// presses, pauses and corrections keeps its invariants (no negative time, deadlines never
// in the past, events in time order).
//
// Input: line 1 a time control, line 2 a param assignment, the rest a clock program
// (each byte pair: an action and a time step).
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "engine/clock/clock_model.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"

using namespace eboard::engine;

namespace {

std::string_view next_line(std::string_view& text) {
  const std::size_t end = text.find('\n');
  const std::string_view line = text.substr(0, end);
  text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  return line;
}

void check_param(std::string_view line) {
  auto assignment = parse_param_assignment(line);
  if (!assignment.ok()) {
    if (assignment.error().empty()) std::abort();
    return;
  }
  RuleSet rules = rule_set_by_name(kDefaultRuleSetName).value();
  const RuleSet before = rules;
  const auto error = apply_param(rules, assignment->name, assignment->value);
  if (error) {
    if (error->message.empty() || !(rules == before)) std::abort();
    return;
  }
  auto text = format_param(rules, assignment->name);
  if (!text.ok()) std::abort();
  RuleSet again = rules;
  if (apply_param(again, assignment->name, text.value()) || !(again == rules)) std::abort();
}

ClockTime event_time(const ClockEvent& event) {
  return std::visit([](const auto& e) { return e.at; }, event);
}

void run_clock(const TimeControl& control, std::string_view program) {
  ClockOptions options;
  options.trigger = (program.size() % 2) ? PeriodTrigger::kOnZero : PeriodTrigger::kByMoveCount;
  options.increment_credit =
      (program.size() % 3) ? IncrementCredit::kStartAndPress : IncrementCredit::kPressOnly;
  ClockModel clock(control, options);
  ClockTime now{0};
  int moves[2] = {0, 0};
  ClockTime last_event{0};
  for (std::size_t i = 0; i + 1 < program.size(); i += 2) {
    const auto action = static_cast<unsigned char>(program[i]);
    now += std::chrono::milliseconds{static_cast<unsigned char>(program[i + 1]) * 977};
    const Color side = (action & 1) ? kBlack : kWhite;
    std::vector<ClockEvent> events;
    switch ((action >> 1) % 8) {
      case 0: events = clock.start(now, side); break;
      case 1:
      case 2: events = clock.press(side, now, ++moves[side] - ((action >> 4) & 1)); break;
      case 3: events = clock.pause(now); break;
      case 4: events = clock.resume(now); break;
      case 5:
        events = clock.adjust(side, std::chrono::milliseconds{(int(action) - 128) * 1000}, now);
        break;
      case 6: events = clock.advance(now); break;
      case 7: {
        ClockReading reading;
        reading.white = std::chrono::milliseconds{action * 1000};
        reading.black = std::chrono::milliseconds{program[i + 1] * 1000};
        events = clock.observe(reading, now);
        break;
      }
    }
    for (const ClockEvent& event : events) {
      if (event_time(event) > now || event_time(event) < last_event) std::abort();
      last_event = event_time(event);
    }
    for (Color each : {kWhite, kBlack}) {
      if (clock.remaining(each, now).count() < 0) std::abort();
    }
    const auto deadline = clock.next_deadline();
    if (deadline && *deadline < now) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string_view control_text = next_line(input);
  const std::string_view param_line = next_line(input);
  check_param(param_line);
  auto control = parse_time_control(control_text);
  if (!control.ok()) {
    if (control.error().empty()) std::abort();
    return 0;
  }
  const std::string text = format_time_control(control.value());
  auto again = parse_time_control(text);
  if (!again.ok() || again->periods != control->periods) std::abort();
  if (format_time_control(again.value()) != text) std::abort();
  run_clock(control.value(), input);
  return 0;
}
