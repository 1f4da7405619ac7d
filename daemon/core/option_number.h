// Whole-number options, read from their text. Boost.Program_options reads "-1" into an
// unsigned type as its wrapped value (lexical_cast), so `--consumer-queue-bytes -1` was a
// limit of 2^64 - 1 bytes, that is none: every count option is declared as text and read
// here, digits only, within a stated range.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/result.h"

namespace eboard::daemon {

// `text` as a number from `min` to `max`; the error names `option` and the range.
inline Result<std::uint64_t> parse_bounded(std::string_view option, std::string_view text,
                                           std::uint64_t min, std::uint64_t max) {
  const auto range = [&] {
    return Error{std::string(option) + ": '" + std::string(text) + "' is not a whole number from " +
                 std::to_string(min) + " to " + std::to_string(max)};
  };
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return range();
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
    return range();
  }
  return value;
}

}  // namespace eboard::daemon
