#include "daemon/sinks/clock_display.h"

#include <boost/asio/post.hpp>

namespace eboard::daemon {

namespace v1 = eboard::v1;

std::string clock_text_for(const v1::Event& event) {
  if (event.visibility() != v1::VISIBILITY_PUBLIC) return "";
  std::string text;
  switch (event.kind_case()) {
    case v1::Event::kMoveCompleted: {
      const auto& m = event.move_completed();
      const std::string number = std::to_string((m.ply() + 1) / 2);
      text = number + (m.side() == v1::SIDE_BLACK ? ".." : ".") + m.san();
      if (text.size() > 8) text = m.san();
      break;
    }
    case v1::Event::kIllegalMoveCompleted: text = "ILLEGAL"; break;
    case v1::Event::kFlagFell:
      text = event.flag_fell().side() == v1::SIDE_BLACK ? "FLAG B" : "FLAG W";
      break;
    case v1::Event::kGameEnded:
      if (event.game_ended().proposed()) return "";
      text = event.game_ended().result();
      break;
    default: return "";
  }
  text.resize(8, ' ');
  return text;
}

ClockDisplay::ClockDisplay(boost::asio::io_context& io, std::vector<bool> enabled, ClockSender send)
    : io_(io), enabled_(std::move(enabled)), send_(std::move(send)) {
  for (std::size_t i = 0; i < enabled_.size(); ++i) {
    timers_.push_back(std::make_unique<boost::asio::steady_timer>(io));
  }
}

void ClockDisplay::on_event(std::size_t board, const v1::Event& event) {
  if (board >= enabled_.size() || !enabled_[board]) return;
  const std::string text = clock_text_for(event);
  if (!text.empty()) show(board, text, event.has_game_ended());
}

// Events arrive while the board's link is handling the driver's output: the command is
// queued from a fresh turn of the loop, never from inside that call.
void ClockDisplay::show(std::size_t board, const std::string& text, bool stays) {
  boost::asio::post(io_, [this, board, text, stays] {
    if (!send_(board, drivers::ClockText{text, 0})) return;
    auto& timer = *timers_[board];
    timer.cancel();
    if (stays) return;
    timer.expires_after(kShowFor);
    timer.async_wait([this, board](const boost::system::error_code& error) {
      if (!error) send_(board, drivers::ClockEndText{});
    });
  });
}

}  // namespace eboard::daemon
