// Legal move generation.
//
// Moves are generated fully legal in one pass (no make-and-test): the king's escape
// squares are checked against the opponent's attack map computed with the king lifted
// off the board, pinned pieces move only along the line through their king, a check is
// answered only by king moves, capturing the checker or blocking the line, and the one
// awkward case, the en passant capture that uncovers a rank attack on the king, is
// settled when the en passant square is set (Position keeps it only when legal).
//
// count_legal() runs the same logic but adds popcounts instead of listing moves; perft
// uses it at the last ply ("bulk counting").
#pragma once

#include <cstdint>

#include "engine/board/position.h"

namespace eboard::engine {

// No legal position has more than 218 moves; 256 leaves room for irregular ones.
class MoveList {
 public:
  static constexpr int kCapacity = 256;
  void push(Move m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move operator[](int i) const { return moves_[i]; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  Move moves_[kCapacity];
  int size_ = 0;
};

// Appends every legal move of the side to move (list is cleared first).
void generate_legal(const Position& pos, MoveList& list);
// The number of legal moves, without listing them.
int count_legal(const Position& pos);
// Leaf count of the legal move tree to the given depth (depth 0 is 1).
std::uint64_t perft(Position& pos, int depth);

}  // namespace eboard::engine
