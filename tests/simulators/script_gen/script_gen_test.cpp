// eboard-sim script's occupancy-only output (docs/protocols.md §10; docs/interfaces.md §3 `?` and
// `promote`): every piece hidden, a `promote` line before the press of each
// under-promotion, and the game replayed move-exact by a real GameTracker from it.
#include "simulators/script_gen/script_gen.h"

#include <gtest/gtest.h>

#include <set>

#include "simulators/script/script_writer.h"
#include "tests/simulators/script_gen/tracker_replay.h"

namespace eboard::sim {
namespace {

using testing::game_ucis;
using testing::replay_in_tracker;
using Strings = std::vector<std::string>;

// Captures, castling, a queen sortie: nothing the board cannot tell by occupancy.
constexpr const char* kOpeningPgn =
    "[Event \"t\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bf5 6. Bc4 e6 7. O-O Nf6 "
    "8. d5 Nxd5 9. Nxd5 cxd5 10. Bxd5 exd5 *\n";
// Three under-promotions (plies 1, 3 and 6) by both sides.
constexpr const char* kUnderPromotionPgn =
    "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"8/1P4P1/8/8/8/k7/p7/4K3 w - - 0 1\"]\n\n"
    "1. b8=N Kb3 2. g8=R Kc3 3. Nc6 a1=B 4. Kd1 Bb2 *\n";
constexpr const char* kQueenPromotionPgn =
    "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"8/1P6/8/8/8/k7/8/4K3 w - - 0 1\"]\n\n1. b8=Q Ka2 *\n";

engine::PgnGame game_of(const char* pgn) {
  auto games = engine::read_pgn(pgn, "t.pgn");
  EXPECT_TRUE(games.ok()) << games.error();
  return games.value().front();
}

std::vector<script::Statement> script_for(const engine::PgnGame& game, NoiseModel noise,
                                          std::uint64_t seed, ScriptSensing sensing) {
  ScriptGenOptions options;
  options.noise = noise;
  options.seed = seed;
  options.sensing = sensing;
  return generate_script(game, options);
}

constexpr NoiseModel kModels[] = {NoiseModel::kClean, NoiseModel::kHuman, NoiseModel::kRough};

TEST(ScriptGenOccupancy, IsThePieceScriptWithEveryPieceHidden) {
  const engine::PgnGame game = game_of(kOpeningPgn);
  for (const NoiseModel noise : kModels) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const auto pieces = script_for(game, noise, seed, ScriptSensing::kPieces);
      const auto occupancy = script_for(game, noise, seed, ScriptSensing::kOccupancy);
      ASSERT_EQ(pieces.size(), occupancy.size());
      for (std::size_t i = 0; i < pieces.size(); ++i) {
        script::Statement hidden = pieces[i];
        if (auto* p = std::get_if<script::Placement>(&hidden.body))
          for (char& c : p->squares) c = c == script::kEmptySquare ? c : '?';
        if (auto* u = std::get_if<script::Put>(&hidden.body)) u->piece = '?';
        EXPECT_EQ(script::format_statement(hidden), script::format_statement(occupancy[i]));
      }
    }
  }
}

// The promote line of ply p has exactly p presses before it: it comes before the press
// that completes the promotion, never after it.
TEST(ScriptGenOccupancy, UnderPromotionGetsAPromoteLineBeforeItsPress) {
  const engine::PgnGame game = game_of(kUnderPromotionPgn);
  std::set<std::string> placements;  // "before" (ahead of the pawn's lift) or "after"
  for (const NoiseModel noise : kModels) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      const auto script = script_for(game, noise, seed, ScriptSensing::kOccupancy);
      std::string pieces;
      std::vector<int> presses_before;
      int presses = 0;
      bool moved_since_press = false;
      for (const script::Statement& s : script) {
        if (std::holds_alternative<script::Lever>(s.body)) {
          ++presses;
          moved_since_press = false;
        } else if (std::holds_alternative<script::Lift>(s.body)) {
          moved_since_press = true;
        } else if (const auto* p = std::get_if<script::Promote>(&s.body)) {
          pieces += p->piece;
          presses_before.push_back(presses);
          placements.insert(moved_since_press ? "after" : "before");
        }
      }
      EXPECT_EQ(pieces, "nrb") << noise_model_name(noise) << " seed " << seed;
      EXPECT_EQ(presses_before, (std::vector<int>{0, 2, 5}))
          << noise_model_name(noise) << " seed " << seed;
    }
  }
  EXPECT_EQ(placements, (std::set<std::string>{"after", "before"}));  // both orders occur
}

TEST(ScriptGenOccupancy, QueenPromotionAndPieceSensingScriptsHaveNoPromoteLine) {
  const auto has_promote = [](const std::vector<script::Statement>& script) {
    for (const script::Statement& s : script)
      if (std::holds_alternative<script::Promote>(s.body)) return true;
    return false;
  };
  for (const NoiseModel noise : kModels) {
    EXPECT_FALSE(
        has_promote(script_for(game_of(kQueenPromotionPgn), noise, 1, ScriptSensing::kOccupancy)));
    EXPECT_FALSE(
        has_promote(script_for(game_of(kUnderPromotionPgn), noise, 1, ScriptSensing::kPieces)));
  }
}

TEST(ScriptGenOccupancy, ReplaysMoveExactOnAnOccupancyOnlyBoard) {
  for (const char* pgn : {kOpeningPgn, kUnderPromotionPgn, kQueenPromotionPgn}) {
    const engine::PgnGame game = game_of(pgn);
    for (const NoiseModel noise : kModels) {
      for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        const auto r =
            replay_in_tracker(game, script_for(game, noise, seed, ScriptSensing::kOccupancy));
        EXPECT_TRUE(r.occupancy);
        EXPECT_EQ(r.failure, "");
        EXPECT_EQ(r.completed, game_ucis(game)) << noise_model_name(noise) << " seed " << seed;
      }
    }
  }
}

TEST(ScriptGenOccupancy, WithoutThePromoteLineTheBoardMakesAQueen) {
  const engine::PgnGame game = game_of(kUnderPromotionPgn);
  std::vector<script::Statement> script =
      script_for(game, NoiseModel::kClean, 1, ScriptSensing::kOccupancy);
  std::erase_if(script, [](const script::Statement& s) {
    return std::holds_alternative<script::Promote>(s.body);
  });
  const auto r = replay_in_tracker(game, script);
  ASSERT_FALSE(r.completed.empty());
  EXPECT_EQ(r.completed.front(), "b7b8q");
}

}  // namespace
}  // namespace eboard::sim
