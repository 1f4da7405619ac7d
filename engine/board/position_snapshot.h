// PositionSnapshot: a position as an event reports it - what FEN says (placement, side
// to move, castling rights, en passant square, move counters) and nothing more.
//
// Events carry positions (the position after a move, the one to set back, the start) to
// the edges that show them as FEN (daemon/event_mapping.cpp) or play on from them (the
// PGN recorder). A Position would do, but it keeps the history repetitions need, so a
// copy per event would allocate and grow with the game; the snapshot is 72 bytes.
#pragma once

#include <array>
#include <string>

#include "engine/board/position.h"
#include "engine/board/types.h"

namespace eboard::engine {

struct PositionSnapshot {
  std::array<Piece, kSquareCount> board{};
  Color side_to_move = kWhite;
  CastlingRights castling = kNoCastling;
  Square en_passant = kNoSquare;  // only where a capture is legal, as in Position
  int halfmove_clock = 0;
  int fullmove_number = 1;

  bool operator==(const PositionSnapshot&) const = default;
};

PositionSnapshot snapshot_of(const Position& pos);
// The Position the snapshot describes, with no history before it.
Position position_of(const PositionSnapshot& snapshot);

}  // namespace eboard::engine
