// Durations written as seconds, the way time controls (docs/interfaces.md §3) and `param`
// lines give them: "180", "2", "0.5". Whole milliseconds are the resolution of every
// clock the daemon meets (a DGT 3000 shows seconds), so at most three decimals.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "util/result.h"

namespace eboard::engine {

// Longest duration accepted anywhere a time is written: 100 hours. It keeps every sum
// the clock model makes far from overflow and catches typos such as a missing ':'.
inline constexpr std::chrono::milliseconds kMaxWrittenDuration{100LL * 3600 * 1000};

// "SECONDS[.FRACTION]" (digits only, no sign, at most 3 decimals, at most 100 hours).
// The error names the text and what is wrong with it.
Result<std::chrono::milliseconds> parse_seconds(std::string_view text);

// The inverse: "180", "0.5", "1.25" (no trailing zeros).
std::string format_seconds(std::chrono::milliseconds duration);

// A non-negative decimal integer no larger than max_value ("40", "0").
Result<int> parse_count(std::string_view text, int max_value);

}  // namespace eboard::engine
