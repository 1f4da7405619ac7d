// eboardd's log: one line per message on stderr with an sd-daemon priority prefix
// (`<3>` error, `<4>` warning, `<5>` notice, `<6>` info, `<7>` debug; sd-daemon(3)), so
// journald keeps the levels (style.md "Formatting and build hygiene").
//
// Repeats: a fault that lasts (a full disk, a client that keeps failing) would otherwise
// write the same line once per event. An error or warning whose exact text was already
// printed in the current window is counted instead of printed; report_repeats() (the
// daemon calls it on a timer, and at shutdown) prints each counted line once more with
// its count and starts a new window. So a fault that lasts an hour costs one line when it
// starts and one a window while it lasts. Info, notice and debug lines are never held
// back: they are the record of what happened (a board connecting twice is two lines).
//
// The logger reads no clock (the window is whatever the caller's timer makes it) and is
// used on the event loop's thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <string_view>

namespace eboard::daemon {

enum class LogLevel : std::uint8_t {
  kError = 3,
  kWarning = 4,
  kNotice = 5,
  kInfo = 6,
  kDebug = 7,
};

class Logger {
 public:
  // `program` starts every line after the prefix ("eboardd").
  Logger(std::ostream& out, std::string program) : out_(out), program_(std::move(program)) {}

  void log(LogLevel level, std::string_view text);
  void error(std::string_view text) { log(LogLevel::kError, text); }
  void warning(std::string_view text) { log(LogLevel::kWarning, text); }
  void notice(std::string_view text) { log(LogLevel::kNotice, text); }
  void info(std::string_view text) { log(LogLevel::kInfo, text); }
  void debug(std::string_view text) { log(LogLevel::kDebug, text); }

  // Prints "<text> (repeated N more times)" for every line held back since the last
  // call, then starts a new window.
  void report_repeats();

  // A one-argument log function at `level`, for parts that take a plain callback.
  std::function<void(const std::string&)> at(LogLevel level);

  // Distinct lines tracked per window; past it the window is reported and restarted, so
  // a flood of different messages costs bounded memory.
  static constexpr std::size_t kMaxTracked = 256;

 private:
  void write(LogLevel level, std::string_view text);

  std::ostream& out_;
  std::string program_;
  // Lines printed in this window (level, text) -> times held back since.
  std::map<std::pair<LogLevel, std::string>, std::uint64_t> window_;
};

}  // namespace eboard::daemon
