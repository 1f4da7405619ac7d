// After a restart or a reconnect: which moves were made on the board while nobody was
// listening. The board's full dump is compared with the committed
// position; if exactly one sequence of legal moves (up to kMaxMissedPlies) leads from
// the committed position to the dumped placement, and the clock's running side is the
// side to move after it, those moves are what happened. Anything else - no sequence,
// several, or the clock disagreeing - is not guessed: the caller asks for a restore.
//
// Pure engine work, no I/O; a depth-3 search is at most ~45 000 positions (a few ms).
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

inline constexpr int kMaxMissedPlies = 3;

struct MissedMoves {
  enum class Verdict : std::uint8_t {
    kUnchanged,    // the board shows the committed position
    kMoves,        // `moves` explain it, confirmed by the clock
    kUnexplained,  // no unique legal sequence, or the clock disagrees
  };
  Verdict verdict = Verdict::kUnexplained;
  std::vector<engine::Move> moves;
};

// `running`: the side whose clock runs as the clock reports it (nullopt: unknown or
// stopped, which confirms only "unchanged").
MissedMoves find_missed_moves(const engine::Position& committed,
                              const std::array<engine::SquareCode, engine::kSquareCount>& board,
                              std::optional<engine::Color> running);

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
