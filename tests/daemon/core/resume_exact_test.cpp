// A restarted session (BoardSession::resume) gives back exactly what the arbiter and the
// board had: each open proposal under the seq the journal recorded for it, found among the
// events its own command or input published (never another's, when the journal's game
// does not play again event for event), and a `white=auto` board's learned clock side.
#include <gtest/gtest.h>

#include <functional>

#include "engine/board/fen.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/play_move.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using drivers::Piece;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::play_move;
using testing_support::SessionFixture;
using testing_support::sq;

class ResumeExact : public SessionFixture {
 protected:
  std::unique_ptr<BoardSession> session(drivers::WhiteSetting white) {
    return std::make_unique<BoardSession>("b1", testing_support::standard_setup(), white,
                                          published_.publish());
  }
  v1::Ack two_hands(BoardSession& s, v1::Side side) {
    v1::Command c;
    c.mutable_two_hands()->set_side(side);
    return run(s, c);
  }
  v1::Ack infraction(BoardSession& s, v1::Side side) {
    v1::Command c;
    c.mutable_infraction()->set_side(side);
    return run(s, c);
  }
  static std::vector<std::pair<std::uint32_t, v1::Side>> open(const BoardSession& s) {
    std::vector<std::pair<std::uint32_t, v1::Side>> out;
    for (const auto& p : s.open_proposals()) out.emplace_back(p.seq(), p.side());
    return out;
  }
  // The journal as folded from the published events `keep` keeps (and may change).
  BoardState folded(const std::function<bool(v1::Event&)>& keep) const {
    BoardState state("b1");
    for (v1::Event e : published_.events)
      if (keep(e)) state.apply(e);
    return state;
  }
  std::vector<std::uint32_t> proposed_penalties() const {
    std::vector<std::uint32_t> seqs;
    for (const auto& e : published_.events)
      if (e.has_penalty() && !e.penalty().applied()) seqs.push_back(e.seq());
    return seqs;
  }
};

// Several open penalties, the same kind, both sides: each comes back under its own seq.
TEST_F(ResumeExact, SeveralPenaltiesComeBackUnderTheirSeqs) {
  std::vector<std::pair<std::uint32_t, v1::Side>> before;
  {
    auto first = session(drivers::WhiteSetting::kLeft);
    first->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    play_move(*first, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    ASSERT_TRUE(two_hands(*first, v1::SIDE_BLACK).ok());
    ASSERT_TRUE(infraction(*first, v1::SIDE_WHITE).ok());
    ASSERT_TRUE(two_hands(*first, v1::SIDE_WHITE).ok());
    before = open(*first);
  }

  ASSERT_EQ(before.size(), 2u) << "the infraction is a record (12.9), no decision";
  EXPECT_EQ(before[0].second, v1::SIDE_BLACK);
  EXPECT_EQ(before[1].second, v1::SIDE_WHITE);
  auto second = session(drivers::WhiteSetting::kLeft);
  ASSERT_FALSE(second->resume(state_).has_value());
  EXPECT_EQ(second->resume_warning(), "");
  EXPECT_EQ(open(*second), before);
}

// A journal that does not play again event for event: the record of Black's penalty is
// missing, so the first command's replay proposes a penalty the journal does not have among
// that command's seqs. It must not take the seq of White's penalty, a later command's.
TEST_F(ResumeExact, AProposalIsNeverGivenAnotherCommandsSeq) {
  {
    auto first = session(drivers::WhiteSetting::kLeft);
    first->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    play_move(*first, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    ASSERT_TRUE(two_hands(*first, v1::SIDE_BLACK).ok());
    ASSERT_TRUE(two_hands(*first, v1::SIDE_WHITE).ok());
    ASSERT_EQ(open(*first).size(), 2u);
  }
  const std::vector<std::uint32_t> penalties = proposed_penalties();
  ASSERT_EQ(penalties.size(), 2u);
  auto second = session(drivers::WhiteSetting::kLeft);
  ASSERT_FALSE(
      second->resume(folded([&](v1::Event& e) { return e.seq() != penalties[0]; })).has_value());
  EXPECT_EQ(open(*second),
            (std::vector<std::pair<std::uint32_t, v1::Side>>{{penalties[1], v1::SIDE_WHITE}}))
      << "White's penalty under its seq; Black's, not in the journal, cannot be named";
}

// A journal proposal the replay does not open again among its cause's seqs (here the
// command's record ends before it): the restart says which.
TEST_F(ResumeExact, AProposalThatDoesNotOpenAgainIsNamedInTheWarning) {
  {
    auto first = session(drivers::WhiteSetting::kLeft);
    first->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    play_move(*first, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    ASSERT_TRUE(two_hands(*first, v1::SIDE_BLACK).ok());
  }
  const std::vector<std::uint32_t> penalties = proposed_penalties();
  ASSERT_EQ(penalties.size(), 1u);
  auto second = session(drivers::WhiteSetting::kLeft);
  ASSERT_FALSE(second
                   ->resume(folded([&](v1::Event& e) {
                     if (e.has_command_applied())
                       e.mutable_command_applied()->set_last_seq(penalties[0] - 1);
                     return true;
                   }))
                   .has_value());
  EXPECT_TRUE(second->open_proposals().empty());
  EXPECT_NE(second->resume_warning().find("seq " + std::to_string(penalties[0])), std::string::npos)
      << second->resume_warning();
}

drivers::ClockReading reading(int left, int right, ClockSide running) {
  drivers::ClockReading r;
  r.left = milliseconds(left);
  r.right = milliseconds(right);
  r.running = true;
  r.turn = running;
  return r;
}

// white=auto: White sat on the right, as the clock that ran first said. After 1.e4 Black's
// clock (the left one) runs; a restarted session must not take it for White's.
TEST_F(ResumeExact, AnAutoBoardKeepsTheClockSideItLearned) {
  {
    auto first = session(drivers::WhiteSetting::kAuto);
    first->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    first->on_sensor(reading(5400000, 5400000, ClockSide::kRight), milliseconds(t_ += 100));
    play_move(*first, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kRight, t_);
    ASSERT_EQ(state_.snapshot().moves_size(), 1) << "White's press on the right completed e4";
  }
  ASSERT_EQ(state_.learned_white_side(), v1::CLOCK_SIDE_RIGHT);
  EXPECT_EQ(count(&v1::Event::has_clock_side_learned), 1);
  auto second = session(drivers::WhiteSetting::kAuto);
  ASSERT_FALSE(second->resume(state_).has_value());
  t_ = int(second->resume_at().count());
  const auto clocks = second->clock_setting(milliseconds(t_));
  ASSERT_TRUE(clocks.has_value());
  EXPECT_EQ(clocks->right.count(), state_.snapshot().white_ms()) << "White's clock, the right";
  EXPECT_EQ(clocks->left.count(), state_.snapshot().black_ms());
  // Black's clock runs, on the left: Black's, and Black's press on the left completes e5.
  second->on_sensor(drivers::PlacementSeen{placement_of(state_.snapshot().fen())},
                    milliseconds(t_ += 100));
  second->on_sensor(reading(5390000, 5400000, ClockSide::kLeft), milliseconds(t_ += 100));
  EXPECT_EQ(state_.snapshot().running(), v1::SIDE_BLACK);
  play_move(*second, sq('e', 7), sq('e', 5), Piece::kBlackPawn, ClockSide::kLeft, t_);
  EXPECT_EQ(state_.snapshot().moves_size(), 2);
}

// A new game forgets the learned side: its own first running clock decides.
TEST_F(ResumeExact, ANewGameForgetsTheLearnedSide) {
  auto first = session(drivers::WhiteSetting::kAuto);
  first->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
  first->on_sensor(reading(5400000, 5400000, ClockSide::kRight), milliseconds(t_ += 100));
  ASSERT_EQ(state_.learned_white_side(), v1::CLOCK_SIDE_RIGHT);
  v1::Command next;
  next.mutable_new_game();
  ASSERT_TRUE(run(*first, next).ok());
  EXPECT_EQ(state_.learned_white_side(), std::nullopt);
}

}  // namespace
}  // namespace eboard::daemon
