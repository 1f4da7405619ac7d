// RulesArbiter on both flags down with the order unknown (docs/rules.md D10, §4 scenarios 62 and
// 64; Guidelines III.3.1), through a real GameTracker with injected time.
#include <gtest/gtest.h>

#include "engine/arbiter/arbiter.h"
#include "engine/board/fen.h"
#include "engine/rules/rule_params.h"

namespace eboard::engine {
namespace {

using std::chrono::milliseconds;

struct FlagGame {
  RulesArbiter arbiter;
  std::optional<GameTracker> tracker;
  GameEvents out;

  FlagGame(const char* rules, const char* clock,
           std::vector<std::pair<std::string, std::string>> params) {
    TrackerConfig c;
    c.rules = rule_set_by_name(rules).value();
    for (const auto& [n, v] : params) EXPECT_FALSE(apply_param(c.rules, n, v));
    c.time_control = parse_time_control(clock).value();
    c.start = Position();
    tracker.emplace(std::move(c), &arbiter);
  }
  const events::GameEnded* ended() const {
    for (const auto& e : out)
      if (const auto* ended = e.get<events::GameEnded>()) return ended;
    return nullptr;
  }
  int flags() const {
    int n = 0;
    for (const auto& e : out) {
      const auto* flag = e.get<events::FlagFell>();
      n += flag && !flag->first;
    }
    return n;
  }
};

TEST(BothFlags, GuidelineIIIInTheFinalPeriodDraws) {
  // A single sudden-death period is the final one (III.3.1.2).
  FlagGame g("fide-standard", "1800", {{"guidelines_III_announced", "true"}});
  g.tracker->both_flags(milliseconds(5000), g.out);
  EXPECT_EQ(g.flags(), 2);
  const events::GameEnded* e = g.ended();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->result, GameResult::kDraw);
  EXPECT_EQ(e->termination, TerminationKind::kBothFlags);
  EXPECT_EQ(e->finality, Finality::kFinal);
  EXPECT_TRUE(g.tracker->ended());
}

TEST(BothFlags, GuidelineIIIInAnEarlierPeriodPlayContinues) {
  FlagGame g("fide-standard", "40/7200:1800", {{"guidelines_III_announced", "true"}});
  g.tracker->both_flags(milliseconds(5000), g.out);
  EXPECT_EQ(g.flags(), 2);
  EXPECT_EQ(g.ended(), nullptr);  // III.3.1.1
  EXPECT_FALSE(g.tracker->ended());
}

TEST(BothFlags, WithoutGuidelineIIITheArbiterDecidesOnAProposal) {
  FlagGame g("fide-standard", "1800", {});
  g.tracker->both_flags(milliseconds(5000), g.out);
  const events::GameEnded* e = g.ended();
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->finality, Finality::kProposed);
  EXPECT_EQ(e->termination, TerminationKind::kBothFlags);
  EXPECT_FALSE(g.tracker->ended());
}

TEST(BothFlags, AnIncrementExcludesGuidelineIII) {
  // III is for games without increment: announced or not, the order must come from elsewhere.
  FlagGame g("fide-standard", "1800+30", {{"guidelines_III_announced", "true"}});
  g.tracker->both_flags(milliseconds(5000), g.out);
  ASSERT_NE(g.ended(), nullptr);
  EXPECT_EQ(g.ended()->finality, Finality::kProposed);
}

TEST(BothFlags, ExplicitGuidelineParameterApplies) {
  FlagGame g("fide-rapid", "40/7200:1800", {{"both_flags", "guideline_III_3_1"}});
  g.tracker->both_flags(milliseconds(5000), g.out);
  EXPECT_EQ(g.ended(), nullptr);
}

TEST(BothFlags, ClaimOnlySetsWaitForTheClaimThenDraw) {
  FlagGame g("legacy-blitz", "300", {});
  g.tracker->both_flags(milliseconds(5000), g.out);
  EXPECT_EQ(g.ended(), nullptr);
  OperatorAction claim;
  claim.kind = OperatorAction::Kind::kClaim;
  claim.side = kBlack;
  claim.claim = ClaimKind::kFlag;
  g.tracker->operator_action(milliseconds(6000), claim, g.out);
  ASSERT_NE(g.ended(), nullptr);
  EXPECT_EQ(g.ended()->termination, TerminationKind::kBothFlags);
  EXPECT_EQ(g.ended()->result, GameResult::kDraw);
}

TEST(BothFlags, KnownOrderStillLetsTheFirstFlagDecide) {
  FlagGame g("fide-blitz", "180+2", {});
  g.tracker->flag(milliseconds(5000), kWhite, g.out);
  ASSERT_NE(g.ended(), nullptr);
  EXPECT_EQ(g.ended()->result, GameResult::kBlackWins);
  EXPECT_EQ(g.ended()->termination, TerminationKind::kTimeForfeit);
}

}  // namespace
}  // namespace eboard::engine
