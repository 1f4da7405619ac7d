// PGN game -> sensor script (docs/interfaces.md §2 `eboard-sim script`): the game played the
// way people move pieces on an electronic board, with a seeded noise model.
//
//   clean  one lift and one put per piece (a capture lifts the captured piece first),
//          fixed thinking times, a press 0.3 s after the last put;
//   human  adds both capture orders, castling rook-first or king-first, promotions put
//          down as a pawn and then replaced, pieces set down on a wrong square before
//          landing, a move taken back and replayed (or another tried) before the press,
//          thinking times drawn from a long-tailed distribution;
//   rough  adds sensor flicker (a square reads empty for tens of milliseconds) and
//          pieces knocked over and set back while a player thinks.
//
// With `sensing` kOccupancy the script is what an occupancy-only board reports
// (docs/protocols.md §10: Pegasus, Centaur, Certabo without recognition): every placed piece
// is `?`, and a promotion to anything but a queen gets a `promote` line (docs/interfaces.md §3
// operator lines), since the board cannot show the piece: with `human` and `rough` it
// comes before the move or after the pawn lands, with `clean` after it lands, always
// before the press.
//
// Every variation still leaves exactly the game's move on the board at the press, so a
// correct recognizer reproduces the game move for move. The same options and seed give
// the same script on every platform (the generator draws from a splitmix64 stream of its
// own, not from <random>'s implementation-defined distributions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/game/pgn.h"
#include "simulators/script/statement.h"

namespace eboard::sim {

enum class NoiseModel : std::uint8_t { kClean, kHuman, kRough };
enum class ScriptSensing : std::uint8_t { kPieces, kOccupancy };

struct ScriptGenOptions {
  NoiseModel noise = NoiseModel::kHuman;
  std::uint64_t seed = 1;
  std::string board_id;  // empty: no `board` line
  std::string rules;     // empty: no `rules` line
  std::string clock;     // empty: no `clock` line
  ScriptSensing sensing = ScriptSensing::kPieces;
};

std::optional<NoiseModel> parse_noise_model(std::string_view text);
const char* noise_model_name(NoiseModel noise);

// Header lines (board, rules, clock, start, the game's tags) then the timed lines.
std::vector<script::Statement> generate_script(const engine::PgnGame& game,
                                               const ScriptGenOptions& options);

}  // namespace eboard::sim
