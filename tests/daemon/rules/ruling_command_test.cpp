// The Ruling command (command.proto `Ruling.seq`; docs/interfaces.md §3 `arbiter ruling
// accept|reject SEQ`) through a real BoardSession: the session hands the arbiter the seq
// it published each proposal under, so a ruling naming an older proposal settles that one
// (docs/rules.md §0 authority rule; D13 pskov ladder).
#include <gtest/gtest.h>

#include "daemon/core/board_session.h"
#include "engine/board/fen.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/published_events.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::PublishedEvents;

class RulingCommand : public testing::Test {
 protected:
  void SetUp() override {
    session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0));
  }
  PublishedEvents published_;
  BoardSession session_{"b1", setup(), drivers::WhiteSetting::kLeft, published_.publish()};
  static GameSetup setup() {
    GameSetup s;
    s.rules = "pskov-blitz";
    s.clock = "300";
    return s;
  }
  std::uint32_t infraction(v1::Side side, int at_ms) {
    v1::Command c;
    c.mutable_infraction()->set_side(side);
    EXPECT_TRUE(session_.command(c, milliseconds(at_ms)).ok());
    for (auto it = published_.events.rbegin(); it != published_.events.rend(); ++it)
      if (it->has_penalty()) return it->seq();
    return 0;
  }
  v1::Ack ruling(v1::RulingDecision decision, std::uint32_t seq, int at_ms) {
    v1::Command c;
    c.mutable_ruling()->set_decision(decision);
    c.mutable_ruling()->set_seq(seq);
    return session_.command(c, milliseconds(at_ms));
  }
  std::vector<v1::Penalty> applied() const {
    std::vector<v1::Penalty> out;
    for (const auto& e : published_.events)
      if (e.has_penalty() && e.penalty().applied()) out.push_back(e.penalty());
    return out;
  }
};

TEST_F(RulingCommand, SettlesTheProposalItsSeqNames) {
  const std::uint32_t warning = infraction(v1::SIDE_WHITE, 1000);  // S4 10: warning
  const std::uint32_t minute = infraction(v1::SIDE_WHITE, 2000);   // +1 minute to Black
  const std::uint32_t black_warning = infraction(v1::SIDE_BLACK, 3000);
  ASSERT_LT(warning, minute);
  ASSERT_LT(minute, black_warning);
  ASSERT_TRUE(ruling(v1::RULING_DECISION_ACCEPT, minute, 4000).ok());
  auto done = applied();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].side(), v1::SIDE_WHITE);
  EXPECT_EQ(done[0].kind(), v1::PENALTY_TIME_ADDED);
  // The older warning, by its seq; the newest (Black's) stays open.
  ASSERT_TRUE(ruling(v1::RULING_DECISION_ACCEPT, warning, 5000).ok());
  done = applied();
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[1].side(), v1::SIDE_WHITE);
  EXPECT_EQ(done[1].kind(), v1::PENALTY_WARNING);
  // Settled: naming it again changes nothing.
  const std::size_t n = published_.events.size();
  ruling(v1::RULING_DECISION_ACCEPT, warning, 6000);
  EXPECT_EQ(published_.events.size(), n);
}

// A ruling that names no open proposal is answered with an error ack
// (ACK_ERROR_REJECTED: "valid but not applicable now ... nothing to rule") and changes
// nothing, instead of an ok that did nothing.
TEST_F(RulingCommand, UnknownSeqIsAnError) {
  const std::uint32_t warning = infraction(v1::SIDE_WHITE, 1000);
  ASSERT_GT(warning, 0u);
  const std::size_t n = published_.events.size();
  const v1::Ack refused = ruling(v1::RULING_DECISION_ACCEPT, warning + 50, 2000);
  EXPECT_EQ(refused.code(), v1::ACK_ERROR_REJECTED);
  EXPECT_EQ(refused.error().rfind("ruling.seq: " + std::to_string(warning + 50) +
                                      " names no proposal of board b1's game",
                                  0),
            0u)
      << refused.error();
  EXPECT_EQ(published_.events.size(), n);
  // A seq that exists but opened nothing (the game's start) is no proposal either.
  EXPECT_EQ(ruling(v1::RULING_DECISION_ACCEPT, 1, 2100).code(), v1::ACK_ERROR_REJECTED);
  // The real one still works afterwards.
  EXPECT_TRUE(ruling(v1::RULING_DECISION_ACCEPT, warning, 2200).ok());
  EXPECT_GT(published_.events.size(), n);
}

TEST_F(RulingCommand, SettledProposalIsAnError) {
  const std::uint32_t warning = infraction(v1::SIDE_WHITE, 1000);
  ASSERT_TRUE(ruling(v1::RULING_DECISION_REJECT, warning, 2000).ok());
  const std::size_t n = published_.events.size();
  const v1::Ack again = ruling(v1::RULING_DECISION_ACCEPT, warning, 3000);
  EXPECT_EQ(again.code(), v1::ACK_ERROR_REJECTED);
  EXPECT_EQ(again.error(), "ruling.seq: " + std::to_string(warning) +
                               ": that proposal of board b1 is already settled (rejected); "
                               "nothing was changed");
  EXPECT_EQ(published_.events.size(), n);
}

TEST_F(RulingCommand, RulingWithoutSeqNeedsAnOpenProposal) {
  const v1::Ack none = ruling(v1::RULING_DECISION_ACCEPT, 0, 1000);
  EXPECT_EQ(none.code(), v1::ACK_ERROR_REJECTED);
  EXPECT_EQ(none.error(), "ruling: board b1 has no open proposal to rule on");
  infraction(v1::SIDE_BLACK, 2000);
  EXPECT_TRUE(ruling(v1::RULING_DECISION_ACCEPT, 0, 3000).ok());  // the newest open one
  EXPECT_EQ(ruling(v1::RULING_DECISION_ACCEPT, 0, 4000).code(), v1::ACK_ERROR_REJECTED);
}

}  // namespace
}  // namespace eboard::daemon
