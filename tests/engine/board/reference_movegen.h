// A deliberately naive legal-move generator, used only as an oracle: it walks rays one
// square at a time, plays every pseudo-legal move on a copy of the board and keeps it if
// the mover's king is not attacked afterwards. It shares nothing with movegen.cpp but
// the Position's board accessors.
#pragma once

#include <algorithm>
#include <vector>

#include "engine/board/movegen.h"

namespace eboard::engine {

inline std::vector<std::uint16_t> sorted_moves(const MoveList& list) {
  std::vector<std::uint16_t> out;
  for (Move m : list) out.push_back(m.raw());
  std::sort(out.begin(), out.end());
  return out;
}

namespace reference {

using Board = std::array<Piece, 64>;

inline bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

// Is square (f, r) attacked by a piece of colour `by` on board b?
inline bool attacked(const Board& b, int f, int r, Color by) {
  auto at = [&](int ff, int rr) { return on_board(ff, rr) ? b[rr * 8 + ff] : kNoPiece; };
  int pawn_rank = by == kWhite ? r - 1 : r + 1;
  for (int df : {-1, 1})
    if (at(f + df, pawn_rank) == make_piece(by, kPawn)) return true;
  static const int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                         {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  for (auto& d : kKnightSteps)
    if (at(f + d[0], r + d[1]) == make_piece(by, kKnight)) return true;
  for (int df = -1; df <= 1; ++df)
    for (int dr = -1; dr <= 1; ++dr) {
      if (!df && !dr) continue;
      if (at(f + df, r + dr) == make_piece(by, kKing)) return true;
      bool diagonal = df && dr;
      for (int ff = f + df, rr = r + dr; on_board(ff, rr); ff += df, rr += dr) {
        Piece p = b[rr * 8 + ff];
        if (p == kNoPiece) continue;
        if (color_of(p) == by &&
            (type_of(p) == kQueen || type_of(p) == (diagonal ? kBishop : kRook)))
          return true;
        break;
      }
    }
  return false;
}

}  // namespace reference

// `raw_en_passant` is the square a pawn just jumped over (or kNoSquare), whether or not
// a capture onto it is legal: the oracle must not rely on Position's own filtering.
inline std::vector<std::uint16_t> reference_legal_moves(const Position& pos,
                                                        Square raw_en_passant) {
  using namespace reference;
  Board b{};
  for (int s = 0; s < 64; ++s) b[s] = pos.piece_on(Square(s));
  const Color us = pos.side_to_move();
  std::vector<Move> pseudo;
  auto target_ok = [&](int f, int r) {
    Piece p = b[r * 8 + f];
    return p == kNoPiece || (color_of(p) != us && type_of(p) != kKing);
  };
  for (int s = 0; s < 64; ++s) {
    Piece p = b[s];
    if (p == kNoPiece || color_of(p) != us) continue;
    int f = s % 8, r = s / 8;
    auto add = [&](int tf, int tr) { pseudo.emplace_back(Square(s), make_square(tf, tr)); };
    switch (type_of(p)) {
      case kPawn: {
        int dir = us == kWhite ? 1 : -1, last = us == kWhite ? 7 : 0;
        auto add_pawn = [&](int tf, int tr) {
          if (tr == last)
            for (PieceType t : {kKnight, kBishop, kRook, kQueen})
              pseudo.emplace_back(Square(s), make_square(tf, tr), MoveKind::kPromotion, t);
          else
            add(tf, tr);
        };
        if (on_board(f, r + dir) && b[(r + dir) * 8 + f] == kNoPiece) {
          add_pawn(f, r + dir);
          int start = us == kWhite ? 1 : 6;
          if (r == start && b[(r + 2 * dir) * 8 + f] == kNoPiece) add(f, r + 2 * dir);
        }
        for (int df : {-1, 1}) {
          int tf = f + df, tr = r + dir;
          if (!on_board(tf, tr)) continue;
          Piece t = b[tr * 8 + tf];
          if (t != kNoPiece && target_ok(tf, tr)) add_pawn(tf, tr);
          if (make_square(tf, tr) == raw_en_passant)
            pseudo.emplace_back(Square(s), make_square(tf, tr), MoveKind::kEnPassant);
        }
        break;
      }
      case kKnight:
      case kKing: {
        static const int kKnightSteps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                               {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        static const int kKingSteps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                             {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        for (auto& d : type_of(p) == kKnight ? kKnightSteps : kKingSteps)
          if (on_board(f + d[0], r + d[1]) && target_ok(f + d[0], r + d[1]))
            add(f + d[0], r + d[1]);
        break;
      }
      default:
        for (int df = -1; df <= 1; ++df)
          for (int dr = -1; dr <= 1; ++dr) {
            if (!df && !dr) continue;
            bool diagonal = df && dr;
            if (type_of(p) == kBishop && !diagonal) continue;
            if (type_of(p) == kRook && diagonal) continue;
            for (int tf = f + df, tr = r + dr; on_board(tf, tr); tf += df, tr += dr) {
              if (target_ok(tf, tr)) add(tf, tr);
              if (b[tr * 8 + tf] != kNoPiece) break;
            }
          }
    }
  }
  // Castling: the right, empty squares between king and rook, and the king neither in
  // check nor passing or landing on an attacked square.
  int home = us == kWhite ? 0 : 7;
  CastlingRights kingside = us == kWhite ? kWhiteKingside : kBlackKingside;
  CastlingRights queenside = us == kWhite ? kWhiteQueenside : kBlackQueenside;
  auto empty = [&](int f) { return b[home * 8 + f] == kNoPiece; };
  auto safe = [&](int f) { return !attacked(b, f, home, ~us); };
  if (pos.can_castle(kingside) && empty(5) && empty(6) && safe(4) && safe(5) && safe(6))
    pseudo.emplace_back(make_square(4, home), make_square(6, home), MoveKind::kCastling);
  if (pos.can_castle(queenside) && empty(1) && empty(2) && empty(3) && safe(4) && safe(3) &&
      safe(2))
    pseudo.emplace_back(make_square(4, home), make_square(2, home), MoveKind::kCastling);

  std::vector<std::uint16_t> legal;
  for (Move m : pseudo) {
    Board after = b;
    after[m.to()] = after[m.from()];
    after[m.from()] = kNoPiece;
    if (m.kind() == MoveKind::kEnPassant) after[m.to() ^ 8] = kNoPiece;
    if (m.kind() == MoveKind::kPromotion) after[m.to()] = make_piece(us, m.promotion());
    if (m.kind() == MoveKind::kCastling) {
      bool king_side = file_of(m.to()) == 6;
      after[home * 8 + (king_side ? 5 : 3)] = after[home * 8 + (king_side ? 7 : 0)];
      after[home * 8 + (king_side ? 7 : 0)] = kNoPiece;
    }
    int king = int(std::find(after.begin(), after.end(), make_piece(us, kKing)) - after.begin());
    if (!attacked(after, king % 8, king / 8, ~us)) legal.push_back(m.raw());
  }
  std::sort(legal.begin(), legal.end());
  return legal;
}

}  // namespace eboard::engine
