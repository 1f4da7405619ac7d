// One board's live PGN for the online broadcast (interfaces.md §5; issue 7 item 3), built
// only from the events players and spectators may see (rules.md D14: the caller feeds
// public events; this class ignores any other).
//
// The text is the PGN export format written by engine/game/pgn.h, with the mover's clock
// after each move as {[%clk h:mm:ss]}. A position change that is not a move - an illegal
// move that stood (rules.md D5: A.5.2 / B.3 let it stand), the arbiter setting up a
// position - cannot be written in SAN. The game record then ends with a comment saying
// so, and the game goes on in a new record with the same tags plus SetUp/FEN of the new
// position, so a broadcast that matches games by players and position in the file keeps
// following it. A completed move that is not legal in the position we hold (an arbiter-
// only change we never saw) starts a new record the same way, with a neutral comment.
//
// Only the current game of the board is kept: a new gameStarted replaces it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "engine/game/pgn.h"

namespace eboard::daemon {

class LivePgn {
 public:
  explicit LivePgn(std::string board_id);

  // Folds one event; true when the text changed. Non-public events are ignored.
  bool apply(const eboard::v1::Event& event);
  // The board's games in export format ("" before the first gameStarted).
  const std::string& text() const { return text_; }

 private:
  struct Record {
    engine::PgnGame game;
    engine::Position position;  // after the record's last move
    std::vector<std::optional<std::chrono::milliseconds>> clocks;
  };

  void start(const eboard::v1::GameStarted& started);
  bool move(const eboard::v1::MoveCompleted& completed);
  bool jump(const std::string& fen, const std::string& comment);
  void close_current(const std::string& comment);
  bool open_record(const std::string& fen);
  void render();

  std::string board_id_;
  std::vector<engine::PgnTag> tags_;
  std::vector<Record> records_;
  std::string result_ = "*";
  std::string last_illegal_;  // the latest public illegalMoveCompleted, for the comment
  std::string text_;
};

}  // namespace eboard::daemon
