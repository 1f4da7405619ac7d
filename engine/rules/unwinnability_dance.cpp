#include "engine/rules/unwinnability_dance.h"

#include "engine/rules/unwinnability_blocked_steps.h"

namespace eboard::engine {

using blocked_steps::king_step;

// The abstract game is walked one winner's king square at a time: for each square w,
// three sets of loser's king squares (the winner to move; the loser to move after a
// move that gave no check; after one that may have). A state's successors depend on its
// squares alone, so moving whole sets at once reaches exactly the states a walk of
// single states does, and "some reachable state may be a mate" does not depend on the
// order of the walk. Per set:
//   * the loser's king steps from every square of L to king_step(L) within its reach,
//     never onto or next to w;
//   * with the loser to move after a possible check, a square k may be a mate exactly
//     when k is among the winner's checks and no neighbour of k lies in
//     A = reach & ~checks & ~king_attacks(w) (the flights); as king moves are symmetric,
//     that is k outside king_step(A);
//   * a winner's king step w -> t moves the squares of W not on or next to t; it may give
//     check by discovery exactly on the squares a rook (or bishop) on w sees with only
//     F as blockers, with the matching winner's piece type: that is the "no unit of F
//     strictly between, on one line" test.
bool dance_cannot_mate(const Position& pos, const BlockedAnalysis& a, Color winner) {
  if (!a.settled) return false;
  const Color loser = ~winner;
  const Bitboard kings = pos.pieces(kKing);
  if (pos.pieces(loser) & ~kings & ~a.frozen_of[loser]) return false;  // not only king steps
  const bool winner_passes = (pos.pieces(winner) & ~kings & ~a.frozen_of[winner]) != 0;
  const Bitboard checks = a.check_reach[winner];
  const bool promotes = checks == ~Bitboard(0);  // side_reaches(): a promotion may give anything
  const bool diagonal = promotes || pos.pieces(winner, kBishop, kQueen);
  const bool orthogonal = promotes || pos.pieces(winner, kRook, kQueen);
  const Bitboard winner_reach = a.king_reach[winner];
  const Bitboard loser_reach = a.king_reach[loser];

  Bitboard to_move[64] = {};  // the winner to move: the loser's king squares, per w
  Bitboard quiet[64] = {};    // the loser to move, no check possible
  Bitboard checked[64] = {};  // the loser to move, after a move that may have checked
  Bitboard dirty = 0;         // the w whose sets grew since last looked at
  const auto add = [&](Bitboard* sets, Square w, Bitboard squares) {
    if (squares & ~sets[w]) {
      sets[w] |= squares;
      dirty |= square_bb(w);
    }
  };
  const Square wk = pos.king_square(winner), lk = pos.king_square(loser);
  if (pos.side_to_move() == winner)
    add(to_move, wk, square_bb(lk));
  else
    add(pos.in_check() ? checked : quiet, wk, square_bb(lk));

  Bitboard seen_moving[64] = {}, seen_quiet[64] = {}, seen_checked[64] = {};
  while (dirty) {
    const Square w = pop_lsb(dirty);
    const Bitboard near_w = king_attacks(w) | square_bb(w);
    if (const Bitboard fresh = checked[w] & ~seen_checked[w]) {
      const Bitboard flights = loser_reach & ~checks & ~king_attacks(w);
      if (fresh & checks & ~king_step(flights)) return false;  // may be a mate
    }
    const Bitboard loser_new = (checked[w] & ~seen_checked[w]) | (quiet[w] & ~seen_quiet[w]);
    seen_checked[w] = checked[w];
    seen_quiet[w] = quiet[w];
    // (no step and no check: stalemate, the game is over; the empty set adds nothing)
    if (loser_new) add(to_move, w, king_step(loser_new) & loser_reach & ~near_w);
    const Bitboard moving = to_move[w] & ~seen_moving[w];
    if (!moving) continue;
    seen_moving[w] = to_move[w];
    if (winner_passes) add(checked, w, moving);
    const Bitboard discovering =
        (orthogonal ? rook_attacks(w, a.frozen) : 0) | (diagonal ? bishop_attacks(w, a.frozen) : 0);
    for (Bitboard b = king_attacks(w) & winner_reach; b;) {
      const Square t = pop_lsb(b);
      const Bitboard moved = moving & ~(king_attacks(t) | square_bb(t));
      add(checked, t, moved & discovering);
      add(quiet, t, moved & ~discovering);
    }
  }
  return true;
}

}  // namespace eboard::engine
