#include "engine/board/position_snapshot.h"

namespace eboard::engine {

PositionSnapshot snapshot_of(const Position& pos) {
  PositionSnapshot s;
  for (int sq = 0; sq < kSquareCount; ++sq) s.board[sq] = pos.piece_on(Square(sq));
  s.side_to_move = pos.side_to_move();
  s.castling = pos.castling_rights();
  s.en_passant = pos.en_passant_square();
  s.halfmove_clock = pos.halfmove_clock();
  s.fullmove_number = pos.fullmove_number();
  return s;
}

Position position_of(const PositionSnapshot& s) {
  Piece board[kSquareCount];
  for (int sq = 0; sq < kSquareCount; ++sq) board[sq] = s.board[sq];
  return Position::from_parts(board, s.side_to_move, s.castling, s.en_passant, s.halfmove_clock,
                              s.fullmove_number);
}

}  // namespace eboard::engine
