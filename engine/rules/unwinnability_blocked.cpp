#include "engine/rules/unwinnability_blocked.h"

namespace eboard::engine {
namespace {

constexpr Bitboard kFileB = kFileA << 1;
constexpr Bitboard kFileG = kFileA << 6;

Bitboard orth_step(Bitboard b) { return north(b) | south(b) | east(b) | west(b); }
Bitboard diag_step(Bitboard b) {
  return north_east(b) | north_west(b) | south_east(b) | south_west(b);
}
Bitboard king_step(Bitboard b) { return orth_step(b) | diag_step(b); }
Bitboard knight_step(Bitboard b) {
  const Bitboard not_a = ~kFileA, not_h = ~kFileH;
  const Bitboard not_ab = ~(kFileA | kFileB), not_gh = ~(kFileG | kFileH);
  return ((b & not_h) << 17) | ((b & not_a) << 15) | ((b & not_gh) << 10) | ((b & not_ab) << 6) |
         ((b & not_a) >> 17) | ((b & not_h) >> 15) | ((b & not_ab) >> 10) | ((b & not_gh) >> 6);
}

// Closure of `from` under single steps into `allowed` squares. A slider's whole reach is
// the closure of its one-square steps when only the pawns of F block (every square of a
// slide is itself reachable).
template <class Step>
Bitboard flood(Bitboard from, Bitboard allowed, Step step) {
  Bitboard reach = from;
  for (;;) {
    Bitboard next = reach | (step(reach) & allowed);
    if (next == reach) return reach;
    reach = next;
  }
}

Bitboard pawn_attacks_of(Color c, Bitboard pawns) {
  return c == kWhite ? pawn_attacks_bb<kWhite>(pawns) : pawn_attacks_bb<kBlack>(pawns);
}
Bitboard pawn_push_of(Color c, Bitboard pawns) { return c == kWhite ? north(pawns) : south(pawns); }

struct SideReach {
  Bitboard king = 0;      // squares the king can stand on
  Bitboard non_king = 0;  // squares other units can stand on
  Bitboard checks = 0;    // squares other units (and the frozen pawns) attack
  Bitboard pawns = 0;     // squares the pawns not in F can stand on
};

SideReach side_reach(const Position& pos, Color c, Bitboard frozen) {
  SideReach r;
  const Bitboard own_frozen = frozen & pos.pieces(c);
  const Bitboard enemy_frozen = frozen & pos.pieces(~c);
  const Bitboard open = ~own_frozen;

  Bitboard pawns = pos.pieces(c, kPawn) & ~frozen;
  Bitboard pawn_reach = pawns;
  for (;;) {  // pushes stop at any pawn of F; captures may go anywhere but own pawns of F
    Bitboard next = pawn_reach | (pawn_push_of(c, pawn_reach) & ~frozen) |
                    (pawn_attacks_of(c, pawn_reach) & open);
    if (next == pawn_reach) break;
    pawn_reach = next;
  }
  const Bitboard last_rank = c == kWhite ? kRank8 : kRank1;
  if (pawn_reach & last_rank) {  // a promotion may give any piece: everything is possible
    r.non_king = open;
    r.checks = ~Bitboard(0);
    r.pawns = pawn_reach;
  } else {
    r.non_king |= pawn_reach;
    r.checks |= pawn_attacks_of(c, pawn_reach);
    r.pawns = pawn_reach;
  }

  Bitboard knights = flood(pos.pieces(c, kKnight), open, knight_step);
  Bitboard bishops = flood(pos.pieces(c, kBishop), open, diag_step);
  Bitboard rooks = flood(pos.pieces(c, kRook), open, orth_step);
  Bitboard queens = flood(pos.pieces(c, kQueen), open, king_step);
  r.non_king |= knights | bishops | rooks | queens;
  r.checks |= knight_step(knights) | diag_step(bishops) | orth_step(rooks) | king_step(queens) |
              pawn_attacks_of(c, own_frozen);

  // The king never steps onto a square an enemy pawn of F attacks: that pawn is always
  // there. Its own square counts even if attacked now (it may be in check).
  const Bitboard unsafe = pawn_attacks_of(~c, enemy_frozen);
  r.king = flood(pos.pieces(c, kKing), open & ~unsafe, king_step);
  return r;
}

// Pawns of F whose own push square is not in F could push some day.
Bitboard drop_pushable(Bitboard frozen, Bitboard white_pawns, Bitboard black_pawns) {
  for (;;) {
    Bitboard keep = (frozen & white_pawns & south(frozen)) | (frozen & black_pawns & north(frozen));
    if (keep == frozen) return frozen;
    frozen = keep;
  }
}

}  // namespace

BlockedAnalysis analyse_blocked(const Position& pos) {
  const Bitboard white_pawns = pos.pieces(kWhite, kPawn);
  const Bitboard black_pawns = pos.pieces(kBlack, kPawn);
  const Bitboard all_pawns = white_pawns | black_pawns;
  Bitboard frozen = (white_pawns & south(all_pawns)) | (black_pawns & north(all_pawns));
  if (Square ep = pos.en_passant_square(); ep != kNoSquare) {
    // The pawn that just moved two squares and the pawns that may take it are not fixed.
    const Color us = pos.side_to_move();
    frozen &= ~(pawn_attacks(~us, ep) & pos.pieces(us, kPawn));
    frozen &= ~(us == kWhite ? south(square_bb(ep)) : north(square_bb(ep)));
  }

  SideReach reach[2];
  for (;;) {
    frozen = drop_pushable(frozen, white_pawns, black_pawns);
    reach[kWhite] = side_reach(pos, kWhite, frozen);
    reach[kBlack] = side_reach(pos, kBlack, frozen);
    Bitboard offenders = 0;
    for (Color c : {kWhite, kBlack}) {
      const Color e = ~c;
      const Bitboard mine = frozen & pos.pieces(c);
      const Bitboard enemy_units = reach[e].non_king | (frozen & pos.pieces(e));
      offenders |= mine & (reach[e].non_king | reach[e].king);  // could be taken
      // could capture: a pawn of c on p captures to pawn_attacks(c, p); p is among the
      // squares an enemy-coloured pawn on those squares would attack.
      offenders |= mine & pawn_attacks_of(e, enemy_units);
      // en passant: an enemy pawn that may land beside ours on our fifth rank
      const Bitboard fifth = c == kWhite ? kRank5 : kRank4;
      const Bitboard landing = reach[e].pawns & fifth;
      offenders |= mine & fifth & (east(landing) | west(landing));
    }
    if (offenders == 0) break;
    frozen &= ~offenders;
  }

  BlockedAnalysis result;
  result.frozen_pawns = frozen;
  for (Color c : {kWhite, kBlack}) {
    result.king_reach[c] = reach[c].king;
    result.check_reach[c] = reach[c].checks;
  }
  return result;
}

}  // namespace eboard::engine
