// Move notation: UCI ("e2e4", "e7e8q", castling as the king's step "e1g1") and SAN
// ("Nbd7", "exd6", "O-O", "e8=Q+", "Qh4#"), both ways.
//
// Reading SAN is lenient in the ways real PGN files and people are: "0-0" for "O-O",
// "e8Q" and "e8(Q)" for "e8=Q", a missing or extra "+"/"#", annotation marks ("!", "?")
// after the move, superfluous disambiguation. It is strict where it matters: the move
// must be legal and unambiguous, or the error says which it is not.
#pragma once

#include <string>
#include <string_view>

#include "engine/board/movegen.h"
#include "engine/board/position.h"
#include "util/result.h"

namespace eboard::engine {

std::string to_uci(Move m);
// The legal move with that UCI text, or an error naming why not.
Result<Move> parse_uci(const Position& pos, std::string_view text);
// SAN of a legal move, with "+" or "#".
std::string to_san(const Position& pos, Move m);
// The same, with the position's legal moves already generated (saves a generation when
// the caller has them, as the PGN writer does).
std::string to_san(const Position& pos, Move m, const MoveList& legal);
Result<Move> parse_san(const Position& pos, std::string_view text);

}  // namespace eboard::engine
