// BoardSession::resume when the journal's game cannot be played again from its start
// (recovery.h replay_game): it continues from the last position, and says why in
// resume_warning() for the daemon's log, instead of falling back silently; and when a
// proposal of the journal does not open again, the warning names it, whatever its kind,
// and names nothing that was no proposal (a warning kept as a record, a rejection).
#include <gtest/gtest.h>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"
#include "engine/board/fen.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/play_move.h"
#include "tests/daemon/published_events.h"
#include "tests/daemon/session_fixture.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::play_move;
using testing_support::PublishedEvents;
using testing_support::SessionFixture;
using testing_support::sq;

class ResumeWarning : public testing::Test {
 protected:
  PublishedEvents published_;
  BoardSession::Publish publish() { return published_.publish(); }
  static GameSetup setup() {
    GameSetup s;
    s.rules = "fide-blitz";
    s.clock = "180+2";
    return s;
  }
  // The first life's journal: 1.e4 e5, optionally with the second move's uci damaged
  // (its fen still says e5), so that playing the game again ends elsewhere.
  BoardState journal(bool damaged) {
    {
      BoardSession first("b1", setup(), drivers::WhiteSetting::kLeft, publish());
      int t = 0;
      first.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t));
      play_move(first, sq('e', 2), sq('e', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t);
      play_move(first, sq('e', 7), sq('e', 5), drivers::Piece::kBlackPawn, ClockSide::kRight, t);
    }
    BoardState state("b1");
    int completed = 0;
    for (v1::Event e : published_.events) {
      if (e.has_move_completed() && ++completed == 2 && damaged)
        e.mutable_move_completed()->set_uci("e7e6");
      state.apply(e);
    }
    published_.events.clear();
    return state;
  }
  std::vector<std::uint32_t> plies() const {
    std::vector<std::uint32_t> out;
    for (const auto& e : published_.events)
      if (e.has_move_completed()) out.push_back(e.move_completed().ply());
    return out;
  }
};

TEST_F(ResumeWarning, AGameThatReplaysGivesNoWarning) {
  const BoardState state = journal(false);
  BoardSession second("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  ASSERT_FALSE(second.resume(state).has_value());
  EXPECT_EQ(second.resume_warning(), "");
}

TEST_F(ResumeWarning, AGameThatDoesNotReplayIsResumedFromTheLastPositionWithTheReason) {
  const BoardState state = journal(true);
  ASSERT_TRUE(state.game_in_progress());
  BoardSession second("b1", setup(), drivers::WhiteSetting::kLeft, publish());
  ASSERT_FALSE(second.resume(state).has_value());
  const std::string& warning = second.resume_warning();
  EXPECT_NE(warning.find("board b1: "), std::string::npos) << warning;
  EXPECT_NE(warning.find("could not be played again (played again it ends in"), std::string::npos)
      << warning;
  EXPECT_NE(warning.find("resuming from the last position alone"), std::string::npos) << warning;
  // It still resumes: at the journal's position (after 1...e5), numbering continues.
  second.on_link_up();
  second.on_sensor(drivers::PlacementSeen{placement_of(
                       "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")},
                   milliseconds(0));
  int t = 100;
  play_move(second, sq('g', 1), sq('f', 3), drivers::Piece::kWhiteKnight, ClockSide::kLeft, t);
  EXPECT_EQ(plies(), (std::vector<std::uint32_t>{3}));
}

// The journal's proposals as a restarted daemon reads them, and a journal that lost the
// commands that caused some of them (so that they do not open again when it is played).
class ResumeWarningProposals : public SessionFixture {
 protected:
  std::unique_ptr<BoardSession> session(const std::string& infraction_ladder) {
    GameSetup s = testing_support::standard_setup();
    s.params = {{"infraction_ladder", infraction_ladder}};
    return std::make_unique<BoardSession>("b1", s, drivers::WhiteSetting::kLeft,
                                          published_.publish());
  }
  void two_moves(BoardSession& s) {
    s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    play_move(s, sq('e', 2), sq('e', 4), drivers::Piece::kWhitePawn, ClockSide::kLeft, t_);
    play_move(s, sq('e', 7), sq('e', 5), drivers::Piece::kBlackPawn, ClockSide::kRight, t_);
  }
  std::uint32_t infraction(BoardSession& s) {
    v1::Command c;
    c.mutable_infraction()->set_side(v1::SIDE_WHITE);
    const v1::Ack ack = run(s, c);
    EXPECT_TRUE(ack.ok()) << ack.error();
    return ack.seq();
  }
  BoardState without_commands() const {
    BoardState state("b1");
    for (const v1::Event& e : published_.events)
      if (!e.has_command_applied()) state.apply(e);
    return state;
  }
  const v1::Penalty& penalty(std::uint32_t seq) const {
    return published_.events[seq - 1].penalty();
  }
};

// A warning the arbiter was to rule on is a proposal like any other: when it does not open
// again after a restart, the warning names it. The second infraction's warning, past the
// ladder's one step, is a record for the arbiter and no proposal: it is not named.
TEST_F(ResumeWarningProposals, AnOpenWarningThatDoesNotOpenAgainIsNamed) {
  auto first = session("warning");
  two_moves(*first);
  const std::uint32_t proposed = infraction(*first);
  const std::uint32_t record = infraction(*first);
  ASSERT_EQ(penalty(proposed).kind(), v1::PENALTY_WARNING);
  ASSERT_FALSE(penalty(proposed).applied());
  EXPECT_TRUE(penalty(proposed).proposed());
  ASSERT_EQ(penalty(record).kind(), v1::PENALTY_WARNING);
  ASSERT_FALSE(penalty(record).applied());
  EXPECT_FALSE(penalty(record).proposed());
  ASSERT_EQ(first->open_proposals().size(), 1u);
  EXPECT_EQ(first->open_proposals()[0].seq(), proposed);

  auto second = session("warning");
  ASSERT_FALSE(second->resume(without_commands()).has_value());
  EXPECT_EQ(second->resume_warning(),
            "board b1: the journal's proposals of seq " + std::to_string(proposed) +
                " did not open again when its game was played again; a ruling cannot name them");

  // With its commands the journal opens the warning again under its seq: no warning.
  auto third = session("warning");
  ASSERT_FALSE(third->resume(state_).has_value());
  EXPECT_EQ(third->resume_warning(), "");
  ASSERT_EQ(third->open_proposals().size(), 1u);
  EXPECT_EQ(third->open_proposals()[0].seq(), proposed);
}

// A penalty the arbiter rejected is no proposal of its own: it settles one. A restart
// after the rejection has nothing to warn about.
TEST_F(ResumeWarningProposals, ARejectedPenaltyIsNoProposalOfItsOwn) {
  auto first = session("60");
  two_moves(*first);
  const std::uint32_t proposed = infraction(*first);
  ASSERT_EQ(penalty(proposed).kind(), v1::PENALTY_TIME_ADDED);
  EXPECT_TRUE(penalty(proposed).proposed());
  v1::Command c;
  c.mutable_ruling()->set_decision(v1::RULING_DECISION_REJECT);
  c.mutable_ruling()->set_seq(proposed);
  const v1::Ack rejected = run(*first, c);
  ASSERT_TRUE(rejected.ok()) << rejected.error();
  ASSERT_EQ(penalty(rejected.seq()).proposal_seq(), proposed);
  EXPECT_FALSE(penalty(rejected.seq()).applied());
  EXPECT_FALSE(penalty(rejected.seq()).proposed());
  ASSERT_TRUE(first->open_proposals().empty());

  auto second = session("60");
  ASSERT_FALSE(second->resume(state_).has_value());
  EXPECT_EQ(second->resume_warning(), "");
  EXPECT_TRUE(second->open_proposals().empty());
}

}  // namespace
}  // namespace eboard::daemon
