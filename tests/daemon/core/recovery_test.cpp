#include "daemon/core/recovery.h"

#include <gtest/gtest.h>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"
#include "daemon/event_mapping.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::daemon {
namespace {

using Codes = std::array<engine::SquareCode, engine::kSquareCount>;

Codes codes_after(engine::Position pos, const std::vector<std::string>& ucis) {
  for (const auto& uci : ucis) pos.make(engine::parse_uci(pos, uci).value());
  Codes codes{};
  for (int s = 0; s < engine::kSquareCount; ++s)
    codes[s] = engine::SquareCode(pos.piece_on(engine::Square(s)));
  return codes;
}

// --- replay_game: a restarted daemon's tracker counts what the game counted -----------

using engine::Millis;

struct Played {
  engine::GameTracker tracker;
  BoardState state{"r1"};
  std::uint32_t seq = 0;
  Millis now{0};

  explicit Played(const GameSetup& setup) : tracker(make_tracker_config(setup).value()) {}
  void fold(engine::GameEvents& events) {
    for (const auto& e : events)
      state.apply(to_proto(e, EventEnvelope{"r1", ++seq, 1, "fide-standard"}));
    events.clear();
  }
  void show(const Codes& codes) {
    engine::GameEvents out;
    now += Millis(1000);
    tracker.placement(now, codes, out);
    tracker.advance(now + Millis(600), out);
    fold(out);
  }
  void press(engine::Color side) {
    engine::GameEvents out;
    now += Millis(1500);
    tracker.lever(now, side, out);
    fold(out);
  }
  void move(const std::string& uci) {
    const engine::Color mover = tracker.committed().side_to_move();
    show(codes_after(tracker.committed(), {uci}));
    press(mover);
  }
};

GameSetup setup_of(const std::string& rules, const std::string& clock) {
  GameSetup setup;
  setup.rules = rules;
  setup.clock = clock;
  return setup;
}

TEST(RecoveryReplay, MoveCountsPeriodsAndRepetitionsComeBack) {
  const GameSetup setup = setup_of("fide-standard", "2/600+30:300+30");
  Played game(setup);
  for (const char* uci : {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3"}) game.move(uci);
  ASSERT_EQ(game.tracker.moves_completed(engine::kWhite), 3);
  ASSERT_EQ(game.tracker.clock().period(engine::kWhite), 2);

  engine::GameTracker fresh(make_tracker_config(setup).value());
  ASSERT_EQ(replay_game(fresh, game.state.game_history(), game.state.snapshot()), std::nullopt);
  EXPECT_EQ(fresh.moves_completed(engine::kWhite), 3);
  EXPECT_EQ(fresh.moves_completed(engine::kBlack), 2);
  EXPECT_EQ(fresh.clock().moves_completed(engine::kWhite), 3);
  EXPECT_EQ(fresh.clock().period(engine::kWhite), 2);
  EXPECT_EQ(fresh.clock().period(engine::kBlack), 2);
  EXPECT_EQ(fresh.moves().size(), 5u);
  EXPECT_EQ(engine::to_fen(fresh.committed()), engine::to_fen(game.tracker.committed()));
  EXPECT_EQ(fresh.clock().running(), engine::kBlack);
}

TEST(RecoveryReplay, IllegalMoveCountsComeBack) {
  const GameSetup setup = setup_of("fide-standard", "5400+30");
  Played game(setup);
  game.move("e2e4");
  game.move("e7e5");
  // White's queen jumps over the d2 pawn and the clock is pressed: completed illegal
  // move; the board is set back and White plays again (docs/rules.md D5).
  Codes illegal = codes_after(game.tracker.committed(), {});
  illegal[engine::parse_square("d3")] = illegal[engine::parse_square("d1")];
  illegal[engine::parse_square("d1")] = engine::kEmptyCode;
  game.show(illegal);
  game.press(engine::kWhite);
  ASSERT_EQ(game.tracker.illegal_count(engine::kWhite), 1);
  // Black's clock runs now; Black hands the turn back with a press of its own (a press
  // without a move, which the rule set counts for Black too).
  game.show(codes_after(game.tracker.committed(), {}));
  game.press(engine::kBlack);
  game.move("g1f3");
  ASSERT_EQ(game.state.snapshot().white_illegal_count(), 1u);
  ASSERT_FALSE(game.tracker.ended());

  engine::GameTracker fresh(make_tracker_config(setup).value());
  const auto error = replay_game(fresh, game.state.game_history(), game.state.snapshot());
  ASSERT_EQ(error, std::nullopt) << *error;
  EXPECT_EQ(fresh.illegal_count(engine::kWhite), 1);
  EXPECT_EQ(fresh.illegal_count(engine::kBlack), game.tracker.illegal_count(engine::kBlack));
  EXPECT_EQ(fresh.clock().running(), game.tracker.clock().running());
  EXPECT_EQ(fresh.moves_completed(engine::kWhite), game.tracker.moves_completed(engine::kWhite));
  EXPECT_EQ(engine::to_fen(fresh.committed()), engine::to_fen(game.tracker.committed()));
}

TEST(RecoveryReplay, AHistoryThatDoesNotFitIsAnError) {
  const GameSetup setup = setup_of("fide-standard", "5400+30");
  Played game(setup);
  game.move("e2e4");
  game.move("e7e5");
  // The fresh tracker starts elsewhere: e2e4 is not legal there.
  GameSetup elsewhere = setup;
  elsewhere.start_fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  engine::GameTracker fresh(make_tracker_config(elsewhere).value());
  EXPECT_NE(replay_game(fresh, game.state.game_history(), game.state.snapshot()), std::nullopt);
}

}  // namespace
}  // namespace eboard::daemon
