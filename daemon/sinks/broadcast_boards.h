// The broadcast view of every board that the HTTP server and the MQTT publisher share:
// each board's live PGN (live_pgn.h, public events only) with a version and an entity
// tag, and the whole event's /live.pgn in configuration order - the order lichess relies
// on when it matches games by their position in the file (docs/interfaces.md §5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/sinks/live_pgn.h"
#include "eboard/v1/event.pb.h"

namespace eboard::daemon {

class BroadcastBoards {
 public:
  explicit BroadcastBoards(const std::vector<std::string>& board_ids);

  // Folds a board's event; true when its PGN changed.
  bool apply(std::size_t board, const eboard::v1::Event& event);

  std::size_t size() const { return boards_.size(); }
  const std::string& id(std::size_t board) const { return boards_[board].id; }
  const std::string& pgn(std::size_t board) const { return boards_[board].pgn.text(); }
  std::uint64_t version(std::size_t board) const { return boards_[board].version; }
  const std::string& etag(std::size_t board) const { return boards_[board].etag; }
  // Every board's PGN, in order (rebuilt only when one changed).
  const std::string& live_pgn() const;
  const std::string& live_etag() const;

 private:
  struct Board {
    std::string id;
    LivePgn pgn;
    std::uint64_t version = 0;
    std::string etag;
  };
  std::vector<Board> boards_;
  mutable std::string live_;
  mutable std::string live_etag_;
  mutable bool live_stale_ = true;
};

// A strong entity tag for a text: its FNV-1a 64-bit hash and length, quoted.
std::string entity_tag(const std::string& text);

}  // namespace eboard::daemon
