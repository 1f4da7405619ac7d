// The relay's picture of the whole event: every board of the site seen through the
// broker (node and board id), its current game as live PGN (daemon/sinks/live_pgn.h,
// public events only, completed moves only) and its state (daemon/core/board_state.h),
// fed in sequence order by the fan-in.
//
// The round's PGN (/round.pgn, the push body) lists the games one after another in board
// order: by the `Board` number the pairing gave, then by node and board id, so the order
// holds during the round however the daemons come and go (lila#14739, #5076). With a
// round set (--round N), only games of that round are listed; a board whose game has not
// started yet is listed from the start with its tags and no moves, so lichess keeps
// polling (lila#6792).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "daemon/core/board_state.h"
#include "daemon/programs/eboard_events/mqtt_fan_in.h"
#include "daemon/sinks/live_pgn.h"

namespace eboard::daemon {

class EventGames {
 public:
  // `round`: only games whose Round tag is R or R.B ("" = every board's current game).
  explicit EventGames(std::string round);

  // Folds one of the board's events (in seq order); true when its PGN changed.
  bool apply(const BoardKey& key, const eboard::v1::Event& event);
  // The board's retained state (a board seen before any of its events).
  void state(const BoardKey& key, const eboard::v1::Snapshot& snapshot);
  void status(const std::string& node, const std::string& status);

  struct Game {
    BoardKey key;
    const LivePgn* pgn;
    const BoardState* state;
    std::string text;  // the PGN as listed (a placeholder before the game starts)
  };
  // The listed games in board order.
  std::vector<Game> games() const;
  // Every listed game's text, one after another; its entity tag; a number that changes
  // whenever it does.
  const std::string& round_pgn() const;
  const std::string& round_etag() const;
  std::uint64_t version() const { return version_; }
  // One board's text ("" when unknown).
  const LivePgn* board(const BoardKey& key) const;
  const std::map<std::string, std::string>& nodes() const { return nodes_; }
  std::size_t boards() const { return boards_.size(); }

 private:
  struct Board {
    explicit Board(const BoardKey& key);
    LivePgn pgn;
    BoardState state;
  };
  static void seed(LivePgn& pgn, const eboard::v1::Snapshot& snapshot);
  bool listed(const Board& board) const;
  int board_number(const Board& board) const;
  std::string placeholder(const BoardKey& key, const Board& board) const;

  std::string round_;
  std::map<BoardKey, Board> boards_;
  std::map<std::string, std::string> nodes_;  // node -> online / offline
  std::uint64_t version_ = 0;
  mutable std::uint64_t built_ = UINT64_MAX;
  mutable std::string text_;
  mutable std::string etag_;
};

}  // namespace eboard::daemon
