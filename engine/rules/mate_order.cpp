#include "engine/rules/mate_order.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <iterator>

namespace eboard::engine {
namespace {

int distance(Square a, Square b) { return square_distance(a, b); }

// Squares in front of a colour's pawns (their paths to promotion).
Bitboard front_spans(Color c, Bitboard pawns) {
  Bitboard span = 0;
  for (Bitboard b = c == kWhite ? north(pawns) : south(pawns); b;
       b = c == kWhite ? north(b) : south(b))
    span |= b;
  return span;
}

Bitboard pawn_attacks_of(Color c, Bitboard pawns) {
  return c == kWhite ? pawn_attacks_bb<kWhite>(pawns) : pawn_attacks_bb<kBlack>(pawns);
}

int relative_rank(Color c, Square s) { return c == kWhite ? rank_of(s) : 7 - rank_of(s); }

}  // namespace

MatePhase mate_phase(const Position& pos, Color winner) {
  if (pos.pieces(winner, kQueen, kRook)) return MatePhase::kStrong;
  const Bitboard bishops = pos.pieces(winner, kBishop);
  const int minors = popcount(bishops | pos.pieces(winner, kKnight));
  const bool same_coloured = (bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0;
  if (minors >= 2 && !(pos.pieces(winner, kKnight) == 0 && same_coloured))
    return MatePhase::kStrong;
  return pos.pieces(winner, kPawn) ? MatePhase::kPromote : MatePhase::kBlockers;
}

int corner_candidates(const Position& pos, Color winner, Square (&corners)[4]) {
  static constexpr Square kCorners[4] = {kA1, kH1, kA8, kH8};
  const Square king = pos.king_square(~winner);
  const Bitboard bishops = pos.pieces(winner, kBishop);
  // A lone bishop colour checks only on its colour: the mated king stands there.
  Bitboard wanted = ~Bitboard(0);
  if (mate_phase(pos, winner) == MatePhase::kBlockers && bishops && !pos.pieces(winner, kKnight))
    wanted = (bishops & kDarkSquares) ? kDarkSquares : ~kDarkSquares;
  const Bitboard paths = front_spans(winner, pos.pieces(winner, kPawn));
  int keys[4];
  for (int i = 0; i < 4; ++i) {
    corners[i] = kCorners[i];
    keys[i] = 2 * distance(king, kCorners[i]) + ((wanted & square_bb(kCorners[i])) ? 0 : 32) +
              ((paths & square_bb(kCorners[i])) ? 8 : 0);
  }
  for (int i = 1; i < 4; ++i)  // insertion sort, stable
    for (int j = i; j > 0 && keys[j - 1] > keys[j]; --j) {
      std::swap(keys[j - 1], keys[j]);
      std::swap(corners[j - 1], corners[j]);
    }
  return 4;
}

MoveScorer::MoveScorer(const Position& pos, Color winner, const MatePlan& plan)
    : pos_(pos), winner_(winner), plan_(plan), winner_to_move_(pos.side_to_move() == winner) {
  their_king_ = pos.king_square(~winner);
  paths_ = front_spans(winner, pos.pieces(winner, kPawn));
  if (winner_to_move_) {
    zone_ = king_attacks(their_king_) | square_bb(their_king_);
    if (plan.phase == MatePhase::kPromote) {
      // Clear the way: the loser's unit nearest in front of our pawns.
      const Bitboard blockers = paths_ & pos.pieces(~winner);
      if (blockers)
        promote_target_ =
            winner == kWhite ? lsb(blockers) : Square(63 - std::countl_zero(blockers));
    }
    std::fill(std::begin(from_hits_), std::end(from_hits_), -1);
    if (plan.phase == MatePhase::kBlockers)
      corner_zone_ = king_attacks(plan.corner) | square_bb(plan.corner);
  } else if (plan.phase == MatePhase::kBlockers) {
    blocker_spots_ = king_attacks(plan.corner);
    if (pos.pieces(winner, kBishop)) {
      mate_lines_ = attacks_bb(kBishop, plan.corner, 0);
      check_line_ = blocker_spots_ & mate_lines_;
      blocker_spots_ &= ~check_line_;
    } else {
      mate_lines_ = knight_attacks(plan.corner);
    }
  } else {
    // The winner's attack map (what pos.is_attacked(s, winner) says for every s).
    const Bitboard occupied = pos.pieces();
    attacked_ =
        pawn_attacks_of(winner, pos.pieces(winner, kPawn)) | king_attacks(pos.king_square(winner));
    for (Bitboard b = pos.pieces(winner) & ~pos.pieces(kPawn, kKing); b;) {
      const Square s = pop_lsb(b);
      attacked_ |= attacks_bb(type_of(pos.piece_on(s)), s, occupied);
    }
  }
}

int MoveScorer::zone_hits_from(Square from, PieceType type) {
  if (from_hits_[from] < 0)
    from_hits_[from] = popcount(attacks_bb(type, from, pos_.pieces() ^ square_bb(from)) & zone_);
  return from_hits_[from];
}

int MoveScorer::score(Move m) {
  const Position& pos = pos_;
  const Square from = m.from(), to = m.to();
  const PieceType type = type_of(pos.piece_on(from));
  const bool capture = pos.is_capture(m);
  const MatePlan& plan = plan_;
  int score = 0;
  if (winner_to_move_) {
    if (m.is_promotion()) score += m.promotion() == kQueen ? 400 : -20;
    if (capture) {
      // With a lone minor the loser's units are the blockers, so they are kept; but a
      // queen or rook next to the corner interposes on a bishop's check: take it.
      const PieceType taken = type_of(pos.piece_on(to));
      const bool liability = (taken == kQueen || taken == kRook) && pos.pieces(winner_, kBishop);
      score += plan.phase == MatePhase::kBlockers && !liability ? -30 : 30;
    }
    if (type == kKing) {
      Square target = their_king_;
      if (plan.phase == MatePhase::kPromote) {
        if (promote_target_ != kNoSquare) target = promote_target_;
        score += 10 * (distance(from, target) - distance(to, target));
      } else {
        // Two squares off the mated king; with a lone minor the mate happens in the
        // corner, so the king goes there rather than chasing the loser's king.
        if (plan.phase == MatePhase::kBlockers) {
          // ... where it covers as many of the corner's flight squares as it can.
          target = plan.corner;
          const Bitboard flights = king_attacks(plan.corner);
          score +=
              6 * (popcount(king_attacks(to) & flights) - popcount(king_attacks(from) & flights));
        }
        score += 10 * (std::abs(distance(from, target) - 2) - std::abs(distance(to, target) - 2));
      }
    } else if (type == kPawn) {
      score += plan.phase == MatePhase::kPromote ? 60 + 5 * relative_rank(winner_, to) : 4;
    } else if (plan.phase == MatePhase::kBlockers && their_king_ != plan.corner) {
      // A lone minor mates only once the loser's king sits in the corner with its
      // flights blocked; until then attacking the king's neighbourhood or the corner's
      // only walls the king out. The minor waits out of the way, a knight near the
      // corner (it needs moves to arrive), a bishop anywhere on its diagonals.
      const Bitboard occupied = pos.pieces() ^ square_bb(from);
      const Bitboard keep_free = zone_ | corner_zone_;
      score += 12 * (popcount(attacks_bb(type, from, pos.pieces()) & keep_free) -
                     popcount(attacks_bb(type, to, occupied) & keep_free));
      if (type == kKnight)
        score += 4 * (std::abs(distance(from, plan.corner) - 3) -
                      std::abs(distance(to, plan.corner) - 3));
    } else {
      // Pieces close in (a lone minor checks from afar, so only a little) and, above
      // all, bear on the king and its flight squares.
      const int weight = plan.phase == MatePhase::kBlockers ? 3 : 10;
      score += weight * (distance(from, their_king_) - distance(to, their_king_));
      const Bitboard occupied = pos.pieces() ^ square_bb(from);
      score += 8 * (popcount(attacks_bb(type, to, occupied) & zone_) - zone_hits_from(from, type));
      // With a lone minor and the king in its corner, a check that does not mate (the
      // mate-in-one test ran first) only drives the king out again.
      if (plan.phase == MatePhase::kBlockers &&
          (attacks_bb(type, to, occupied) & square_bb(their_king_)))
        score -= 60;
    }
    return score;
  }
  // The loser.
  if (capture) score -= 40;  // keep the winner's material
  if (m.is_promotion()) {
    // A blocker should block, not attack the squares the winner's king needs: a knight
    // or bishop first, a queen last. Against a lone bishop, a bishop of the other colour
    // is the ideal blocker: it can never interpose on the check nor take the checker.
    score += plan.phase == MatePhase::kBlockers ? 70 - 5 * int(m.promotion() - kKnight) : -10;
    if (plan.phase == MatePhase::kBlockers && m.promotion() == kBishop && mate_lines_ &&
        pos.pieces(winner_, kBishop) &&
        ((square_bb(to) & kDarkSquares) != 0) !=
            ((pos.pieces(winner_, kBishop) & kDarkSquares) != 0))
      score += 20;
  }
  if (type == kKing) {
    score += 10 * (distance(from, plan.corner) - distance(to, plan.corner));
  } else if (type == kPawn) {
    // A pawn already walling a flight square of the corner stays there. The others
    // push, but by less than a king step scores: when every push outscored the king,
    // each line promoted all the pawns before the king set off for its corner.
    if (plan.phase == MatePhase::kBlockers)
      score += (blocker_spots_ & square_bb(from)) ? -120 : to == plan.corner ? -60 : 8;
    else
      score += 3;
  } else if (plan.phase == MatePhase::kBlockers) {
    // Blockers gather next to the corner the king is going to (not in it), on the
    // squares a bishop's check does not run through (the orthogonal neighbours).
    if (blocker_spots_ & square_bb(to)) score += 30;
    if (blocker_spots_ & square_bb(from)) score -= 30;
    // A unit on the check's line into the corner would shield the king: it leaves.
    if (check_line_ & square_bb(from)) score += 20;
    if (check_line_ & square_bb(to)) score -= 20;
    // Once every blocker spot is taken, the other units only get in the way: away from
    // the squares the minor checks on or through (they would take it or interpose).
    if ((blocker_spots_ & ~pos.pieces(~winner_)) == 0) {
      const Bitboard occupied = pos.pieces() ^ square_bb(from);
      score += 8 * (popcount(attacks_bb(type, from, pos.pieces()) & mate_lines_) -
                    popcount(attacks_bb(type, to, occupied) & mate_lines_));
    } else {
      score += 3 * (distance(from, plan.corner) - distance(to, plan.corner));
    }
  } else {
    const Square own_king = pos.king_square(pos.side_to_move());
    if (paths_ & square_bb(from) && !(paths_ & square_bb(to))) score += 20;  // out of the way
    if (attacked_ & square_bb(to)) score += 12;                              // given away
    score += 2 * (distance(from, own_king) - distance(to, own_king));
  }
  return score;
}

int score_move(const Position& pos, Move m, Color winner, const MatePlan& plan) {
  return MoveScorer(pos, winner, plan).score(m);
}

}  // namespace eboard::engine
