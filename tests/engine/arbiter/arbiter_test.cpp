// RulesArbiter unit tests: the authority rule (proposals settled by rulings) and the
// ladders, through a real GameTracker with injected time (docs/rules.md §0, D5, D13).
#include "engine/arbiter/arbiter.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"
#include "engine/rules/rule_params.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

constexpr const char* kP2 = "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 3";

struct Game {
  RulesArbiter arbiter;
  std::optional<GameTracker> tracker;
  GameEvents out;

  Game(const char* rules, const char* fen,
       std::vector<std::pair<std::string, std::string>> params = {}) {
    TrackerConfig c;
    c.rules = rule_set_by_name(rules).value();
    for (const auto& [n, v] : params) EXPECT_FALSE(apply_param(c.rules, n, v));
    c.time_control = parse_time_control("900").value();
    c.start = parse_fen(fen).value();
    tracker.emplace(std::move(c), &arbiter);
  }
  void move(int at_ms, const char* from, const char* to, char piece) {
    tracker->square(milliseconds(at_ms), parse_square(from), kEmptyCode, out);
    tracker->square(milliseconds(at_ms + 100), parse_square(to), square_code_from_char(piece), out);
  }
  void op(int at_ms, OperatorAction a) { tracker->operator_action(milliseconds(at_ms), a, out); }
  template <class Kind>
  int count() const {
    int n = 0;
    for (const auto& e : out) n += e.is<Kind>();
    return n;
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

OperatorAction ruling(bool accept) {
  OperatorAction a;
  a.kind = OperatorAction::Kind::kRuling;
  a.accept = accept;
  return a;
}

TEST(RulesArbiter, ProposedPenaltyIsAppliedOnlyByAnAcceptingRuling) {
  Game g("fide-standard", kP2, {{"auto_apply_penalties", "false"}});
  g.move(1000, "g8", "f6", 'n');
  g.tracker->lever(milliseconds(1500), kBlack, g.out);
  const auto* p = g.last<events::Penalty>();
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->applied);
  EXPECT_EQ(p->amount.count(), 120000);
  const auto white_before = g.tracker->clock().remaining(kWhite, milliseconds(2000));
  g.op(2000, ruling(true));
  p = g.last<events::Penalty>();
  EXPECT_TRUE(p->applied);
  EXPECT_EQ(g.tracker->clock().remaining(kWhite, milliseconds(2000)) - white_before,
            milliseconds(120000));
}

TEST(RulesArbiter, RejectingRulingLeavesTheClocks) {
  Game g("fide-standard", kP2, {{"auto_apply_penalties", "false"}});
  g.move(1000, "g8", "f6", 'n');
  g.tracker->lever(milliseconds(1500), kBlack, g.out);
  const auto white_before = g.tracker->clock().remaining(kWhite, milliseconds(2000));
  g.op(2000, ruling(false));
  EXPECT_FALSE(g.last<events::Penalty>()->applied);
  EXPECT_EQ(g.tracker->clock().remaining(kWhite, milliseconds(2000)), white_before);
  // A second ruling has nothing left to settle.
  const std::size_t n = g.out.size();
  g.op(2500, ruling(true));
  EXPECT_EQ(g.out.size(), n);
}

TEST(RulesArbiter, ProposedResultEndsTheGameOnlyWhenAccepted) {
  Game g("pskov-blitz", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
         {{"auto_apply_penalties", "false"}});
  OperatorAction inf;
  inf.kind = OperatorAction::Kind::kInfraction;
  inf.side = kWhite;
  for (int i = 0; i < 3; ++i) g.op(1000 + i * 100, inf);
  const auto* end = g.last<events::GameEnded>();
  ASSERT_NE(end, nullptr);
  EXPECT_TRUE(end->finality == Finality::kProposed);
  EXPECT_FALSE(g.tracker->ended());
  g.op(2000, ruling(true));
  EXPECT_TRUE(g.tracker->ended());
  EXPECT_EQ(g.tracker->result(), GameResult::kBlackWins);
}

TEST(RulesArbiter, ArbiterLadderOnlyRecordsInfractions) {
  Game g("fide-standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
         {{"auto_apply_penalties", "true"}});
  OperatorAction inf;
  inf.kind = OperatorAction::Kind::kInfraction;
  inf.side = kBlack;
  for (int i = 0; i < 4; ++i) g.op(1000 + i * 100, inf);
  EXPECT_EQ(g.count<events::Penalty>(), 4);
  EXPECT_EQ(g.count<events::GameEnded>(), 0);
  EXPECT_FALSE(g.last<events::Penalty>()->applied);
}

TEST(RulesArbiter, FlagResultFollowsTheMatingTest) {
  // P6 with Black (bare king) on move: White can mate by some series (fide_helpmate).
  Game g("fide-standard", "8/8/8/4k3/8/2N5/2N5/4K3 b - - 0 60", {{"auto_apply_penalties", "true"}});
  g.tracker->flag(milliseconds(1000), kBlack, g.out);
  ASSERT_TRUE(g.tracker->ended());
  EXPECT_EQ(g.tracker->result(), GameResult::kWhiteWins);
  EXPECT_EQ(g.last<events::GameEnded>()->unwinnability, UnwinnabilityNote::kWinnable);
}

// D5: under a claim window the illegal move stands as the board shows it, with the castling
// rights whose king and rook have not moved, the halfmove clock at 0 and the reply's move
// number.
TEST(RulesArbiter, IllegalMoveThatStandsIsTheBoardsPosition) {
  Game g("legacy-blitz", kP2);
  g.move(1000, "g8", "f6", 'n');
  g.tracker->lever(milliseconds(1500), kBlack, g.out);
  const auto* changed = g.last<events::PositionChanged>();
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ(to_fen(changed->position),
            "rnbqkb1r/ppp2ppp/3p1n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
  EXPECT_EQ(to_fen(g.tracker->committed()), to_fen(changed->position));
}

// Without its rook the king keeps no right on that wing.
TEST(RulesArbiter, IllegalMoveThatStandsLosesTheRightsOfAMovedRook) {
  Game g("legacy-blitz", "r3k2r/pppq1ppp/3p4/1B2p3/4P3/5N2/PPPP1PPP/R3K2R b KQkq - 1 10");
  g.move(1000, "h8", "h5", 'r');  // through the pawn on h7
  g.tracker->lever(milliseconds(1500), kBlack, g.out);
  const auto* changed = g.last<events::PositionChanged>();
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ(to_fen(changed->position),
            "r3k3/pppq1ppp/3p4/1B2p2r/4P3/5N2/PPPP1PPP/R3K2R w KQq - 0 11");
}

}  // namespace
}  // namespace eboard::engine
