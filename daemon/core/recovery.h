// After a restart: the journal's game played into a fresh tracker once more, so that what
// the game counted survives (replay_game below). Which moves were made on the board
// while nobody listened is the engine's search (engine/recognize/missed_moves.h).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"
#include "engine/board/position.h"
#include "engine/game/game_tracker.h"
#include "engine/recognize/sensed_board.h"

namespace eboard::daemon {

// A restart must not reset what the game has counted so far: each side's completed moves
// (clock periods by move count, the 6.4 check at a flag, the clock move counters compared
// in clockMismatch), each side's completed illegal moves (docs/rules.md D6: under FIDE rules
// the second one loses), the positions played (repetition claims, D7) and what the
// arbiter did (time added, pauses, claims, rulings, open proposals). The engine keeps
// them in the tracker, its clock model and its arbiter, so the journal's game is played
// into `tracker` - fresh, at the game's start position - once more, in journal order:
// every completed move as its placement and press, every press without a move and
// illegal move again (from its `uci`), the arbiter's position changes, and through
// `hooks.other` every applied command (commandApplied) and every proposal that no move
// or command opens (a result signalled with the result pieces, a flag result). Events a
// command caused (its ack's seq to its last_seq) are not played themselves: the
// command's replay causes them. All of it happens on the tracker's time line before
// `end`, where the caller's goes on, except the debounce an illegal placement must stand
// (docs/rules.md D2); what the tracker emits goes to `hooks.emitted` with the journal event it
// was played from (the caller matches proposals to their journal seqs and publishes
// nothing). An error when the replay does not end where the journal did (same position,
// moves and illegal counts): the caller then resumes from the last position alone, as
// before, and says so.
struct ReplayHooks {
  std::function<void(const eboard::v1::Event& journal, engine::Millis now)> other;
  std::function<void(const eboard::v1::Event& journal, engine::GameEvents& emitted)> emitted;
};

std::optional<std::string> replay_game(engine::GameTracker& tracker,
                                       const std::vector<eboard::v1::Event>& history,
                                       const eboard::v1::Snapshot& journal,
                                       engine::Millis end = engine::Millis{0},
                                       const ReplayHooks& hooks = {});

// The journal seqs that applied commands of `history` caused (commandApplied: ack seq to
// last_seq), which a replay reproduces by running the command again.
std::vector<std::uint32_t> command_caused_seqs(const std::vector<eboard::v1::Event>& history);

}  // namespace eboard::daemon
