#include "engine/recognize/sensed_board.h"

#include "engine/board/fen.h"

namespace eboard::engine {

SquareCode square_code_from_char(char c) {
  switch (c) {
    case '.': return kEmptyCode;
    case '?': return kOccupiedCode;
    case '1': return kResultDrawCode;
    case '2': return kResultWhiteCode;
    case '3': return kResultBlackCode;
    default: break;
  }
  const Piece p = piece_from_char(c);
  return p == kNoPiece ? kNoCode : SquareCode(p);
}

char square_code_to_char(SquareCode c) {
  switch (c) {
    case kEmptyCode: return '.';
    case kOccupiedCode: return '?';
    case kResultDrawCode: return '1';
    case kResultWhiteCode: return '2';
    case kResultBlackCode: return '3';
    default: break;
  }
  return is_piece_code(c) ? piece_to_char(Piece(c)) : '\0';
}

Key occupancy_key(const Position& pos) {
  Key k = 0;
  for (Bitboard b = pos.pieces(); b;) k ^= zobrist::occupancy(pop_lsb(b));
  return k;
}

Key occupancy_key_after(const Position& pos, Move m, Key base) {
  Key k = base;
  const Square from = m.from(), to = m.to();
  k ^= zobrist::occupancy(from);
  switch (m.kind()) {
    case MoveKind::kCastling: {
      // The king's step; the rook jumps to the square the king crossed.
      const bool king_side = file_of(to) > file_of(from);
      const Square rook_from = make_square(king_side ? 7 : 0, rank_of(from));
      const Square rook_to = make_square(king_side ? 5 : 3, rank_of(from));
      k ^= zobrist::occupancy(to) ^ zobrist::occupancy(rook_from) ^ zobrist::occupancy(rook_to);
      break;
    }
    case MoveKind::kEnPassant:
      k ^= zobrist::occupancy(to) ^ zobrist::occupancy(make_square(file_of(to), rank_of(from)));
      break;
    default:
      if (pos.empty(to)) k ^= zobrist::occupancy(to);
      break;
  }
  return k;
}

}  // namespace eboard::engine
