// Blocked pawn structures: a sound over-approximation of where every unit can ever go.
//
// The problem: in positions like `7b/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3K1/N7` the material
// would mate easily, yet locked pawn chains keep each king in its own half and the bishops
// on the wrong colour, so no check can ever be given. A search never ends in such
// positions; a static argument is needed, and it must never be wrong.
//
// The argument (our own formulation of the "semi-static" idea published for the Chess
// Unwinnability Analyzer, M. Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022):
// pick a set F of pawns assumed to stay on their squares forever. Under that assumption compute,
// for every other unit, a superset of the squares it can ever occupy: sliders step through any
// square not holding a pawn of F (other units may always move away or be taken), knights jump,
// kings step but never onto a square attacked by an enemy pawn of F (that pawn is always there),
// pawns push and capture freely and, if they can reach the last rank, may become anything.
// Then check that F is self-consistent: each pawn of F has a unit of F right in front (it
// can never push), no enemy unit other than the king can ever stand on a square it
// captures to (it can never capture, en passant included), and no enemy unit can ever
// reach its square (it is never taken). F may also hold pieces whose every step leads
// onto their own side's units of F (a bishop walled in by its pawns): they never move,
// so the squares next to them that they attack are forbidden to the enemy king forever.
// A king joins F when every step it has leads onto its own units of F or onto a square a
// unit of F attacks at close range (a king in the corner behind its blocked pawn, with
// the enemy's defended pawn beside it): it never moves, so the pawn it blocks stays
// blocked and the units next to it stay defended; a king that may castle never joins.
// A second assumed set G holds pawns that may push but never leave their file and are
// never taken. A pawn never passes an enemy pawn of G on its file (it would have to
// push onto that pawn's start square), so G pawns facing each other keep each other
// short of promotion. G is checked like F: a pawn of G must not reach the last rank, no
// enemy unit but the king may ever stand where it would capture, no enemy piece, king or
// free pawn may ever reach or capture onto its squares (en passant included).
// Drop offenders from both and repeat: F and G only shrink, so this ends, at a
// consistent pair; the induction below covers G's assumptions the same way.
//
// Why a consistent pair is sound: consider the first move of any legal game from here
// that moves or takes a unit of F, or takes or moves off its file a pawn of G. Before it
// every assumption held, so (by induction over the moves) every unit stayed inside its
// computed set, so the move is one the consistency check excluded: contradiction. Hence
// the sets bound the whole future.
//
// The verdict it supports: a checkmate needs a check and no flight. If on every square the
// loser's king can ever reach either no unit of the winner can ever give check, or some
// neighbour can never be attacked by the winner nor held by the loser, there is no mate.
// Pawns capture only onto squares where an enemy unit may stand (a least fixed point over
// both colours, so every real capture is included).
#pragma once

#include <optional>

#include "engine/board/position.h"

namespace eboard::engine {

struct BlockedAnalysis {
  static constexpr int kMaxUnits = 15;  // a side's units besides the king
  Bitboard frozen = 0;                  // the largest consistent F (both colours)
  Bitboard frozen_of[2] = {};           // F's units of each colour
  Bitboard king_reach[2] = {};          // squares each king can ever stand on
  Bitboard check_reach[2] = {};         // squares a colour's units but the king can ever attack
  Bitboard cover[2] = {};               // the same plus the king's attacks
  Bitboard occupy[2] = {};              // squares a colour's units but the king can ever hold
  // Each mobile unit (not the king, not in F) of a colour: the squares it can ever hold.
  Bitboard unit_reach[2][kMaxUnits] = {};
  int units[2] = {};
  bool settled = true;  // false: stopped early, no proof (analyse_blocked() with a winner)
  // The side analyse_blocked() was asked about, if any: then only the other side's
  // unit_reach is filled in, and cannot_mate() gives no proof for the other side.
  std::optional<Color> winner;
};

// With `winner` given, the analysis may stop before F, G and the traps settle, once no
// proof for that side is possible any more (`settled` false; cannot_mate() is then
// false): the sets only grow as F, G and the traps shrink, so a mate square open in one
// round stays open (a unit dropped from F can still stand on its square). It stops only
// while the loser has a unit outside F besides its king, so the kings' dance
// (unwinnability_dance.h), which needs every such unit in F, could not apply either.
BlockedAnalysis analyse_blocked(const Position& pos, std::optional<Color> winner = std::nullopt);

// Whether analyse_blocked() is worth its ~1 µs: some pawn has a unit right in front of
// it (every pawn of F needs one). With no pawn in F, F can only be a crowd of pieces
// walling each other in, and with F empty every square is in the winner's cover unless
// it has a lone king (which the material rules already decide). Skipping a proof never
// makes a verdict wrong; at worst it leaves one open.
bool may_be_blocked(const Position& pos);

// True when the analysis proves that `winner` can never mate: on no square the loser's
// king can reach can it be checked with every flight square taken. Each neighbour must be
// attacked by the winner or held by a unit of the loser, and the loser's units are
// counted: a unit stands on one square at a time, so the neighbours the winner can never
// attack need as many distinct units of the loser that can each reach one of them (a
// matching). That is what settles walls of same-coloured bishops: the squares of the
// other colour around the king must all be blocked by the loser's few units that can
// stand there.
bool cannot_mate(const BlockedAnalysis& a, Color winner);

}  // namespace eboard::engine
