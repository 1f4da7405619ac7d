#include "daemon/core/log.h"

namespace eboard::daemon {

void Logger::write(LogLevel level, std::string_view text) {
  out_ << '<' << static_cast<int>(level) << '>' << program_ << ": " << text << '\n' << std::flush;
}

void Logger::log(LogLevel level, std::string_view text) {
  if (level > LogLevel::kWarning) {
    write(level, text);
    return;
  }
  auto key = std::make_pair(level, std::string(text));
  if (const auto found = window_.find(key); found != window_.end()) {
    ++found->second;
    return;
  }
  if (window_.size() >= kMaxTracked) {
    report_repeats();
    window_.clear();
  }
  write(level, text);
  window_.emplace(std::move(key), 0);
}

void Logger::report_repeats() {
  // A line that was held back stays in the next window (its next repeat is counted
  // again, not printed in full); one that was not repeated is forgotten.
  std::map<std::pair<LogLevel, std::string>, std::uint64_t> next;
  for (auto& [key, count] : window_) {
    if (count == 0) continue;
    write(key.first, key.second + " (repeated " + std::to_string(count) + " more time" +
                         (count == 1 ? "" : "s") + ")");
    next.emplace(key, 0);
  }
  window_ = std::move(next);
}

std::function<void(const std::string&)> Logger::at(LogLevel level) {
  return [this, level](const std::string& text) { log(level, text); };
}

}  // namespace eboard::daemon
