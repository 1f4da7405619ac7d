// Helpers for the clock model tests: readable times and event filters. Time is always
// injected; these tests never sleep.
#pragma once

#include <chrono>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/clock/clock_model.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_set.h"

namespace eboard::engine::testing {

constexpr std::chrono::milliseconds ms(long long value) { return std::chrono::milliseconds{value}; }
constexpr std::chrono::milliseconds sec(double value) {
  return std::chrono::milliseconds{static_cast<long long>(value * 1000 + (value < 0 ? -0.5 : 0.5))};
}
constexpr std::chrono::milliseconds min_sec(int minutes, int seconds) {
  return std::chrono::milliseconds{(minutes * 60LL + seconds) * 1000};
}

template <class T>
std::vector<T> events_of(const std::vector<ClockEvent>& events) {
  std::vector<T> found;
  for (const ClockEvent& event : events) {
    if (const T* typed = std::get_if<T>(&event)) found.push_back(*typed);
  }
  return found;
}

inline ClockModel clock_for(std::string_view control, ClockOptions options = {}) {
  auto parsed = parse_time_control(control);
  return ClockModel(parsed.value(), options);
}

inline ClockOptions press_only() {
  ClockOptions options;
  options.increment_credit = IncrementCredit::kPressOnly;
  return options;
}

inline ClockOptions on_zero() {
  ClockOptions options;
  options.trigger = PeriodTrigger::kOnZero;
  return options;
}

}  // namespace eboard::engine::testing
