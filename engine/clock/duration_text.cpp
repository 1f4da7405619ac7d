#include "engine/clock/duration_text.h"

#include <cstdint>

namespace eboard::engine {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

}  // namespace

Result<std::chrono::milliseconds> parse_seconds(std::string_view text) {
  if (text.empty()) return Error{"empty time (expected seconds, e.g. 180 or 0.5)"};
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  if (whole.empty()) return Error{"time " + quoted(text) + " has no digits before '.'"};
  if (dot != std::string_view::npos && fraction.empty()) {
    return Error{"time " + quoted(text) + " has no digits after '.'"};
  }
  for (char c : whole) {
    if (!is_digit(c)) return Error{"time " + quoted(text) + " is not a number of seconds"};
  }
  for (char c : fraction) {
    if (!is_digit(c)) return Error{"time " + quoted(text) + " is not a number of seconds"};
  }
  if (fraction.size() > 3) {
    return Error{"time " + quoted(text) + " has more than 3 decimals (milliseconds)"};
  }
  const std::int64_t max_seconds = kMaxWrittenDuration.count() / 1000;
  std::int64_t seconds = 0;
  for (char c : whole) {
    seconds = seconds * 10 + (c - '0');
    if (seconds > max_seconds) {
      return Error{"time " + quoted(text) + " is longer than 100 hours"};
    }
  }
  std::int64_t millis = 0;
  std::int64_t scale = 100;
  for (char c : fraction) {
    millis += (c - '0') * scale;
    scale /= 10;
  }
  const std::chrono::milliseconds total{seconds * 1000 + millis};
  if (total > kMaxWrittenDuration) {
    return Error{"time " + quoted(text) + " is longer than 100 hours"};
  }
  return total;
}

std::string format_seconds(std::chrono::milliseconds duration) {
  const std::int64_t ms = duration.count();
  std::string text = ms < 0 ? "-" : "";
  const std::int64_t magnitude = ms < 0 ? -ms : ms;
  text += std::to_string(magnitude / 1000);
  std::int64_t fraction = magnitude % 1000;
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 3 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return text;
}

Result<int> parse_count(std::string_view text, int max_value) {
  if (text.empty()) return Error{"empty number"};
  std::int64_t value = 0;
  for (char c : text) {
    if (!is_digit(c)) return Error{quoted(text) + " is not a whole number"};
    value = value * 10 + (c - '0');
    if (value > max_value) {
      return Error{quoted(text) + " is larger than " + std::to_string(max_value)};
    }
  }
  return static_cast<int>(value);
}

}  // namespace eboard::engine
