// BoardSession::resume when the journal's game cannot be played again from its start
// (recovery.h replay_game): it continues from the last position, and says why in
// resume_warning() for the daemon's log, instead of falling back silently.
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

}  // namespace
}  // namespace eboard::daemon
