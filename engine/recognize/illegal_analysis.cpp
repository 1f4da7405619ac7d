#include "engine/recognize/illegal_analysis.h"

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

namespace eboard::engine {
namespace {

const char* piece_name(PieceType t) {
  static constexpr const char* kNames[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
  return kNames[t];
}

const char* color_name(Color c) { return c == kWhite ? "White" : "Black"; }

// "Nf3-g5", "e2-e4" (pawns without a letter, as in long algebraic notation).
std::string move_text(Piece p, Square from, Square to) {
  std::string s;
  if (type_of(p) != kPawn) s += char(piece_to_char(make_piece(kWhite, type_of(p))));
  return s + square_name(from) + "-" + square_name(to);
}

// The sensed piece on s, judged against the committed one (occupancy boards sense only
// presence, so an occupied square there holds "the same" piece as before).
bool same_as_committed(const Position& pos, const SensedBoard& sensed, Square s, MatchKeys keys) {
  if (keys == MatchKeys::kOccupancy) return occupies(sensed.at(s)) == !pos.empty(s);
  const SquareCode c = sensed.at(s);
  if (c == kOccupiedCode) return false;  // unknown on a piece-sensing board: differs
  return (is_piece_code(c) ? Piece(c) : kNoPiece) == pos.piece_on(s);
}

Square castling_rook_from(Square king_to) {
  return make_square(file_of(king_to) == 6 ? 7 : 0, rank_of(king_to));
}
Square castling_rook_to(Square king_to) {
  return make_square(file_of(king_to) == 6 ? 5 : 3, rank_of(king_to));
}

bool is_castling_step(const Position& pos, Square from, Square to) {
  const Piece k = pos.piece_on(from);
  if (type_of(k) != kKing) return false;
  const Square home = color_of(k) == kWhite ? kE1 : kE8;
  return from == home && rank_of(to) == rank_of(from) && (file_of(to) == 6 || file_of(to) == 2);
}

// Why castling from the committed position with the king going to `to` is not legal.
IllegalAnalysis judge_castling(const Position& pos, Square from, Square to) {
  IllegalAnalysis a;
  a.reason = IllegalReason::kCastling;
  a.side = color_of(pos.piece_on(from));
  a.from = from;
  a.to = to;
  const bool king_side = file_of(to) == 6;
  const CastlingRights right = a.side == kWhite ? (king_side ? kWhiteKingside : kWhiteQueenside)
                                                : (king_side ? kBlackKingside : kBlackQueenside);
  const std::string what = std::string(king_side ? "O-O" : "O-O-O");
  const Square rook_from = castling_rook_from(to);
  if (!pos.can_castle(right)) {
    a.description = what + " is no longer allowed: the king or that rook has moved";
  } else if (between_bb(from, rook_from) & pos.pieces()) {
    a.reason = IllegalReason::kPieceMovement;
    a.description = what + " with pieces between the king and the rook";
  } else if (pos.in_check() && pos.side_to_move() == a.side) {
    a.description = what + " while in check";
  } else {
    a.description = what + " through or onto an attacked square";
  }
  return a;
}

// Can the piece on `from` reach `to` by its own movement in the committed position?
bool reachable(const Position& pos, Square from, Square to) {
  const Piece p = pos.piece_on(from);
  const Color c = color_of(p);
  if (type_of(p) != kPawn) return attacks_bb(type_of(p), from, pos.pieces()) & square_bb(to);
  const int forward = c == kWhite ? 8 : -8;
  const int start_rank = c == kWhite ? 1 : 6;
  if (pos.empty(to) && int(to) == from + forward) return true;
  if (pos.empty(to) && rank_of(from) == start_rank && int(to) == from + 2 * forward &&
      pos.empty(Square(from + forward)))
    return true;
  return (pawn_attacks(c, from) & square_bb(to)) && !pos.empty(to) &&
         color_of(pos.piece_on(to)) != c;
}

// One piece moved from `from` to `to` (arrived as `arrived`, kNoPiece when unknown).
IllegalAnalysis judge_single(const Position& pos, Square from, Square to, Piece arrived) {
  IllegalAnalysis a;
  const Piece p = pos.piece_on(from);
  a.side = color_of(p);
  a.from = from;
  a.to = to;
  const std::string text = move_text(p, from, to);
  const Piece victim = pos.piece_on(to);
  const int last_rank = a.side == kWhite ? 7 : 0;
  if (a.side != pos.side_to_move()) {
    a.reason = IllegalReason::kWrongSide;
    a.description = std::string(color_name(a.side)) + " moved " + text + " but " +
                    color_name(pos.side_to_move()) + " is to move";
  } else if (victim != kNoPiece && color_of(victim) == a.side) {
    a.reason = IllegalReason::kOwnPieceCaptured;
    a.description = text + " takes its own " + piece_name(type_of(victim));
  } else if (victim != kNoPiece && type_of(victim) == kKing) {
    a.reason = IllegalReason::kKingCaptured;
    a.description = text + " captures the king";
  } else if (is_castling_step(pos, from, to)) {
    if (pos.is_legal(Move(from, to, MoveKind::kCastling))) {
      a.reason = IllegalReason::kCastling;
      a.description = "castling unfinished: the rook on " + square_name(castling_rook_from(to)) +
                      " has not moved";
    } else {
      a = judge_castling(pos, from, to);
    }
  } else if (!reachable(pos, from, to)) {
    a.reason = IllegalReason::kPieceMovement;
    a.description = std::string("the ") + piece_name(type_of(p)) + " cannot move " + text;
  } else if (type_of(p) == kPawn && rank_of(to) == last_rank &&
             (arrived == kNoPiece || type_of(arrived) == kPawn)) {
    a.reason = IllegalReason::kPromotionIncomplete;
    a.description = text + ": the pawn on the last rank has not been replaced";
  } else {
    a.reason = IllegalReason::kKingInCheck;
    const Square king = type_of(p) == kKing ? to : pos.king_square(a.side);
    a.description = text + " leaves the king on " + square_name(king) + " in check";
  }
  return a;
}

}  // namespace

Bitboard differing_squares(const Position& committed, const SensedBoard& sensed, MatchKeys keys) {
  Bitboard diff = 0;
  for (int s = 0; s < kSquareCount; ++s)
    if (!same_as_committed(committed, sensed, Square(s), keys)) diff |= square_bb(Square(s));
  return diff;
}

bool only_removals(const Position& committed, const SensedBoard& sensed, MatchKeys keys) {
  const Bitboard sensed_occupied = sensed.occupied();
  return (differing_squares(committed, sensed, keys) & sensed_occupied) == 0 &&
         (committed.pieces() & ~sensed_occupied) != 0;
}

bool pieces_in_air(const Position& committed, const SensedBoard& sensed, MatchKeys keys) {
  const Bitboard sensed_occupied = sensed.occupied();
  const Bitboard vacated = committed.pieces() & ~sensed_occupied;
  const Bitboard arrived = differing_squares(committed, sensed, keys) & sensed_occupied;
  if (arrived == 0) return vacated != 0;
  if (keys == MatchKeys::kOccupancy) return false;
  const Color us = committed.side_to_move();
  return sensed.color_count(us) < popcount(committed.pieces(us)) ||
         sensed.color_count(~us) < popcount(committed.pieces(~us)) - 1;
}

IllegalAnalysis analyse_placement(const Position& pos, const SensedBoard& sensed, MatchKeys keys,
                                  Square lifted_victim) {
  const Bitboard diff = differing_squares(pos, sensed, keys);
  const Bitboard origins = diff & pos.pieces() & ~sensed.occupied();
  const Bitboard targets = diff & sensed.occupied();
  const auto arrived_at = [&](Square s) {
    const SquareCode c = sensed.at(s);
    return is_piece_code(c) ? Piece(c) : kNoPiece;
  };
  IllegalAnalysis a;
  if (popcount(origins) == 1 && popcount(targets) == 1) {
    const Square from = lsb(origins), to = lsb(targets);
    const Piece p = pos.piece_on(from), q = arrived_at(to);
    const bool promotes = type_of(p) == kPawn && q != kNoPiece && color_of(q) == color_of(p) &&
                          type_of(q) != kPawn && type_of(q) != kKing &&
                          rank_of(to) == (color_of(p) == kWhite ? 7 : 0);
    if (keys == MatchKeys::kOccupancy || q == p || promotes) a = judge_single(pos, from, to, q);
  } else if (popcount(origins) == 2 && popcount(targets) == 2) {
    for (Bitboard b = origins; b;) {
      const Square k = pop_lsb(b);
      if (type_of(pos.piece_on(k)) != kKing) continue;
      for (Bitboard t = targets; t;) {
        const Square to = pop_lsb(t);
        if (is_castling_step(pos, k, to) && (origins & square_bb(castling_rook_from(to))) &&
            (targets & square_bb(castling_rook_to(to))))
          a = judge_castling(pos, k, to);
      }
    }
  } else if (keys == MatchKeys::kOccupancy && popcount(origins) == 1 && targets == 0 &&
             lifted_victim != kNoSquare && lifted_victim != lsb(origins) &&
             occupies(sensed.at(lifted_victim)) && !pos.empty(lifted_victim)) {
    a = judge_single(pos, lsb(origins), lifted_victim, kNoPiece);
    a.description += " (occupancy-only board: the capture is inferred from the square lifted last)";
  } else if (popcount(origins) == 2 && popcount(targets) == 1) {
    const Square to = lsb(targets);
    for (Bitboard b = origins; b;) {
      const Square from = pop_lsb(b);
      const Piece p = pos.piece_on(from);
      const Square beside = make_square(file_of(to), rank_of(from));
      const bool same_pawn = arrived_at(to) == p || keys == MatchKeys::kOccupancy;
      if (type_of(p) == kPawn && same_pawn && (pawn_attacks(color_of(p), from) & square_bb(to)) &&
          (origins & square_bb(beside)) &&
          pos.piece_on(beside) == make_piece(~color_of(p), kPawn)) {
        a.reason = color_of(p) == pos.side_to_move() ? IllegalReason::kPieceMovement
                                                     : IllegalReason::kWrongSide;
        a.side = color_of(p);
        a.from = from;
        a.to = to;
        a.description = move_text(p, from, to) + " en passant is not possible now";
      }
    }
  }
  a.differing = diff;
  if (a.from == kNoSquare && a.reason == IllegalReason::kUnexplained) {
    a.side = pos.side_to_move();
    a.description = targets == 0
                        ? "board disarranged: pieces missing from " + square_list(diff)
                        : "board disarranged: " + square_list(diff) + " differ from the position";
  }
  return a;
}

std::string square_list(Bitboard squares) {
  std::string s;
  for (Bitboard b = squares; b;) {
    if (!s.empty()) s += ' ';
    s += square_name(pop_lsb(b));
  }
  return s;
}

}  // namespace eboard::engine
