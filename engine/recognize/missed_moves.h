// After a restart or a reconnect: which moves were made on the board while nobody was
// listening. The board's full dump is compared with the committed position; if exactly
// one sequence of legal moves (up to kMaxMissedPlies) leads from the committed position
// to the dumped placement, and the clock's running side is the side to move after it,
// those moves are what happened. Anything else - no sequence, several, or the clock
// disagreeing - is not guessed: the caller asks for a restore. Nor is a move being made: a
// board that is a position on the way (the committed one, one after the moves seen
// standing, or one ply beyond either) with a piece, or a capture's two pieces, in the
// hands. Captures explain missing pieces too, so a search would fit moves nobody made to
// it (the rook put on d1 and the queen lifted from d8 is also Re1 Qd1 Rxd1).
//
// A depth-3 search is at most ~45 000 positions (a few ms).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/board/position.h"
#include "engine/recognize/sensed_board.h"

namespace eboard::engine {

inline constexpr int kMaxMissedPlies = 3;

struct MissedMoves {
  enum class Verdict : std::uint8_t {
    kUnchanged,    // the board shows the committed position
    kMoves,        // `moves` explain it, confirmed by the clock
    kUnexplained,  // no unique legal sequence, or the clock disagrees
  };
  Verdict verdict = Verdict::kUnexplained;
  std::vector<Move> moves;
};

// `running`: the side whose clock runs as the clock reports it (nullopt: unknown or
// stopped, which confirms only "unchanged").
MissedMoves find_missed_moves(const Position& committed,
                              const std::array<SquareCode, kSquareCount>& board,
                              std::optional<Color> running);

// A board without a clock (docs/clockless.md): nothing tells whose turn it is, so the one
// shortest sequence stands on its own. Its plies but the last were followed by the
// opponent's move and are complete; the last one stands on the board as any move does
// there, and the caller leaves it to the clockless completion (it may still be taken
// back or moved on, a piece put down on its way). `seen`: the legal moves last seen
// standing on the board from `committed` (the recognizer's pending chain). They were
// made: a sequence that goes on from the longest of them that still fits is taken
// first (kMaxMissedPlies beyond them), so that moves seen before the gap do not count
// as unknown ones, whose order may be ambiguous.
MissedMoves find_missed_moves_without_clock(const Position& committed,
                                            const std::array<SquareCode, kSquareCount>& board,
                                            const std::vector<Move>& seen = {});

}  // namespace eboard::engine
