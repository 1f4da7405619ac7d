#include "engine/recognize/successor_table.h"

#include <algorithm>

#include "engine/recognize/sensed_board.h"

namespace eboard::engine {

void SuccessorTable::build(const Position& pos, MatchKeys keys) {
  generate_legal(pos, moves_);
  std::fill(slots_.begin(), slots_.end(), std::int16_t(kNone));
  const bool occupancy = keys == MatchKeys::kOccupancy;
  base_key_ = occupancy ? occupancy_key(pos) : pos.placement_key();
  for (int i = 0; i < moves_.size(); ++i) {
    const Move m = moves_[i];
    const Key k = occupancy ? occupancy_key_after(pos, m, base_key_) : pos.placement_key_after(m);
    keys_[i] = k;
    next_[i] = kNone;
    for (unsigned slot = unsigned(k) & kMask;; slot = (slot + 1) & kMask) {
      std::int16_t& s = slots_[slot];
      if (s == kNone) {
        s = std::int16_t(i);
        break;
      }
      if (keys_[s] == k) {  // same board: chain behind the first
        int last = s;
        while (next_[last] != kNone) last = next_[last];
        next_[last] = std::int16_t(i);
        break;
      }
    }
  }
}

}  // namespace eboard::engine
