// Finished games leave the journal's live part as PGN files (issue 6 item 8 "rotated into
// PGN files"; interfaces.md §5): on each final gameEnded (not a mere proposal) the game
// is written to `<journal dir>/<board>-game<N>.pgn` from the board's folded state, with
// `[%clk]` after every move. The journal itself is kept whole, so `from_seq` replays
// still work across games.
#pragma once

#include <functional>
#include <string>

#include "daemon/core/event_hub.h"

namespace eboard::daemon {

class GameArchive final : public EventListener {
 public:
  GameArchive(const EventHub& hub, std::string dir, std::function<void(const std::string&)> log)
      : hub_(hub), dir_(std::move(dir)), log_(std::move(log)) {}
  void on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes&) override;

 private:
  const EventHub& hub_;
  std::string dir_;
  std::function<void(const std::string&)> log_;
};

// The PGN text of a board's current game as its snapshot describes it.
Result<std::string> snapshot_pgn(const eboard::v1::Snapshot& snapshot);

}  // namespace eboard::daemon
