// The legal successors of one position and the keys a board would show after each, for
// O(1) lookup of a sensed key (docs/design.md "Incremental recognition").
//
// Built once per committed position (and lazily for a tentative move's position, for
// "two plies without a press"): one legal-move generation plus one key per move, about
// 100-300 ns. Storage is fixed (no allocation per build or lookup): an open-addressing
// table of 512 slots, at most 256 moves, so it is never more than half full.
//
// With occupancy keys different moves can show the same board: the four promotions of
// one pawn, and captures by one piece on different squares (only the piece's square
// empties). Those moves are chained; the recognizer picks among them with what the
// sensors saw on the way (which square was lifted) and, for promotions, the queen.
#pragma once

#include <array>
#include <cstdint>

#include "engine/board/movegen.h"
#include "engine/board/position.h"

namespace eboard::engine {

enum class MatchKeys : std::uint8_t { kPlacement, kOccupancy };

class SuccessorTable {
 public:
  static constexpr int kNone = -1;

  void build(const Position& pos, MatchKeys keys);

  // The first successor whose board has key k, or kNone.
  int find(Key k) const {
    for (unsigned slot = unsigned(k) & kMask;; slot = (slot + 1) & kMask) {
      const std::int16_t i = slots_[slot];
      if (i == kNone) return kNone;
      if (keys_[i] == k) return i;
    }
  }
  // The next successor with the same key as successor i, or kNone.
  int next_same(int i) const { return next_[i]; }
  Move move(int i) const { return moves_[i]; }
  Key key(int i) const { return keys_[i]; }
  const MoveList& moves() const { return moves_; }
  // The key of the position itself (nothing moved).
  Key base_key() const { return base_key_; }

 private:
  static constexpr unsigned kSlots = 512;
  static constexpr unsigned kMask = kSlots - 1;

  MoveList moves_;
  std::array<Key, MoveList::kCapacity> keys_{};
  std::array<std::int16_t, MoveList::kCapacity> next_{};
  std::array<std::int16_t, kSlots> slots_{};
  Key base_key_ = 0;
};

}  // namespace eboard::engine
