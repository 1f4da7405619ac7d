// Finished games leave the journal's live part as PGN files (docs/interfaces.md §5): on each
// final gameEnded (not a mere proposal) the game is written to
// `<journal dir>/<board>-game<N>.pgn` from the board's folded state, with `[%clk]` after
// every move. The journal itself is kept whole, so `from_seq` replays still work across
// games.
//
// A file is written whole or not at all: to `<name>.tmp`, synced, then renamed over the
// name (and the directory synced), so a reader never sees half a game. A write that fails
// (a full disk) is a warning and is retried on the loop's timer, from kFirstRetry doubling
// to kMaxRetry, until it succeeds; the text is the one taken when the game ended.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>

#include "daemon/core/event_hub.h"
#include "daemon/core/log.h"

namespace eboard::daemon {

class GameArchive final : public EventListener {
 public:
  GameArchive(const EventHub& hub, std::string dir, Logger& log, EventHub::Schedule schedule)
      : hub_(hub), dir_(std::move(dir)), log_(log), schedule_(std::move(schedule)) {}
  void on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes&) override;

  // Files not written yet (waiting for a retry).
  std::size_t waiting() const { return waiting_.size(); }
  // Tries the waiting files again (the timer calls it; tests may too).
  void retry();

  static constexpr std::chrono::milliseconds kFirstRetry{1000};
  static constexpr std::chrono::milliseconds kMaxRetry{30000};

 private:
  struct File {
    std::string board;
    std::string path;
    std::string text;
  };
  void schedule_retry();

  const EventHub& hub_;
  std::string dir_;
  Logger& log_;
  EventHub::Schedule schedule_;
  std::deque<File> waiting_;
  std::chrono::milliseconds delay_ = kFirstRetry;
  bool scheduled_ = false;
};

// The PGN text of a board's current game as its snapshot describes it.
Result<std::string> snapshot_pgn(const eboard::v1::Snapshot& snapshot);

// Writes `text` to `path` whole (temporary file, sync, rename, directory sync); the error
// names the step and the cause.
std::optional<Error> write_file_whole(const std::string& path, const std::string& text);

}  // namespace eboard::daemon
