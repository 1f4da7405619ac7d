// The demo of docs/interfaces.md §2 (eboardd without --board): one real game, built into the
// program as PGN, turned into a sensor script that the DGT emulator plays on a
// pseudo-terminal, so the demo runs the very path a real board takes.
//
// The game: Seirawan - Ivanchuk, FIDE World Championship knock-out, Groningen 1997,
// round 2.1, 1-0 (from ../shared/data/pgn/world_championship_matches_1886-2008.pgn).
// The players' hands are "clean": each move is lifts then puts, then the clock press,
// after a thinking time drawn from a fixed sequence (same input, same output). After the
// last move White's result piece goes on an empty square (the DGT result gesture,
// docs/protocols.md §1.6), which ends the game on the board.
#pragma once

#include <string>

#include "util/result.h"

namespace eboard::daemon {

// The PGN text of the demo game.
const char* demo_game_pgn();
// The sensor script (docs/interfaces.md §3) that plays it, board id `demo`.
Result<std::string> demo_script();

}  // namespace eboard::daemon
