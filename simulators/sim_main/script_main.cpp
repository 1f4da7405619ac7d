// `eboard-sim script --pgn FILE [--game K] [--seed S] [--noise clean|human|rough]
// [--clock TC] [--rules NAME] [--board NAME] [--sensing pieces|occupancy]` (docs/interfaces.md
// §2): writes a sensor script playing one game of a PGN file.
#include <charconv>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "engine/game/pgn.h"
#include "simulators/script/script_writer.h"
#include "simulators/script_gen/script_gen.h"
#include "simulators/sim_main/subcommands.h"

namespace eboard::sim {
namespace {

constexpr const char* kUsage =
    "usage: eboard-sim script --pgn FILE [--game K] [--seed S] [--noise clean|human|rough]\n"
    "                         [--clock TC] [--rules NAME] [--board NAME]\n"
    "                         [--sensing pieces|occupancy]\n"
    "Writes to stdout a sensor script playing game K (1-based, default 1) of the PGN FILE\n"
    "the way people move pieces. --noise (default human): clean = one lift and one put per\n"
    "piece; human = capture orders, castling rook-first, two-step promotions, hovering,\n"
    "moves taken back, realistic thinking times; rough = human plus sensor flicker and\n"
    "knocked pieces. The same seed (default 1) gives the same script.\n"
    "--sensing occupancy writes what a board sensing occupancy only reports: '?' for every\n"
    "piece, and a 'promote q|r|b|n' line before the press of each promotion to a piece\n"
    "other than a queen (default: pieces).\n";

int fail(const std::string& message) {
  std::cerr << "eboard-sim script: " << message << "\n";
  return 2;
}

bool parse_count(const std::string& text, std::uint64_t& out) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && p == end;
}

}  // namespace

int run_script(int argc, char** argv) {
  std::string pgn_path;
  std::uint64_t game_number = 1;
  ScriptGenOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (i + 1 >= argc) return fail("option '" + arg + "' needs a value (see --help)");
    const std::string value = argv[++i];
    if (arg == "--pgn") {
      pgn_path = value;
    } else if (arg == "--game") {
      if (!parse_count(value, game_number) || game_number == 0)
        return fail("--game needs a game number from 1, not '" + value + "'");
    } else if (arg == "--seed") {
      if (!parse_count(value, options.seed))
        return fail("--seed needs a whole number, not '" + value + "'");
    } else if (arg == "--noise") {
      const auto noise = parse_noise_model(value);
      if (!noise) return fail("--noise must be clean, human or rough, not '" + value + "'");
      options.noise = *noise;
    } else if (arg == "--clock") {
      options.clock = value;
    } else if (arg == "--rules") {
      options.rules = value;
    } else if (arg == "--board") {
      options.board_id = value;
    } else if (arg == "--sensing") {
      if (value != "pieces" && value != "occupancy")
        return fail("--sensing must be pieces or occupancy, not '" + value + "'");
      options.sensing = value == "pieces" ? ScriptSensing::kPieces : ScriptSensing::kOccupancy;
    } else {
      return fail("unknown option '" + arg + "' (see --help)");
    }
  }
  if (pgn_path.empty()) return fail("--pgn FILE is required (see --help)");
  std::ifstream in(pgn_path, std::ios::binary);
  if (!in) return fail(pgn_path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  const std::string pgn = text.str();
  engine::PgnReader reader(pgn, pgn_path);
  for (std::uint64_t k = 1;; ++k) {
    auto game = reader.next();
    if (!game) return fail(pgn_path + ": has only " + std::to_string(k - 1) + " games");
    if (k < game_number) continue;
    if (!game->ok()) return fail(game->error());
    std::ostringstream script;
    for (const script::Statement& s : generate_script(game->value(), options))
      script::write_statement(script, s);
    std::cout << script.str();
    return 0;
  }
}

}  // namespace eboard::sim
