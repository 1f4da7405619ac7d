// Lights on the board (`--board-lights BOARD|all`): the squares of a pending illegal move
// flash until it is corrected or completed, and a completed move's two squares are lit for
// a moment (kLastMoveShown). It follows the published events (an EventListener on the
// hub), so it needs nothing from the engine beyond what every consumer sees, and it only
// ever queues a small LED command on the link: the decoders send it without waiting for an
// answer, and updates closer together than kMinInterval are merged into the newest, so the
// sensor path is never held up. Boards without LEDs (DGT) are skipped silently.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "daemon/core/clock.h"
#include "daemon/core/event_hub.h"
#include "drivers/decoder.h"

namespace eboard::daemon {

class BoardLights final : public EventListener {
 public:
  static constexpr std::chrono::milliseconds kLastMoveShown{1500};
  static constexpr std::chrono::milliseconds kMinInterval{150};
  using Show = std::function<bool(std::size_t board, const drivers::Lights& lights)>;

  // `enabled[b]`: whether board b shows lights.
  BoardLights(boost::asio::io_context& io, const Clock& clock, std::vector<bool> enabled,
              Show show);
  void on_event(std::size_t board, const eboard::v1::Event& event,
                const SharedBytes& frame) override;

  // What board b should show now (tests).
  drivers::Lights wanted(std::size_t board) const;

 private:
  struct State {
    std::uint64_t illegal = 0;    // squares of a pending illegal move
    std::uint64_t last_move = 0;  // shown until last_move_until
    std::optional<SteadyTime> last_move_until;
    std::optional<drivers::Lights> shown;
    SteadyTime last_sent{};
    std::unique_ptr<boost::asio::steady_timer> timer;
  };
  void update(std::size_t board);

  boost::asio::io_context& io_;
  const Clock& clock_;
  std::vector<bool> enabled_;
  Show show_;
  std::vector<State> boards_;
};

// The squares of "e2e4" / "e7e8q" as a bitboard (a1 = bit 0); 0 for anything else.
std::uint64_t move_squares(const std::string& uci);
std::uint64_t square_bit(const std::string& name);

}  // namespace eboard::daemon
