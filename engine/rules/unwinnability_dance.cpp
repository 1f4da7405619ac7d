#include "engine/rules/unwinnability_dance.h"

#include <array>
#include <vector>

namespace eboard::engine {
namespace {

// One abstract state: the winner's and the loser's king squares, who is to move, and
// whether the last move may have given check (only meaningful with the loser to move).
struct State {
  Square winner_king;
  Square loser_king;
  bool loser_to_move;
  bool check;
};

int index_of(const State& s) {
  return ((int(s.winner_king) * 64 + int(s.loser_king)) * 2 + s.loser_to_move) * 2 + s.check;
}

bool adjacent_or_same(Square a, Square b) { return (king_attacks(a) | square_bb(a)) & square_bb(b); }

}  // namespace

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

  // A winner's king step from `from` may uncover a check of the loser's king on `to`.
  const auto discovers = [&](Square from, Square lk) {
    if (!line_bb(from, lk) || (between_bb(from, lk) & a.frozen)) return false;
    const bool straight = file_of(from) == file_of(lk) || rank_of(from) == rank_of(lk);
    return straight ? orthogonal : diagonal;
  };
  // The loser to move, possibly in check: may it be mated here?
  const auto may_be_mate = [&](Square wk, Square lk) {
    if (!(checks & square_bb(lk))) return false;
    const Bitboard flights = king_attacks(lk) & loser_reach & ~king_attacks(wk) & ~checks;
    return flights == 0;
  };

  std::vector<bool> seen(64 * 64 * 2 * 2, false);
  std::vector<State> todo;
  const auto push = [&](State s) {
    const int i = index_of(s);
    if (!seen[i]) {
      seen[i] = true;
      todo.push_back(s);
    }
  };
  push(State{pos.king_square(winner), pos.king_square(loser), pos.side_to_move() == loser,
             pos.side_to_move() == loser && pos.in_check()});
  while (!todo.empty()) {
    const State s = todo.back();
    todo.pop_back();
    if (s.loser_to_move) {
      if (s.check && may_be_mate(s.winner_king, s.loser_king)) return false;
      for (Bitboard b = king_attacks(s.loser_king) & loser_reach; b;) {
        const Square to = pop_lsb(b);
        if (!adjacent_or_same(s.winner_king, to)) push(State{s.winner_king, to, false, false});
      }
      continue;  // no step and no check: stalemate, the game is over
    }
    if (winner_passes) push(State{s.winner_king, s.loser_king, true, true});
    for (Bitboard b = king_attacks(s.winner_king) & winner_reach; b;) {
      const Square to = pop_lsb(b);
      if (!adjacent_or_same(s.loser_king, to))
        push(State{to, s.loser_king, true, discovers(s.winner_king, s.loser_king)});
    }
  }
  return true;
}

}  // namespace eboard::engine
