// RulesArbiter: rulings name the decision they settle by the seq its event was published
// under (docs/interfaces.md §3 `arbiter ruling accept|reject [SEQ]`, docs/rules.md §0 authority
// rule), and positions that end the game by themselves wait game_end_stable_ms like a checkmate
// (docs/rules.md D2, D7). Real GameTracker, injected time.
#include <gtest/gtest.h>

#include "engine/arbiter/arbiter.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/rules/rule_params.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

struct RulingGame {
  RulesArbiter arbiter;
  std::optional<GameTracker> tracker;
  GameEvents out;
  std::uint64_t seq = 0;

  RulingGame(const char* rules, const char* fen,
             std::vector<std::pair<std::string, std::string>> params = {}) {
    TrackerConfig c;
    c.rules = rule_set_by_name(rules).value();
    for (const auto& [n, v] : params) EXPECT_FALSE(apply_param(c.rules, n, v));
    c.time_control = parse_time_control("300").value();
    c.start = parse_fen(fen).value();
    tracker.emplace(std::move(c), &arbiter);
  }
  // Publishes what was appended since the last call the way eboard-replay numbers events;
  // returns the seq of the last event that opened a decision.
  std::uint64_t publish() {
    std::uint64_t proposal_seq = 0;
    for (; seq < out.size(); ++seq)
      if (out[seq].proposal() != 0) {
        tracker->published(out[seq], seq + 1);
        proposal_seq = seq + 1;
      }
    return proposal_seq;
  }
  void infraction(int at_ms, Color side) {
    OperatorAction a;
    a.kind = OperatorAction::Kind::kInfraction;
    a.side = side;
    tracker->operator_action(milliseconds(at_ms), a, out);
  }
  void ruling(int at_ms, bool accept, std::optional<std::uint64_t> on) {
    OperatorAction a;
    a.kind = OperatorAction::Kind::kRuling;
    a.accept = accept;
    a.seq = on;
    tracker->operator_action(milliseconds(at_ms), a, out);
  }
  std::vector<events::Penalty> penalties_from(std::size_t first) const {
    std::vector<events::Penalty> found;
    for (std::size_t i = first; i < out.size(); ++i)
      if (const auto* p = out[i].get<events::Penalty>()) found.push_back(*p);
    return found;
  }
  template <class Kind>
  const GameEvent* last_event() const {
    for (auto it = out.rbegin(); it != out.rend(); ++it)
      if (it->is<Kind>()) return &*it;
    return nullptr;
  }
  template <class Kind>
  const Kind* last() const {
    const GameEvent* e = last_event<Kind>();
    return e ? e->get<Kind>() : nullptr;
  }
};

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(RulingBySeq, SettlesTheOlderProposalItNames) {
  // pskov-blitz S4 10: White's first infraction is a warning, the second +1 minute to Black.
  RulingGame g("pskov-blitz", kStart);
  g.infraction(1000, kWhite);
  const std::uint64_t warning = g.publish();
  g.infraction(2000, kWhite);
  const std::uint64_t minute = g.publish();
  ASSERT_NE(warning, 0u);
  ASSERT_NE(minute, 0u);
  ASSERT_NE(warning, minute);
  const auto black_before = g.tracker->clock().remaining(kBlack, milliseconds(3000));

  std::size_t first = g.out.size();
  g.ruling(3000, true, warning);
  auto settled = g.penalties_from(first);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_TRUE(settled[0].applied);
  EXPECT_EQ(settled[0].kind, PenaltyKind::kWarning);
  EXPECT_EQ(settled[0].proposal_seq, warning);
  // The minute, still open, was not given.
  EXPECT_EQ(g.tracker->clock().remaining(kBlack, milliseconds(3000)), black_before);

  // Without a SEQ: the latest open one, the minute.
  first = g.out.size();
  g.ruling(3500, true, std::nullopt);
  settled = g.penalties_from(first);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_EQ(settled[0].kind, PenaltyKind::kTimeAdded);
  EXPECT_EQ(settled[0].proposal_seq, minute);
  EXPECT_EQ(g.tracker->clock().remaining(kBlack, milliseconds(3500)) - black_before,
            milliseconds(60000));
}

TEST(RulingBySeq, ASeqNamingNoOpenDecisionSettlesNothing) {
  RulingGame g("pskov-blitz", kStart);
  g.infraction(1000, kWhite);
  const std::uint64_t warning = g.publish();
  g.infraction(2000, kBlack);
  g.publish();
  const std::size_t n = g.out.size();
  g.ruling(3000, true, warning + 1000);  // no such event
  g.ruling(3000, true, 1);               // gameStarted: not a decision
  EXPECT_EQ(g.out.size(), n);
  g.ruling(3100, false, warning);
  ASSERT_EQ(g.penalties_from(n).size(), 1u);
  EXPECT_EQ(g.penalties_from(n)[0].side, kWhite);
  EXPECT_FALSE(g.penalties_from(n)[0].applied);
  // Settled once: naming it again does nothing.
  const std::size_t m = g.out.size();
  g.ruling(3200, true, warning);
  EXPECT_EQ(g.out.size(), m);
}

TEST(RulingBySeq, AClaimIsNamedByItsClaimReceivedOrItsDecision) {
  // 9.5.3: an incorrect threefold claim, left to the arbiter (two occurrences only).
  RulingGame g("fide-standard", kStart);
  OperatorAction claim;
  claim.kind = OperatorAction::Kind::kClaim;
  claim.side = kWhite;
  claim.claim = ClaimKind::kThreefold;
  g.tracker->operator_action(milliseconds(1000), claim, g.out);
  g.publish();
  std::uint64_t received = 0;
  for (std::size_t i = 0; i < g.out.size(); ++i)
    if (g.out[i].is<events::ClaimReceived>()) received = i + 1;
  ASSERT_NE(received, 0u);
  EXPECT_NE(g.out[received - 1].proposal(), 0u);
  const std::size_t n = g.out.size();
  g.ruling(2000, true, received);
  const auto* decided = g.last<events::ClaimDecided>();
  ASSERT_NE(decided, nullptr);
  EXPECT_EQ(decided->finality, Finality::kFinal);
  EXPECT_FALSE(decided->accepted);
  ASSERT_EQ(g.penalties_from(n).size(), 1u);
  EXPECT_EQ(g.penalties_from(n)[0].amount, milliseconds(120000));
}

// 75 moves: any rook move from here is the 150th half-move without capture or pawn move.
constexpr const char* k149 = "8/8/8/4k3/8/8/R6P/4K3 w - - 149 120";

struct BoardGame : RulingGame {
  BoardGame() : RulingGame("fide-standard", k149) {}
  void lift(int at, const char* s) {
    tracker->square(milliseconds(at), parse_square(s), kEmptyCode, out);
  }
  void put(int at, const char* s, char p) {
    tracker->square(milliseconds(at), parse_square(s), square_code_from_char(p), out);
  }
};

TEST(PositionEndsWait, SeventyFiveMovesEndAfterGameEndStable) {
  BoardGame g;
  const milliseconds stable = g.tracker->rules().game_end_stable;
  g.lift(1000, "a2");
  g.put(1200, "a3", 'R');
  EXPECT_FALSE(g.tracker->ended());
  ASSERT_TRUE(g.tracker->next_deadline().has_value());
  EXPECT_EQ(*g.tracker->next_board_deadline(), milliseconds(1200) + stable);
  g.tracker->advance(milliseconds(1200) + stable - milliseconds(1), g.out);
  EXPECT_FALSE(g.tracker->ended());
  g.tracker->advance(milliseconds(1200) + stable, g.out);
  ASSERT_TRUE(g.tracker->ended());
  const auto* end = g.last<events::GameEnded>();
  ASSERT_NE(end, nullptr);
  EXPECT_EQ(end->termination, TerminationKind::kSeventyFiveMoves);
  EXPECT_EQ(g.last_event<events::GameEnded>()->at, milliseconds(1200) + stable);
  EXPECT_EQ(g.last<events::MoveCompleted>()->completion, CompletionKind::kGameEnd);
}

TEST(PositionEndsWait, APieceTakenBackInTimeEndsNothing) {
  BoardGame g;
  g.lift(1000, "a2");
  g.put(1200, "a3", 'R');
  g.lift(1500, "a3");
  g.put(1600, "a2", 'R');
  g.tracker->advance(milliseconds(5000), g.out);
  EXPECT_FALSE(g.tracker->ended());
  EXPECT_EQ(g.last<events::GameEnded>(), nullptr);
  // A pawn move instead resets the count: nothing ends either.
  g.lift(6000, "h2");
  g.put(6200, "h3", 'P');
  g.tracker->advance(milliseconds(9000), g.out);
  EXPECT_FALSE(g.tracker->ended());
}

TEST(PositionEndsWait, APressBeforeTheDeadlineEndsTheGameAtThePress) {
  BoardGame g;
  g.lift(1000, "a2");
  g.put(1200, "a3", 'R');
  g.tracker->lever(milliseconds(1400), kWhite, g.out);
  ASSERT_TRUE(g.tracker->ended());
  EXPECT_EQ(g.last_event<events::GameEnded>()->at.count(), 1400);
  EXPECT_EQ(g.last<events::GameEnded>()->termination, TerminationKind::kSeventyFiveMoves);
  EXPECT_EQ(g.last<events::MoveCompleted>()->completion, CompletionKind::kClockPress);
}

TEST(PositionEndsWait, AMoveChangedBeforeTheDeadlineIsJudgedAnew) {
  BoardGame g;
  const milliseconds stable = g.tracker->rules().game_end_stable;
  g.lift(1000, "a2");
  g.put(1200, "a3", 'R');
  g.lift(1700, "a3");
  g.put(1800, "a4", 'R');  // still the 150th half-move: the wait starts again
  g.tracker->advance(milliseconds(1200) + stable, g.out);
  EXPECT_FALSE(g.tracker->ended());
  g.tracker->advance(milliseconds(1800) + stable, g.out);
  ASSERT_TRUE(g.tracker->ended());
  EXPECT_EQ(to_uci(g.last<events::MoveCompleted>()->move), "a2a4");
}

}  // namespace
}  // namespace eboard::engine
