#include "engine/rules/unwinnability_blocked.h"

#include "engine/rules/unit_matching.h"
#include "engine/rules/unwinnability_blocked_steps.h"
#include "engine/rules/unwinnability_stalemate.h"

namespace eboard::engine {
namespace {

using blocked_steps::diag_step;
using blocked_steps::file_fill;
using blocked_steps::king_step;
using blocked_steps::knight_step;
using blocked_steps::orth_step;

// Closure of `from` under single steps into `allowed` squares. A slider's whole reach is
// the closure of its one-square steps when only the pawns of F block (every square of a
// slide is itself reachable).
// (the step is a template argument so that it is inlined into the loop)
template <Bitboard (*step)(Bitboard)>
Bitboard flood(Bitboard from, Bitboard allowed) {
  if (!from) return 0;  // most piece types are absent: skip the step that would show it
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
  Bitboard king = 0;        // squares the king can stand on
  Bitboard pieces = 0;      // squares the mobile pieces (not pawns, not in F) can stand on
  Bitboard pawns = 0;       // squares the pawns not in F can stand on
  Bitboard free_pawns = 0;  // the same for the pawns in neither F nor G
  Bitboard non_king = 0;    // squares any unit but the king can stand on (F included)
  Bitboard checks = 0;      // squares the units but the king can ever attack
  Bitboard cover = 0;       // checks plus the king's attacks
};

Bitboard piece_steps(PieceType type, Square s) {
  return type == kKnight ? knight_attacks(s) : attacks_bb(type, s, ~Bitboard(0));
}

// Squares the units of F of colour c attack, rays stopped by F only (other units may
// move out of the way).
Bitboard frozen_attacks(const Position& pos, Color c, Bitboard frozen) {
  Bitboard attacks = pawn_attacks_of(c, frozen & pos.pieces(c, kPawn));
  for (Bitboard b = frozen & pos.pieces(c) & ~pos.pieces(kPawn, kKing); b;) {
    Square s = pop_lsb(b);
    attacks |= attacks_bb(type_of(pos.piece_on(s)), s, frozen);
  }
  return attacks;
}
// Squares the units of F of colour c (a frozen king included) attack whatever else stands
// on the board.
Bitboard frozen_close_attacks(const Position& pos, Color c, Bitboard frozen) {
  Bitboard attacks = pawn_attacks_of(c, frozen & pos.pieces(c, kPawn));
  for (Bitboard b = frozen & pos.pieces(c) & ~pos.pieces(kPawn); b;) {
    Square s = pop_lsb(b);
    attacks |= piece_steps(type_of(pos.piece_on(s)), s);
  }
  return attacks;
}

// The squares `units` of one kind reach (joined to `reach`) and attack from there (to
// `checks`); an absent kind reaches and attacks nothing: most positions have few kinds.
template <Bitboard (*step)(Bitboard)>
void add_reach(Bitboard units, Bitboard open, Bitboard& reach, Bitboard& checks) {
  if (!units) return;
  const Bitboard r = flood<step>(units, open);
  reach |= r;
  checks |= step(r);
}

Bitboard piece_reach(const Position& pos, Color c, Bitboard frozen, Bitboard* checks) {
  const Bitboard open = ~(frozen & pos.pieces(c));
  const Bitboard mobile = pos.pieces(c) & ~frozen;
  Bitboard reach = 0;
  *checks = 0;
  add_reach<knight_step>(mobile & pos.pieces(kKnight), open, reach, *checks);
  add_reach<diag_step>(mobile & pos.pieces(kBishop), open, reach, *checks);
  add_reach<orth_step>(mobile & pos.pieces(kRook), open, reach, *checks);
  add_reach<king_step>(mobile & pos.pieces(kQueen), open, reach, *checks);
  return reach;
}

// Squares a pawn of c may never push onto: F, and the start square of every enemy pawn
// of G (that pawn stays on its file between there and us, and is never taken, so no
// pawn coming from its far side gets past it; a pawn reaching the file below it by a
// capture is not pushing onto that square).
Bitboard push_walls(const Position& pos, Color c, Bitboard frozen, Bitboard file_bound) {
  return frozen | (file_bound & pos.pieces(~c));
}

// The squares pawns of c standing on `from` reach by pushes alone.
Bitboard push_reach(Color c, Bitboard from, Bitboard walls) {
  return c == kWhite ? file_fill<true>(from, ~walls) : file_fill<false>(from, ~walls);
}

// Pawns of G (`file_bound`) only push; the other mobile pawns push and capture only where
// an enemy unit other than the king may stand: the least fixed point over both colours,
// which contains every square a pawn really reaches while F and G hold. `r` may hold the
// free pawns' squares of an earlier round of analyse_blocked() with larger F and G:
// those lie inside this fixed point (below), so starting from them reaches the same one.
void pawn_reach(const Position& pos, Bitboard frozen, Bitboard file_bound, SideReach (&r)[2]) {
  const Bitboard last_rank[2] = {kRank8, kRank1};
  Bitboard walls[2], bound_reach[2];
  for (Color c : {kWhite, kBlack}) {
    walls[c] = push_walls(pos, c, frozen, file_bound);
    bound_reach[c] = push_reach(c, file_bound & pos.pieces(c), walls[c]);
    r[c].free_pawns |= pos.pieces(c, kPawn) & ~frozen & ~file_bound;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Color c : {kWhite, kBlack}) {
      const Color e = ~c;
      const Bitboard enemy_pawns = r[e].free_pawns | bound_reach[e];
      Bitboard enemy = r[e].pieces | enemy_pawns | (frozen & pos.pieces(e) & ~pos.pieces(kKing));
      if (enemy_pawns & last_rank[e]) enemy = ~Bitboard(0);
      const Bitboard targets = enemy & ~(frozen & pos.pieces(c));
      const Bitboard free = r[c].free_pawns;
      const Bitboard next =
          free | (pawn_push_of(c, free) & ~walls[c]) | (pawn_attacks_of(c, free) & targets);
      if (next != free) {
        r[c].free_pawns = next;
        changed = true;
      }
    }
  }
  for (Color c : {kWhite, kBlack}) r[c].pawns = r[c].free_pawns | bound_reach[c];
}

// `traps`: units of F an enemy king may take only into stalemate (unwinnability_stalemate.h);
// the king never stands there in a game that goes on. `r` holds the previous round's sets
// of analyse_blocked() (or nothing): F, G and the traps only shrink between rounds, which
// only lets units go further (fewer walls, fewer squares a unit of F guards, more mobile
// units; a unit leaving F still counts where it stands, as a mobile unit or pawn of G), so
// every earlier set lies inside the new least fixed point, and a fill started from it
// ends at that same fixed point.
void side_reaches(const Position& pos, Bitboard frozen, Bitboard file_bound, Bitboard traps,
                  SideReach (&r)[2]) {
  Bitboard piece_checks[2];
  for (Color c : {kWhite, kBlack}) r[c].pieces = piece_reach(pos, c, frozen, &piece_checks[c]);
  pawn_reach(pos, frozen, file_bound, r);
  for (Color c : {kWhite, kBlack}) {
    const Bitboard own_frozen = frozen & pos.pieces(c);
    const Bitboard own_frozen_units = own_frozen & ~pos.pieces(kKing);
    const Bitboard last_rank = c == kWhite ? kRank8 : kRank1;
    if (r[c].pawns & last_rank) {  // a promotion may give any piece: anything goes
      r[c].non_king = ~Bitboard(0);
      r[c].checks = ~Bitboard(0);
    } else {
      r[c].non_king = r[c].pieces | r[c].pawns | own_frozen_units;
      r[c].checks =
          piece_checks[c] | pawn_attacks_of(c, r[c].pawns) | frozen_attacks(pos, c, frozen);
    }
    // The king never steps where a unit of F attacks at close range: it is always there.
    // Its own square counts even if attacked now (it may be in check).
    const Bitboard unsafe = frozen_close_attacks(pos, ~c, frozen);
    // (starting from an earlier round's reach, which lies inside this one: below)
    r[c].king = flood<king_step>(pos.pieces(c, kKing) | r[c].king, ~own_frozen & ~unsafe & ~traps);
    r[c].cover = r[c].checks | king_step(r[c].king);
  }
}

// Units of F that could move: a pawn whose push square is not in F, a piece with a step
// to a square not held by its own side's F, a king with a step that is neither held by its
// own side's F nor attacked by the other side's F at close range (it could never stand
// there: that unit is always there). A king in F is walled in for good: its pawns and
// pieces, or an enemy pawn defended by F, stay next to it.
Bitboard movable(const Position& pos, Bitboard frozen) {
  const Bitboard pawns = pos.pieces(kPawn);
  Bitboard out = (frozen & pawns & pos.pieces(kWhite) & ~south(frozen)) |
                 (frozen & pawns & pos.pieces(kBlack) & ~north(frozen));
  for (Bitboard b = frozen & ~pawns; b;) {
    Square s = pop_lsb(b);
    const Color c = color_of(pos.piece_on(s));
    Bitboard blocked = frozen & pos.pieces(c);
    if (type_of(pos.piece_on(s)) == kKing) blocked |= frozen_close_attacks(pos, ~c, frozen);
    if (piece_steps(type_of(pos.piece_on(s)), s) & ~blocked) out |= square_bb(s);
  }
  return out;
}

// Each mobile unit's own reach: a piece floods from its square as in piece_reach(); a
// pawn of G its own pushes (it never promotes); any other pawn the reach of all its
// side's free pawns (a superset of its own), or every square when one of them may
// promote (it may become anything).
void unit_reaches(const Position& pos, Color c, Bitboard frozen, Bitboard file_bound,
                  const SideReach& r, BlockedAnalysis& out) {
  const Bitboard open = ~(frozen & pos.pieces(c));
  const Bitboard last_rank = c == kWhite ? kRank8 : kRank1;
  const Bitboard walls = push_walls(pos, c, frozen, file_bound);
  const Bitboard pawn_reach = (r.pawns & last_rank) ? ~Bitboard(0) : r.free_pawns;
  int n = 0;
  for (Bitboard b = pos.pieces(c) & ~frozen & ~pos.pieces(kKing); b && n < out.kMaxUnits;) {
    const Square s = pop_lsb(b);
    const Bitboard from = square_bb(s);
    Bitboard reach = 0;
    switch (type_of(pos.piece_on(s))) {
      case kPawn: reach = (file_bound & from) ? push_reach(c, from, walls) : pawn_reach; break;
      case kKnight: reach = flood<knight_step>(from, open); break;
      case kBishop: reach = flood<diag_step>(from, open); break;
      case kRook: reach = flood<orth_step>(from, open); break;
      default: reach = flood<king_step>(from, open); break;  // a queen
    }
    out.unit_reach[c][n++] = reach;
  }
  out.units[c] = n;
}

// Pawns of G that break its assumptions: for a pawn q of colour c, the squares S it
// reaches by pushes (F and enemy pawns of G in the way) must not reach the last rank; no
// enemy unit but the king may ever stand where q would capture from S (q would leave
// its file); no enemy piece or king may ever stand on S, nor a free enemy pawn capture
// onto S (q would be taken; en passant onto the square q passed is such a capture); and
// no enemy pawn may land beside S on q's fifth rank (q could take it en passant).
Bitboard file_bound_offenders(const Position& pos, Bitboard frozen, Bitboard file_bound,
                              const SideReach (&r)[2]) {
  Bitboard out = 0;
  for (Color c : {kWhite, kBlack}) {
    if (!(file_bound & pos.pieces(c))) continue;  // no pawn of G to test
    const Color e = ~c;
    const Bitboard walls = push_walls(pos, c, frozen, file_bound);
    const Bitboard last_rank = c == kWhite ? kRank8 : kRank1;
    const Bitboard fifth = c == kWhite ? kRank5 : kRank4;
    const Bitboard landing = r[e].pawns & fifth;
    const Bitboard takers = r[e].pieces | r[e].king | pawn_attacks_of(e, r[e].free_pawns);
    // Each test is "the path meets a bad square" (q captures from p onto t exactly when an
    // enemy pawn on t would capture onto p). A path is q and the squares ahead of it up to
    // the first wall, so q's path meets `bad` exactly when q lies on or behind a bad
    // square with no wall between: a backward fill from the bad squares, all pawns at once.
    const Bitboard bad = last_rank | pawn_attacks_of(e, r[e].non_king) | takers |
                         (fifth & (east(landing) | west(landing)));
    const Bitboard start = bad & ~walls;
    out |= file_bound & pos.pieces(c) &
           (c == kWhite ? file_fill<false>(start, ~walls) : file_fill<true>(start, ~walls));
  }
  return out;
}

// Traps (units of F the enemy king keeps off) that fail the stalemate test: their side
// owns a mobile unit besides the king, or capture_stalemates() says the capture may
// leave it a move or give check. Only the traps next to the enemy king's reach matter.
Bitboard failed_traps(const Position& pos, Bitboard frozen, Bitboard traps,
                      const SideReach (&r)[2]) {
  Bitboard out = 0;
  for (Color c : {kWhite, kBlack}) {
    const Color e = ~c;
    if (!(traps & pos.pieces(c))) continue;  // (saves the king step below)
    const Bitboard exposed = traps & pos.pieces(c) & king_step(r[e].king);
    if (!exposed) continue;
    if (pos.pieces(c) & ~pos.pieces(kKing) & ~frozen) {
      out |= exposed;
      continue;
    }
    const Bitboard last_rank = e == kWhite ? kRank8 : kRank1;
    const bool promotes = (r[e].pawns & last_rank) != 0;
    StalemateTrapInput in;
    in.own_king_reach = r[c].king;
    in.enemy_king_reach = r[e].king;
    in.frozen = frozen;
    in.enemy_diagonal = promotes || pos.pieces(e, kBishop, kQueen);
    in.enemy_orthogonal = promotes || pos.pieces(e, kRook, kQueen);
    for (Bitboard b = exposed; b;) {
      const Square q = pop_lsb(b);
      if (!capture_stalemates(q, in)) out |= square_bb(q);
    }
  }
  return out;
}

}  // namespace

bool may_be_blocked(const Position& pos) {
  const Bitboard occupied = pos.pieces();
  return ((pos.pieces(kWhite, kPawn) & south(occupied)) |
          (pos.pieces(kBlack, kPawn) & north(occupied))) != 0;
}

BlockedAnalysis analyse_blocked(const Position& pos, std::optional<Color> winner) {
  // Kings start in F too (a king that can never move keeps the pawns it blocks and
  // defends in place), except one that may still castle.
  Bitboard frozen = pos.pieces();
  if (pos.can_castle(CastlingRights(kWhiteKingside | kWhiteQueenside)))
    frozen &= ~pos.pieces(kWhite, kKing);
  if (pos.can_castle(CastlingRights(kBlackKingside | kBlackQueenside)))
    frozen &= ~pos.pieces(kBlack, kKing);
  // G: pawns assumed to stay on their files and never be taken (they may push). Like F it
  // only shrinks, and the final pair (F, G) is checked for consistency the same way.
  Bitboard file_bound = pos.pieces(kPawn);
  if (Square ep = pos.en_passant_square(); ep != kNoSquare) {
    // The pawn that just moved two squares and the pawns that may take it are not fixed.
    const Color us = pos.side_to_move();
    const Bitboard involved = (pawn_attacks(~us, ep) & pos.pieces(us, kPawn)) |
                              (us == kWhite ? south(square_bb(ep)) : north(square_bb(ep)));
    frozen &= ~involved;
    file_bound &= ~involved;
  }

  // Traps: units of F whose capture by the enemy king stalemates their side. Like F it
  // only shrinks; a king is never taken.
  Bitboard traps = pos.pieces() & ~pos.pieces(kKing);
  SideReach reach[2];
  const auto result_of = [&]() {
    BlockedAnalysis result;
    result.frozen = frozen;
    result.winner = winner;
    for (Color c : {kWhite, kBlack}) {
      result.frozen_of[c] = frozen & pos.pieces(c);
      result.king_reach[c] = reach[c].king;
      result.check_reach[c] = reach[c].checks;
      result.cover[c] = reach[c].cover;
      result.occupy[c] = reach[c].non_king;
      // cannot_mate() reads only the loser's units (and refuses a proof for the other
      // winner), the dance none: the winner's are not needed.
      if (c != winner) unit_reaches(pos, c, frozen, file_bound & ~frozen, reach[c], result);
    }
    return result;
  };
  for (bool first_round = true;; first_round = false) {
    for (Bitboard m; (m = movable(pos, frozen));) frozen &= ~m;
    side_reaches(pos, frozen, file_bound & ~frozen, traps & frozen, reach);
    Bitboard offenders = 0;
    const Bitboard untrapped = failed_traps(pos, frozen, traps & frozen, reach);
    for (Color c : {kWhite, kBlack}) {
      const Color e = ~c;
      // (a king is never taken, so only the other units of F are checked here)
      const Bitboard mine = frozen & pos.pieces(c) & ~pos.pieces(kKing);
      offenders |= mine & (reach[e].non_king | reach[e].king) & ~(frozen & pos.pieces(e));
      // a pawn of c on p captures to pawn_attacks(c, p): p is among the squares an
      // enemy-coloured pawn standing on those targets would attack
      offenders |= mine & pos.pieces(kPawn) & pawn_attacks_of(e, reach[e].non_king);
      // en passant: an enemy pawn that may land beside ours on our fifth rank
      const Bitboard fifth = c == kWhite ? kRank5 : kRank4;
      const Bitboard landing = reach[e].pawns & fifth;
      offenders |= mine & pos.pieces(kPawn) & fifth & (east(landing) | west(landing));
    }
    const Bitboard unbound = file_bound_offenders(pos, frozen, file_bound & ~frozen, reach);
    if (offenders == 0 && unbound == 0 && untrapped == 0) break;
    // Not settled yet, but if a mate square is already open for the winner it stays open
    // (see analyse_blocked() in the header): no proof, stop here. Skipping this look only
    // delays the same "no proof" (the square stays open to the end, and the dance needs
    // the loser's every unit in F); after the first round it is rarely open yet (on the
    // pass's positions, 1 in 27), so the look starts with the second.
    if (winner && !first_round && (pos.pieces(~*winner) & ~pos.pieces(kKing) & ~frozen)) {
      BlockedAnalysis open = result_of();
      if (!cannot_mate(open, *winner)) {
        open.settled = false;
        return open;
      }
    }
    frozen &= ~offenders;
    file_bound &= ~unbound;
    traps &= ~untrapped;
  }

  return result_of();
}

bool cannot_mate(const BlockedAnalysis& a, Color winner) {
  if (!a.settled || (a.winner && *a.winner != winner)) return false;
  const Color loser = ~winner;
  const Bitboard loser_frozen = a.frozen_of[loser];
  const Bitboard* units = a.unit_reach[loser];
  for (Bitboard b = a.king_reach[loser] & a.check_reach[winner]; b;) {
    const Square s = pop_lsb(b);
    // Mate on s needs every neighbour attacked by the winner or held by the loser. The
    // winner's units but the king may attack anything they ever can; its king stands on
    // one square, two steps from s, and covers only that square's neighbours; the
    // loser's units of F are always there, the others must be distinct units.
    const Bitboard needed = king_attacks(s) & ~a.check_reach[winner] & ~loser_frozen;
    // (cover: the king anywhere in its reach at once; if even that leaves a free flight,
    // no mate on s)
    if ((needed & ~(a.cover[winner] | a.occupy[loser])) != 0) continue;
    if ((needed & ~a.occupy[loser]) == 0 && units_can_hold_all(needed, units, a.units[loser]))
      return false;  // the loser's units alone do it, wherever the winner's king is
    const Bitboard near = king_attacks(s) | square_bb(s);
    const Bitboard ring = king_step(near) & ~near;  // the squares two steps from s
    for (Bitboard w = a.king_reach[winner] & ring; w;) {
      const Bitboard rest = needed & ~king_attacks(pop_lsb(w));
      if ((rest & ~a.occupy[loser]) == 0 && units_can_hold_all(rest, units, a.units[loser]))
        return false;
    }
  }
  return true;
}

}  // namespace eboard::engine
