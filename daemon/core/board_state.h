// A board's current state folded from its events: the Snapshot sent to every consumer
// on connect (docs/interfaces.md §4), rebuilt at start from the journal (recovery), and the
// model behind eboard-events' text view. Folding the published events, rather than
// asking the tracker, means a snapshot never says anything the stream did not, and the
// same code serves the daemon and its consumers.
#pragma once

#include <optional>
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
  // (recovery.h replay_game): moveCompleted, clockPressWithoutMove, illegalMoveCompleted,
  // positionChanged and commandApplied, and the events that open or settle the arbiter's
  // proposals (gameEnded, penalty, claimReceived, claimDecided, deadPositionSuspected),
  // in journal order. Not part of the snapshot.
  const std::vector<eboard::v1::Event>& game_history() const { return history_; }
  // Whether a game has started and not ended (recovery resumes only those): a result
  // only proposed to the arbiter has not ended it.
  bool game_in_progress() const {
    return snapshot_.game_state() == eboard::v1::GAME_STATE_IN_PROGRESS ||
           (snapshot_.game_state() == eboard::v1::GAME_STATE_ENDED && snapshot_.result_proposed());
  }
  // The latest applied newGame command (nullptr: none in the journal): its white side holds
  // from its game on. Pending while its game has not started (no gameStarted after it): the
  // command was answered ok, so a restarted daemon sets that game up rather than going on
  // with the one before.
  const eboard::v1::NewGame* new_game() const { return new_game_ ? &*new_game_ : nullptr; }
  bool new_game_pending() const { return new_game_pending_; }
  // White's clock side as a `white=auto` board learned it (clockSideLearned) since the
  // latest applied newGame, which forgets it (nullopt: not learned).
  std::optional<eboard::v1::ClockSide> learned_white_side() const { return learned_white_side_; }

 private:
  void ruled(const eboard::v1::CommandApplied& applied);
  void proposed_end_gone();

  eboard::v1::Snapshot snapshot_;
  std::vector<eboard::v1::Event> history_;
  std::uint32_t proposed_end_seq_ = 0;  // the open proposed result's gameEnded, if any
  std::optional<eboard::v1::NewGame> new_game_;
  bool new_game_pending_ = false;
  std::optional<eboard::v1::ClockSide> learned_white_side_;
  std::uint32_t started_seq_ = 0;  // the latest gameStarted
};

}  // namespace eboard::daemon
