// Stalemate traps for the blocked-structure proof (unwinnability_blocked.h).
//
// Some locked structures open only by a king taking a pawn it can reach, yet that very
// capture leaves the other side without a legal move: `8/b7/k6p/5p1P/5p2/5PpK/6P1/8`,
// where Black's king can take g2 only while White's king stands on h4, and then White's
// king (its only mobile unit) has nowhere to go. The game ends there in stalemate, so a
// mate can only come in games where that capture never happens, and the proof may keep
// the pawn in F and the capturing king off its square.
//
// The test is for one capture: side c's unit of F on q taken by the enemy king, with c
// owning nothing mobile but its king (the caller checks that). Then c is stalemated when:
//   * wherever c's king stands (any square of its reach not next to q, as kings never
//     touch), each of its steps inside its reach is next to q (the capturing king guards
//     it). c's units of F stay blocked: q now holds the enemy king, and the square the
//     enemy king left never blocked a unit of F (it was not in F).
//   * c is not in check: a king never checks, and a discovered check needs the square the
//     enemy king left on a line to c's king with no unit of F between, and an enemy
//     piece that moves along such lines (bishop, rook or queen, or a promotion).
// Sound because the sets used bound every position before the first move that breaks F
// (the induction of unwinnability_blocked.h).
#pragma once

#include "engine/board/bitboard.h"

namespace eboard::engine {

struct StalemateTrapInput {
  Bitboard own_king_reach = 0;    // squares c's king can ever stand on
  Bitboard enemy_king_reach = 0;  // squares the enemy king can stand on before the capture
  Bitboard frozen = 0;            // F, both colours
  bool enemy_diagonal = true;     // the enemy may ever have a bishop or queen
  bool enemy_orthogonal = true;   // the enemy may ever have a rook or queen
};

// True when the enemy king taking c's unit on q always leaves c stalemated (see above).
bool capture_stalemates(Square q, const StalemateTrapInput& in);

}  // namespace eboard::engine
