// The seam between a GameTracker and its Arbiter: the decisions an arbiter returns are
// applied by the tracker, in the order they were taken (engine/game/arbiter_decision.h).
#include "engine/game/arbiter_seam.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "engine/board/fen.h"
#include "engine/game/game_tracker.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

// Returns the decisions it was given for the next operator line.
class ScriptedArbiter : public Arbiter {
 public:
  ArbiterDecisions next;
  ArbiterDecisions on_operator(const GameTracker&, const OperatorAction&, milliseconds) override {
    return std::exchange(next, {});
  }
};

struct Game {
  ScriptedArbiter arbiter;
  std::optional<GameTracker> tracker;
  GameEvents out;

  Game() {
    TrackerConfig c;
    c.rules = rule_set_by_name("fide-standard").value();
    c.time_control = parse_time_control("900").value();
    tracker.emplace(std::move(c), &arbiter);
    tracker->lever(milliseconds(0), kBlack, out);  // starts the game
    out.clear();
  }
  void decide(int at_ms, ArbiterDecisions decisions) {
    arbiter.next = std::move(decisions);
    OperatorAction a;
    a.kind = OperatorAction::Kind::kInfraction;
    tracker->operator_action(milliseconds(at_ms), a, out);
  }
  std::vector<GameEventKind> kinds() const {
    std::vector<GameEventKind> k;
    for (const GameEvent& e : out) k.push_back(e.kind());
    return k;
  }
  template <class Kind>
  long count() const {
    return std::count_if(out.begin(), out.end(), [](const GameEvent& e) { return e.is<Kind>(); });
  }
};

GameEvent penalty_event(int at_ms) {
  events::Penalty p;
  p.side = kWhite;
  return GameEvent(milliseconds(at_ms), p);
}

TEST(ArbiterSeam, DecisionsAreAppliedInTheOrderTheyWereTaken) {
  Game g;
  g.decide(1000, {ArbiterReport{penalty_event(1000)}, AdjustClock{kBlack, milliseconds(60000)},
                  EndGame{GameResult::kBlackWins, TerminationKind::kPenaltyLadder, Finality::kFinal,
                          "ladder", UnwinnabilityNote::kWinnable, 0, 7}});
  using K = GameEventKind;
  EXPECT_EQ(g.kinds(), (std::vector<K>{K::kPenalty, K::kClock, K::kGameEnded, K::kClock}));
  // The clock after the time given, before the end.
  EXPECT_EQ(g.out[1].get<events::ClockShown>()->black_remaining, milliseconds(960000));
  const events::GameEnded& ended = *g.out[2].get<events::GameEnded>();
  EXPECT_EQ(ended.result, GameResult::kBlackWins);
  EXPECT_EQ(ended.finality, Finality::kFinal);
  EXPECT_EQ(ended.unwinnability, UnwinnabilityNote::kWinnable);
  EXPECT_EQ(ended.proposal_seq, 7u);
  EXPECT_TRUE(g.tracker->ended());
  EXPECT_EQ(g.tracker->result(), GameResult::kBlackWins);
}

TEST(ArbiterSeam, AProposedEndLeavesTheGameGoing) {
  Game g;
  g.decide(1000, {EndGame{GameResult::kDraw, TerminationKind::kBothFlags, Finality::kProposed, "?",
                          UnwinnabilityNote::kNone, 3}});
  ASSERT_EQ(g.out.size(), 1u);
  ASSERT_TRUE(g.out[0].is<events::GameEnded>());
  EXPECT_EQ(g.out[0].get<events::GameEnded>()->finality, Finality::kProposed);
  EXPECT_EQ(g.out[0].proposal(), 3u);
  EXPECT_FALSE(g.tracker->ended());
}

TEST(ArbiterSeam, SetCommittedChangesOnlyAPositionNotAlreadyCommitted) {
  Game g;
  const Position after_e4 =
      parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").value();
  g.decide(1000, {SetCommitted{g.tracker->committed(), "same"}, SetCommitted{after_e4, "e4"},
                  SetCommitted{after_e4, "e4 again"}});
  ASSERT_EQ(g.count<events::PositionChanged>(), 1);
  ASSERT_TRUE(g.out[0].is<events::PositionChanged>());
  EXPECT_EQ(g.out[0].get<events::PositionChanged>()->description, "e4");
  EXPECT_EQ(to_fen(g.tracker->committed()), to_fen(after_e4));
}

TEST(ArbiterSeam, AnAnnulledGameIsFollowedByANewOneAtTheNextInput) {
  Game g;
  const Position start = g.tracker->committed();
  g.decide(1000, {AnnulGame{start, "annulled"}});
  ASSERT_TRUE(g.tracker->ended());
  EXPECT_EQ(g.tracker->result(), GameResult::kUnfinished);
  g.tracker->lever(milliseconds(2000), kBlack, g.out);
  EXPECT_FALSE(g.tracker->ended());
  EXPECT_EQ(g.count<events::GameStarted>(), 1);
}

TEST(ArbiterSeam, OnlyAFinalEndOrAnAnnulmentEndsTheGame) {
  EXPECT_FALSE(ends_game({}));
  EXPECT_FALSE(ends_game(
      {EndGame{GameResult::kWhiteWins, TerminationKind::kArbiter, Finality::kProposed, ""}}));
  EXPECT_FALSE(ends_game({AdjustClock{kWhite, milliseconds(1000)}, HoldClock{}}));
  EXPECT_TRUE(ends_game({HoldClock{}, EndGame{GameResult::kWhiteWins, TerminationKind::kArbiter,
                                              Finality::kFinal, ""}}));
  EXPECT_TRUE(ends_game({AnnulGame{Position(), ""}}));
}

}  // namespace
}  // namespace eboard::engine
