// The kings' dance: a tempo argument for locked positions where the loser can move
// nothing but its king (docs/rules.md D7/D10 `fide_helpmate`; our own formulation).
//
// In `8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w` Black's king shuttles a5-a6 behind locked
// pawns. White mates on a5 only with its king on a7 guarding a6, but Black's king can
// reach a5 only from a6, next to a7, and when White's king steps to a7 Black is
// stalemated. No static argument about where units can go sees this: it is about whose
// turn it is when the kings meet.
//
// The argument abstracts a game to the two kings' squares, the side to move and whether
// the last move may have given check, using the bounds of unwinnability_blocked.h (valid
// while F stands; a capture of a stalemate trap ends the game). It applies when every
// unit of the loser but the king is in F, so the loser's only moves are king steps:
//   * the winner either steps its king (inside its reach, never next to the loser's) or
//     moves another unit, which may give check wherever its units can ever attack; a
//     king step gives check only by discovery along a line with no unit of F between;
//   * the loser steps its king inside its reach, never next to the winner's king;
//   * the loser, to move after a move that may have given check, may be mated when each
//     of its king's neighbours is outside its reach, next to the winner's king or a
//     square the winner's other units can ever attack; with no step at all and no check
//     the game ends in stalemate.
// Every real game maps onto a walk of this abstract game (it allows more moves, more
// checks and more covered squares than the real one, and no fewer stalemates are
// real), so if no abstract state that may be a mate is reachable, no mate is.
#pragma once

#include "engine/board/position.h"
#include "engine/rules/unwinnability_blocked.h"

namespace eboard::engine {

// True when the kings' dance proves that `winner` can never mate (see above). False
// when the argument does not apply or finds a state that may be a mate.
bool dance_cannot_mate(const Position& pos, const BlockedAnalysis& a, Color winner);

}  // namespace eboard::engine
