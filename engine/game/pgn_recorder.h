// PgnRecorder: one board's game as PGN while it is played, for the live broadcast
// (daemon/sinks/live_pgn.h, fed the public wire events) and eboard-replay --pgn-out (fed
// the engine's events through apply()); one implementation for both.
//
// The problem: a position change that is not a move cannot be written in SAN - an illegal
// move that stood (docs/rules.md D5: A.5.2, B.3, the claim-only sets let it stand), the arbiter
// setting up a position. So the game record then ends with a comment naming what
// happened, and the game goes on as a new record with the same tags plus SetUp/FEN of the
// position after it, so a broadcast that matches games by players and by position in the
// file keeps following it. A completed move that is not legal in the position held (a
// change the recorder was not shown, e.g. arbiter-only events filtered out) starts a new
// record the same way, with a neutral comment. Only the last record carries the result.
//
// Only public events belong in a broadcast (docs/rules.md D14): apply() ignores the others, and
// the live sink feeds public events only.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/game/game_event.h"
#include "engine/game/pgn.h"

namespace eboard::engine {

class PgnRecorder {
 public:
  // A new game (gameStarted): replaces everything held. A FEN that does not parse starts
  // from the standard position.
  void start(std::vector<PgnTag> tags, const std::string& time_control, const std::string& fen);
  // A completed move (moveCompleted): `fen_after` is the position the engine reached, used
  // to notice a change the recorder was not shown; so is a UCI text that names no legal
  // move here. False before start().
  bool move(const std::string& uci, const std::string& fen_after,
            std::optional<std::chrono::milliseconds> mover_remaining);
  // A completed illegal move (illegalMoveCompleted): remembered to name it if it stands.
  // The engine's form gives its squares (kNoSquare: none), the wire's its `uci` text.
  void illegal_completed(Color side, Square from, Square to);
  void illegal_completed(Color side, const std::string& uci);
  // The illegal move stood (illegalMoveStood): the record ends, a new one starts at `fen`.
  bool illegal_stood(Color side, const std::string& fen);
  // The position was set to `fen` otherwise (positionChanged): the same, with `description`.
  bool position_changed(const std::string& fen, const std::string& description);
  // A final result (a proposed one is not: gameEnded with proposed=false).
  bool result(const std::string& result);
  bool result(GameResult result) { return this->result(std::string(result_text(result))); }

  // Sets a tag of the game (every record), replacing one of the same name; false when it
  // already had that value. For tags that follow the game, e.g. WhiteClock/BlackClock.
  bool set_tag(const std::string& name, const std::string& value);
  // The same for one record only (0: the first), e.g. an id of its own.
  bool set_record_tag(std::size_t record, const std::string& name, const std::string& value);
  std::size_t records() const { return records_.size(); }

  // One engine event, public ones only; true when the text changed. The event's Move and
  // positions are used as they are: only the wire's form above is parsed.
  bool apply(const GameEvent& event);

  bool started() const { return !records_.empty(); }
  // Every record in export format, concatenated ("" before start()).
  std::string text() const;

 private:
  struct Record {
    PgnGame game;
    Position position;  // after the record's last move
    std::vector<std::optional<std::chrono::milliseconds>> clocks;
  };

  // The calls above on positions rather than FEN text; nullptr: the text was no position.
  void begin(std::vector<PgnTag> tags, const std::string& time_control, const Position* start);
  bool play(Move move, const Position* after,
            std::optional<std::chrono::milliseconds> mover_remaining);
  bool stood(Color side, const Position* after);
  bool changed(const Position* to, const std::string& description);
  bool jump(const Position* to, const std::string& comment);
  void close_current(const std::string& comment);
  void open_record(const Position& start);

  std::vector<PgnTag> tags_;
  std::vector<Record> records_;
  std::string result_ = "*";
  std::string last_illegal_;  // "White's illegal move e2e5", for the comment if it stands
};

}  // namespace eboard::engine
