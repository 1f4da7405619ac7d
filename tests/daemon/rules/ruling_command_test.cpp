// The Ruling command (command.proto `Ruling.seq`; interfaces.md §3 `arbiter ruling
// accept|reject SEQ`) through a real BoardSession: the session hands the arbiter the seq
// it published each proposal under, so a ruling naming an older proposal settles that one
// (rules.md §0 authority rule; D13 pskov ladder).
#include <gtest/gtest.h>

#include "daemon/core/board_session.h"
#include "engine/board/fen.h"
#include "tests/daemon/placement_of.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using std::chrono::milliseconds;
using testing_support::placement_of;

class RulingCommand : public testing::Test {
 protected:
  void SetUp() override { session_.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(0)); }
  std::vector<v1::Event> events_;
  std::uint32_t seq_ = 0;
  BoardSession session_{"b1", setup(), drivers::WhiteSetting::kLeft, [this](v1::Event e) {
                          e.set_seq(++seq_);
                          events_.push_back(e);
                          return seq_;
                        }};
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
    for (auto it = events_.rbegin(); it != events_.rend(); ++it)
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
    for (const auto& e : events_)
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
  const std::size_t n = events_.size();
  ruling(v1::RULING_DECISION_ACCEPT, warning, 6000);
  EXPECT_EQ(events_.size(), n);
}

}  // namespace
}  // namespace eboard::daemon
