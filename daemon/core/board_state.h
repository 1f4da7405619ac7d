// A board's current state folded from its events: the Snapshot sent to every consumer
// on connect (interfaces.md §4), rebuilt at start from the journal (recovery), and the
// model behind eboard-events' text view. Folding the published events, rather than
// asking the tracker, means a snapshot never says anything the stream did not, and the
// same code serves the daemon and its consumers.
#pragma once

#include <string>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"

namespace eboard::daemon {

class BoardState {
 public:
  explicit BoardState(std::string board_id);
  // Starts from a snapshot received on a connection (consumers).
  explicit BoardState(const eboard::v1::Snapshot& snapshot) : snapshot_(snapshot) {}

  void apply(const eboard::v1::Event& event);
  const eboard::v1::Snapshot& snapshot() const { return snapshot_; }
  // The game in progress's facts a restarted daemon plays again to rebuild its tracker
  // (recovery.h replay_game): moveCompleted, clockPressWithoutMove, illegalMoveCompleted
  // and positionChanged, in journal order. Not part of the snapshot.
  const std::vector<eboard::v1::Event>& game_history() const { return history_; }
  // Whether a game has started and not ended (recovery resumes only those).
  bool game_in_progress() const {
    return snapshot_.game_state() == eboard::v1::GAME_STATE_IN_PROGRESS;
  }

 private:
  eboard::v1::Snapshot snapshot_;
  std::vector<eboard::v1::Event> history_;
};

}  // namespace eboard::daemon
