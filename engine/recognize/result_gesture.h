// Result gestures (docs/rules.md D8; docs/protocols.md §1.6): how players at a DGT-broadcast event
// report a finished game on the board. Both kings on the central squares (PicoChess's
// table, which looks at the pair of squares, not at which king stands where): the kings
// on e4 and d5 mean White won, on e5 and d4 Black won, side by side on d4-e4 or d5-e5 a
// draw. A DGT result piece (codes 0D-0F)
// anywhere on the board says draw, white wins or black wins.
//
// Detection looks at four squares and one bitboard, so it runs on every sensor change;
// the recognizer reports a gesture only once it has been stable for `debounce_ms`, so a
// king passing over those squares is never one. Kings on adjacent squares are never a
// legal position, so a gesture can never be confused with a move.
#pragma once

#include <cstdint>

#include "engine/recognize/sensed_board.h"

namespace eboard::engine {

enum class GestureResult : std::uint8_t { kNone, kWhiteWins, kBlackWins, kDraw };

GestureResult detect_result_gesture(const SensedBoard& sensed);

}  // namespace eboard::engine
