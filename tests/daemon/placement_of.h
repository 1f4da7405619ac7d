// What a board reports for a position, for tests that drive a BoardSession directly:
// the pieces of `fen`, or '?' on every occupied square for a board that senses
// occupancy only (docs/protocols.md §10).
#pragma once

#include <string_view>

#include "drivers/sensor_event.h"
#include "engine/board/fen.h"

namespace eboard::daemon::testing_support {

inline drivers::Placement placement_of(std::string_view fen, bool occupancy_only = false) {
  const engine::Position pos = engine::parse_fen(fen).value();
  drivers::Placement p{};
  for (int s = 0; s < 64; ++s) {
    const engine::Piece piece = pos.piece_on(engine::Square(s));
    if (piece == engine::kNoPiece)
      p[s] = drivers::Piece::kEmpty;
    else
      p[s] = occupancy_only ? drivers::Piece::kOccupied
                            : *drivers::piece_from_letter(engine::piece_to_char(piece));
  }
  return p;
}

}  // namespace eboard::daemon::testing_support
