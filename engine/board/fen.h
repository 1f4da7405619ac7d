// FEN in and out (Forsyth-Edwards Notation).
//
// Reading accepts 2 to 6 fields; missing ones default to "- - 0 1". Every mistake gets
// a precise message: bad piece letter, a rank that does not sum to 8, missing or extra
// kings, pawns on the first or last rank, the side not to move in check, castling rights
// that the placement contradicts, an impossible en passant square. Positions that only
// an illegal move can reach (the side not to move in check, pawns on the first or last
// rank: docs/rules.md D5, D11) are accepted only with FenMode::kAllowIrregular.
#pragma once

#include <string>
#include <string_view>

#include "engine/board/position.h"
#include "engine/board/position_snapshot.h"
#include "util/result.h"

namespace eboard::engine {

enum class FenMode { kStrict, kAllowIrregular };

inline constexpr std::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

Result<Position> parse_fen(std::string_view fen, FenMode mode = FenMode::kStrict);
std::string to_fen(const Position& pos);
std::string to_fen(const PositionSnapshot& snapshot);
// Only the placement field (what a sensor script's `placement` line carries).
std::string placement_to_fen(const Position& pos);
// FEN letter of a piece ('P', 'n', ...) and back; '\0' / kNoPiece when not a piece.
char piece_to_char(Piece p);
Piece piece_from_char(char c);
// "e4" and back; kNoSquare when not a square name.
std::string square_name(Square s);
Square parse_square(std::string_view name);

}  // namespace eboard::engine
