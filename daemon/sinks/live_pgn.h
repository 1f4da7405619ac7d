// One board's live PGN for the online broadcast (docs/interfaces.md §5), built
// only from the events players and spectators may see (docs/rules.md D14: the caller feeds
// public events; this class ignores any other).
//
// The records - the game's text ending at an illegal move that stood (docs/rules.md D5) or an
// arbiter's position change, and going on as a new record with SetUp/FEN - are kept by
// engine::PgnRecorder (engine/game/pgn_recorder.h), which eboard-replay --pgn-out uses
// too; this class maps the wire events onto it.
//
// What a lichess broadcast needs to keep a game (docs/interfaces.md §5, §7.1):
// names that are never "?" (lila drops a side without a name or FIDE id, so a board
// without a pairing gets "White (b1)"), `Round` as R.B and `Board`, a `GameId` that stays
// the same for the game (the board's prefix and the game's number on the board, Event.game_id,
// which never changes; a record after an illegal move that stood adds "-2", "-3": lila would refuse
// a second record with the same id and a new start position), `[%clk]` on every move,
// `WhiteClock`/`BlackClock` tags with both clocks as last reported (between moves), and
// clocks that stop at the result. Only completed moves ever reach the text.
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

// The tags a broadcast needs that a pairing may not give.
struct BroadcastDefaults {
  std::string game_id_prefix;  // GameId = prefix-<game_id>; "" = the board id
  int board_number = 0;        // `Board` when the game's tags have none (0: none)
  std::string round;           // `Round` R (written R.B) when the tags have none ("": none)
};

class LivePgn {
 public:
  explicit LivePgn(std::string board_id, BroadcastDefaults defaults = {});

  // Folds one event; true when the text changed. Non-public events are ignored.
  bool apply(const eboard::v1::Event& event);
  // The board's games in export format ("" before the first gameStarted).
  const std::string& text() const { return text_; }
  // Whether the current game's players came with it (a pairing), not the fallback names.
  bool paired() const { return paired_; }
  bool started() const { return recorder_.started(); }
  // The game's tag, or "" (the current values, as written).
  std::string tag(const std::string& name) const;
  // Number of completed moves in the text, and the final result ("*" while playing).
  int moves() const { return moves_; }
  const std::string& result() const { return result_; }

 private:
  void start(const eboard::v1::Event& event);
  void set_clocks(int white_ms, int black_ms);
  void name_records();

  std::string board_id_;
  BroadcastDefaults defaults_;
  engine::PgnRecorder recorder_;
  std::vector<engine::PgnTag> tags_;
  std::string game_id_;
  std::string text_;
  bool paired_ = false;
  bool ended_ = false;
  int moves_ = 0;
  std::string result_ = "*";
};

// "h:mm:ss" for a WhiteClock/BlackClock tag (whole seconds, rounded down; never negative).
std::string clock_tag_value(int ms);

}  // namespace eboard::daemon
