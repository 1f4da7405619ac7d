#include "daemon/core/board_lights.h"

namespace eboard::daemon {

std::uint64_t square_bit(const std::string& name) {
  if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8')
    return 0;
  return std::uint64_t{1} << ((name[1] - '1') * 8 + (name[0] - 'a'));
}

std::uint64_t move_squares(const std::string& uci) {
  if (uci.size() < 4) return 0;
  return square_bit(uci.substr(0, 2)) | square_bit(uci.substr(2, 2));
}

BoardLights::BoardLights(boost::asio::io_context& io, const Clock& clock, std::vector<bool> enabled,
                         Show show)
    : io_(io),
      clock_(clock),
      enabled_(std::move(enabled)),
      show_(std::move(show)),
      boards_(enabled_.size()) {
  for (auto& state : boards_) state.timer = std::make_unique<boost::asio::steady_timer>(io_);
}

drivers::Lights BoardLights::wanted(std::size_t board) const {
  const State& state = boards_[board];
  drivers::Lights lights;
  lights.blink = state.illegal;
  if (state.last_move_until && clock_.now() < *state.last_move_until) {
    lights.steady = state.last_move & ~state.illegal;
  }
  return lights;
}

void BoardLights::on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes&) {
  if (board >= boards_.size() || !enabled_[board]) return;
  State& state = boards_[board];
  switch (event.kind_case()) {
    case eboard::v1::Event::kIllegalMovePending: {
      std::uint64_t squares = 0;
      for (const auto& name : event.illegal_move_pending().squares()) squares |= square_bit(name);
      if (squares == 0) squares = move_squares(event.illegal_move_pending().uci());
      state.illegal = squares;
      break;
    }
    case eboard::v1::Event::kMoveCompleted:
    case eboard::v1::Event::kIllegalMoveCompleted: {
      const std::string& uci = event.has_move_completed() ? event.move_completed().uci()
                                                          : event.illegal_move_completed().uci();
      state.illegal = 0;
      state.last_move = move_squares(uci);
      state.last_move_until = clock_.now() + kLastMoveShown;
      break;
    }
    case eboard::v1::Event::kIllegalMoveCorrected:
    case eboard::v1::Event::kMoveTentative:
    case eboard::v1::Event::kMoveWithdrawn:
    case eboard::v1::Event::kGameStarted:
    case eboard::v1::Event::kGameEnded: state.illegal = 0; break;
    default: return;
  }
  update(board);
}

void BoardLights::update(std::size_t board) {
  State& state = boards_[board];
  const auto now = clock_.now();
  const drivers::Lights lights = wanted(board);
  state.timer->cancel();
  if (!state.shown || *state.shown != lights) {
    if (now - state.last_sent < kMinInterval) {
      state.timer->expires_after(state.last_sent + kMinInterval - now);
    } else {
      state.last_sent = now;
      if (show_(board, lights)) state.shown = lights;
      if (state.last_move_until && now < *state.last_move_until) {
        state.timer->expires_after(*state.last_move_until - now);
      } else {
        return;
      }
    }
  } else if (state.last_move_until && now < *state.last_move_until) {
    state.timer->expires_after(*state.last_move_until - now);
  } else {
    return;
  }
  state.timer->async_wait([this, board](const boost::system::error_code& error) {
    if (!error) update(board);
  });
}

}  // namespace eboard::daemon
