// Why a stable placement that matches no legal successor is not a legal move (docs/rules.md
// D2, D4; docs/interfaces.md §4 `reason` values).
//
// Runs only off the clean path: when a placement matching nothing has stood for
// `debounce_ms` with no piece in the air, and at a clock press on such a placement. It
// compares the sensed board with the committed position: the squares that emptied
// (origins) and the squares that now hold something else (targets). One origin and one
// target is one piece's move, judged in this order: a piece of the side not on move
// (wrong side), a capture of an own piece or of the king, a castling-shaped king step,
// a pawn left on the last rank (7.5.2), a path the piece cannot take (3.2-3.7), and
// otherwise a pseudo-legal move that is not legal: the own king left in check (3.9).
// Two origins and two targets shaped like castling is castling (3.8.2); a pawn's
// diagonal step with the neighbouring pawn gone is en passant. Anything else is not one
// move away: "board disarranged", with the squares that differ.
//
// Occupancy-only boards (docs/protocols.md §10) show presence, not pieces. The mover is the
// piece the committed position has on the origin; castling and en passant are told by
// their squares as above. What they cannot show: a capture's target (inferred from the
// square lifted last, see analyse_placement), a piece put back on another piece's
// square of the same shape (two pieces swapped reads as nothing changed), an own piece
// captured when a legal capture by the same piece exists (it reads as that capture: the
// occupancy is the same), and a pawn left on the last rank (it reads as a queen).
#pragma once

#include <cstdint>
#include <string>

#include "engine/board/position.h"
#include "engine/recognize/sensed_board.h"
#include "engine/recognize/successor_table.h"

namespace eboard::engine {

// docs/interfaces.md §4 `reason` values (the proto's Reason without the prefix).
enum class IllegalReason : std::uint8_t {
  kPieceMovement,
  kKingInCheck,
  kCastling,
  kWrongSide,
  kOwnPieceCaptured,
  kPromotionIncomplete,
  kKingCaptured,
  kPressWithoutMove,
  kTwoHands,
  kUnexplained,
};

struct IllegalAnalysis {
  IllegalReason reason = IllegalReason::kUnexplained;
  Color side = kWhite;      // who moved (the side on move unless kWrongSide)
  Square from = kNoSquare;  // the moved piece's square, when one move explains it
  Square to = kNoSquare;
  Bitboard differing = 0;   // squares where the board differs from the committed one
  std::string description;  // e.g. "Nf3-g5 leaves the king on e1 in check"
};

// True when the sensed counts say a piece is still in a hand: only removals from the
// committed position, fewer pieces of the side on move, or more than one opposing piece
// gone. Such placements are in transit, not illegal moves (reported only at a press).
bool pieces_in_air(const Position& committed, const SensedBoard& sensed, MatchKeys keys);

// True when the sensed board only lacks pieces of the committed position: nothing was put
// anywhere, so no piece has been released and no move is made (4.7; docs/rules.md §0 "made").
bool only_removals(const Position& committed, const SensedBoard& sensed, MatchKeys keys);

// The squares where the sensed board differs from the committed position.
Bitboard differing_squares(const Position& committed, const SensedBoard& sensed, MatchKeys keys);

// `lifted_victim`: on an occupancy-only board a capture leaves no trace but its origin
// (the victim's square stays occupied), so the recognizer passes the occupied square of
// the committed position lifted last since the completion, or kNoSquare. With one origin
// and nothing else changed it is read as a capture from the origin onto that square
// (judged like any single move); without it that placement is "pieces missing".
IllegalAnalysis analyse_placement(const Position& committed, const SensedBoard& sensed,
                                  MatchKeys keys, Square lifted_victim = kNoSquare);

// "a1 b2 c3": square names of a bitboard, in square order.
std::string square_list(Bitboard squares);

}  // namespace eboard::engine
