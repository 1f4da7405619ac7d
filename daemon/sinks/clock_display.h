// DGT 3000 display messages: the last move, "ILLEGAL", a flag or the
// result, shown on the clock of boards that enable it (--clock-display), through the DGT
// driver's clock command queue (docs/protocols.md §1.9: ASCII 0x0C, then END 0x03 to show the
// times again). Only text commands are sent - never SETNRUN - so the clock's running
// times are never touched; a text stays kShowFor and the times come back. A result
// stays. Only public events are shown (docs/rules.md D14: what a player may see).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "daemon/sinks/sinks.h"

namespace eboard::daemon {

class ClockDisplay {
 public:
  static constexpr auto kShowFor = std::chrono::milliseconds(2500);

  ClockDisplay(boost::asio::io_context& io, std::vector<bool> enabled, ClockSender send);
  void on_event(std::size_t board, const eboard::v1::Event& event);

 private:
  void show(std::size_t board, const std::string& text, bool stays);

  boost::asio::io_context& io_;
  std::vector<bool> enabled_;
  ClockSender send_;
  std::vector<std::unique_ptr<boost::asio::steady_timer>> timers_;
};

// The 8 characters for an event, or "" when it shows nothing (exposed for tests).
std::string clock_text_for(const eboard::v1::Event& event);

}  // namespace eboard::daemon
