#include "daemon/sinks/broadcast_boards.h"

#include <cstdio>

namespace eboard::daemon {

std::string entity_tag(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "\"%016llx-%zx\"", static_cast<unsigned long long>(hash),
                text.size());
  return buffer;
}

BroadcastBoards::BroadcastBoards(const std::vector<std::string>& board_ids) {
  boards_.reserve(board_ids.size());
  for (const auto& id : board_ids) {
    boards_.push_back(Board{id, LivePgn(id), 0, entity_tag("")});
  }
}

bool BroadcastBoards::apply(std::size_t board, const eboard::v1::Event& event) {
  Board& b = boards_[board];
  if (!b.pgn.apply(event)) return false;
  ++b.version;
  b.etag = entity_tag(b.pgn.text());
  live_stale_ = true;
  return true;
}

const std::string& BroadcastBoards::live_pgn() const {
  if (live_stale_) {
    live_.clear();
    for (const auto& b : boards_) live_ += b.pgn.text();
    live_etag_ = entity_tag(live_);
    live_stale_ = false;
  }
  return live_;
}

const std::string& BroadcastBoards::live_etag() const {
  live_pgn();
  return live_etag_;
}

}  // namespace eboard::daemon
