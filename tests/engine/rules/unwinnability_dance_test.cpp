// The kings' dance (engine/rules/unwinnability_dance.h; docs/rules.md D10) walks its abstract
// game a whole set of loser's king squares at a time. These tests hold it to a plain walk
// of single states written straight from the header's rules, on every placement of the
// two kings in a few locked structures and on the CHA vectors: a proof the set walk
// gives where the plain walk finds a possible mate would be a wrong draw.
#include "engine/rules/unwinnability_dance.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/rules/unwinnability_blocked.h"
#include "tests/engine/rules/test_fen.h"

namespace eboard::engine {
namespace {

struct State {
  Square winner_king;
  Square loser_king;
  bool loser_to_move;
  bool check;
};

bool adjacent_or_same(Square a, Square b) {
  return (king_attacks(a) | square_bb(a)) & square_bb(b);
}

// The abstract game of the header, one state at a time (depth first, a visited table).
bool reference_dance(const Position& pos, const BlockedAnalysis& a, Color winner) {
  if (!a.settled) return false;
  const Color loser = ~winner;
  const Bitboard kings = pos.pieces(kKing);
  if (pos.pieces(loser) & ~kings & ~a.frozen_of[loser]) return false;
  const bool passes = (pos.pieces(winner) & ~kings & ~a.frozen_of[winner]) != 0;
  const Bitboard checks = a.check_reach[winner];
  const bool promotes = checks == ~Bitboard(0);
  const bool diagonal = promotes || pos.pieces(winner, kBishop, kQueen);
  const bool orthogonal = promotes || pos.pieces(winner, kRook, kQueen);
  const auto discovers = [&](Square from, Square lk) {
    if (!line_bb(from, lk) || (between_bb(from, lk) & a.frozen)) return false;
    const bool straight = file_of(from) == file_of(lk) || rank_of(from) == rank_of(lk);
    return straight ? orthogonal : diagonal;
  };
  std::vector<bool> seen(64 * 64 * 4, false);
  std::vector<State> todo;
  const auto push = [&](State s) {
    const int i = ((s.winner_king * 64 + s.loser_king) * 2 + s.loser_to_move) * 2 + s.check;
    if (!seen[i]) {
      seen[i] = true;
      todo.push_back(s);
    }
  };
  const bool loser_moves = pos.side_to_move() == loser;
  push({pos.king_square(winner), pos.king_square(loser), loser_moves,
        loser_moves && pos.in_check()});
  while (!todo.empty()) {
    const State s = todo.back();
    todo.pop_back();
    if (s.loser_to_move) {
      const Bitboard flights =
          king_attacks(s.loser_king) & a.king_reach[loser] & ~king_attacks(s.winner_king) & ~checks;
      if (s.check && (checks & square_bb(s.loser_king)) && flights == 0) return false;
      for (Bitboard b = king_attacks(s.loser_king) & a.king_reach[loser]; b;) {
        const Square to = pop_lsb(b);
        if (!adjacent_or_same(s.winner_king, to)) push({s.winner_king, to, false, false});
      }
      continue;
    }
    if (passes) push({s.winner_king, s.loser_king, true, true});
    for (Bitboard b = king_attacks(s.winner_king) & a.king_reach[winner]; b;) {
      const Square to = pop_lsb(b);
      if (!adjacent_or_same(s.loser_king, to))
        push({to, s.loser_king, true, discovers(s.winner_king, s.loser_king)});
    }
  }
  return true;
}

struct Tally {
  int proofs = 0;
  int no_proofs = 0;
};

void expect_same(const Position& pos, Color winner, Tally& tally) {
  const BlockedAnalysis a = analyse_blocked(pos);
  const bool want = reference_dance(pos, a, winner);
  ASSERT_EQ(dance_cannot_mate(pos, a, winner), want) << to_fen(pos) << " winner " << int(winner);
  ++(want ? tally.proofs : tally.no_proofs);
}

// Every third placement of the two kings on empty, non-adjacent squares (to stay fast),
// either side to move.
void every_king_placement(const char* structure, Tally& tally) {
  const Position base = fen(structure);
  Piece board[kSquareCount];
  for (int s = 0; s < kSquareCount; ++s) board[s] = base.piece_on(Square(s));
  for (int s = 0; s < kSquareCount; ++s)
    if (type_of(board[s]) == kKing) board[s] = kNoPiece;
  for (int w = 0; w < kSquareCount; ++w) {
    for (int b = 0; b < kSquareCount; ++b) {
      if ((w + b) % 3 || board[w] != kNoPiece || board[b] != kNoPiece ||
          adjacent_or_same(Square(w), Square(b)))
        continue;
      board[w] = make_piece(kWhite, kKing);
      board[b] = make_piece(kBlack, kKing);
      for (Color stm : {kWhite, kBlack}) {
        const Position pos = Position::from_parts(board, stm, kNoCastling, kNoSquare, 0, 1);
        if (pos.is_attacked(pos.king_square(~stm), stm)) continue;  // not to move, in check
        for (Color winner : {kWhite, kBlack}) expect_same(pos, winner, tally);
      }
      board[w] = board[b] = kNoPiece;
    }
  }
}

TEST(KingsDance, SetWalkAgreesWithTheStateWalkOnManyKingPlacements) {
  Tally tally;
  // The header's example, the stalemate shuttle of the blocked tests, a wall of bishops
  // and pawns, and one where a free white bishop may give check at any time.
  for (const char* structure :
       {"8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - -", "8/b7/k6p/5p1P/5p2/5PpK/6P1/8 w - -",
        "2B1B1B1/pBpBpBpB/P1P1P1P1/4k3/8/8/4K3/8 w - -",
        "8/8/1p1p1p1p/1P1P1P1P/8/2B5/8/k6K w - -"}) {
    every_king_placement(structure, tally);
    if (HasFatalFailure()) return;
  }
  // Both answers occur often, so a walk that always says one thing fails.
  EXPECT_GT(tally.proofs, 200);
  EXPECT_GT(tally.no_proofs, 1000);
}

TEST(KingsDance, SetWalkAgreesWithTheStateWalkOnTheChaVectors) {
  std::ifstream in(std::string(EBOARD_SHARED_DIR) + "/data/unwinnability/cha_vectors.txt");
  ASSERT_TRUE(in) << "cha_vectors.txt";
  Tally tally;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const Position pos = fen(line.substr(3));
    for (Color winner : {kWhite, kBlack}) expect_same(pos, winner, tally);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(tally.proofs, 5);
  EXPECT_GT(tally.no_proofs, 100);
}

}  // namespace
}  // namespace eboard::engine
