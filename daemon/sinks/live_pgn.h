// One board's live PGN for the online broadcast (interfaces.md §5; issue 7 item 3), built
// only from the events players and spectators may see (rules.md D14: the caller feeds
// public events; this class ignores any other).
//
// The records - the game's text ending at an illegal move that stood (rules.md D5) or an
// arbiter's position change, and going on as a new record with SetUp/FEN - are kept by
// engine::PgnRecorder (engine/game/pgn_recorder.h), which eboard-replay --pgn-out uses
// too; this class maps the wire events onto it.
//
// Only the current game of the board is kept: a new gameStarted replaces it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "engine/game/pgn_recorder.h"

namespace eboard::daemon {

class LivePgn {
 public:
  explicit LivePgn(std::string board_id);

  // Folds one event; true when the text changed. Non-public events are ignored.
  bool apply(const eboard::v1::Event& event);
  // The board's games in export format ("" before the first gameStarted).
  const std::string& text() const { return text_; }

 private:
  std::string board_id_;
  engine::PgnRecorder recorder_;
  std::string text_;
};

}  // namespace eboard::daemon
