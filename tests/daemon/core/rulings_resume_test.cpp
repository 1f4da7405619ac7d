// The arbiter's proposals on a BoardSession with chosen timestamps (docs/rules.md §0, the
// authority rule): a result signalled with the DGT result pieces, a suspected dead position,
// a penalty and a claim are each open under their seq until a ruling settles them; and a
// restarted session (resume) plays the journal's commands again in journal order, so the
// same proposals are open under the same seqs, the clocks keep the time added and the
// board's time line goes on from the journal's last atMs.
#include <gtest/gtest.h>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"
#include "daemon/core/command_journal.h"
#include "engine/board/fen.h"
#include "tests/daemon/placement_of.h"
#include "tests/daemon/play_move.h"
#include "tests/daemon/published_events.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using drivers::ClockSide;
using drivers::Piece;
using std::chrono::milliseconds;
using testing_support::placement_of;
using testing_support::play_move;
using testing_support::PublishedEvents;

constexpr int sq(char file, int rank) { return (rank - 1) * 8 + (file - 'a'); }

class Rulings : public testing::Test {
 protected:
  BoardState state_{"b1"};
  PublishedEvents published_{"b1", &state_};
  int t_ = 0;

  static GameSetup setup() {
    GameSetup s;
    s.rules = "fide-standard";
    s.clock = "5400+30";
    s.tags = {{"White", "Carlsen, Magnus"}, {"Black", "Ding, Liren"}};
    return s;
  }
  std::unique_ptr<BoardSession> session() {
    return std::make_unique<BoardSession>("b1", setup(), drivers::WhiteSetting::kLeft,
                                          published_.publish());
  }
  // 1.e4 e5 on the board.
  void two_moves(BoardSession& s) {
    s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    play_move(s, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
    play_move(s, sq('e', 7), sq('e', 5), Piece::kBlackPawn, ClockSide::kRight, t_);
  }
  // A result piece put on an empty square and left standing.
  std::uint32_t result_piece(BoardSession& s, Piece piece) {
    const std::uint32_t before = published_.seq();
    s.on_sensor(drivers::SquareChanged{sq('d', 4), piece}, milliseconds(t_ += 500));
    s.advance(milliseconds(t_ += 2000));
    for (const auto& e : published_.events)
      if (e.seq() > before && e.has_game_ended() && e.game_ended().proposed()) return e.seq();
    return 0;
  }
  // As eboardd runs a command: the session's answer, then its commandApplied record.
  v1::Ack run(BoardSession& s, v1::Command c) {
    c.set_board_id("b1");
    const milliseconds now(t_ += 100);
    const v1::Ack ack = s.command(c, now);
    published_.publish()(command_applied(c, "test", ack, published_.seq(), state_.snapshot(),
                                         std::int32_t(now.count())));
    return ack;
  }
  v1::Ack ruling(BoardSession& s, v1::RulingDecision decision, std::uint32_t seq) {
    v1::Command c;
    c.mutable_ruling()->set_decision(decision);
    c.mutable_ruling()->set_seq(seq);
    return run(s, c);
  }
  std::vector<std::uint32_t> open_seqs(const BoardSession& s) const {
    std::vector<std::uint32_t> seqs;
    for (const auto& p : s.open_proposals()) seqs.push_back(p.seq());
    return seqs;
  }
  const v1::Event* last_end() const {
    for (auto it = published_.events.rbegin(); it != published_.events.rend(); ++it)
      if (it->has_game_ended()) return &*it;
    return nullptr;
  }
};

TEST_F(Rulings, ResultPiecesAreAProposalTheArbiterAccepts) {
  auto s = session();
  two_moves(*s);
  const std::uint32_t proposed = result_piece(*s, Piece::kResultWhiteWins);
  ASSERT_NE(proposed, 0u);
  const auto open = s->open_proposals();
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].seq(), proposed);
  EXPECT_EQ(open[0].kind(), v1::PROPOSAL_KIND_RESULT);
  EXPECT_EQ(open[0].result(), "1-0");
  EXPECT_FALSE(s->game_ended());
  const v1::Ack ack = ruling(*s, v1::RULING_DECISION_ACCEPT, proposed);
  ASSERT_TRUE(ack.ok()) << ack.error();
  ASSERT_NE(last_end(), nullptr);
  EXPECT_FALSE(last_end()->game_ended().proposed());
  EXPECT_EQ(last_end()->game_ended().result(), "1-0");
  EXPECT_EQ(last_end()->game_ended().proposal_seq(), proposed);
  EXPECT_TRUE(s->game_ended());
  EXPECT_TRUE(s->open_proposals().empty());
}

TEST_F(Rulings, ARejectedResultLeavesTheGameGoing) {
  auto s = session();
  two_moves(*s);
  const std::uint32_t proposed = result_piece(*s, Piece::kResultBlackWins);
  ASSERT_NE(proposed, 0u);
  v1::Command without_seq;
  without_seq.mutable_ruling()->set_decision(v1::RULING_DECISION_REJECT);
  const v1::Ack ack = run(*s, without_seq);  // the newest open proposal
  ASSERT_TRUE(ack.ok()) << ack.error();
  EXPECT_FALSE(s->game_ended());
  EXPECT_TRUE(s->open_proposals().empty());
  EXPECT_TRUE(last_end()->game_ended().proposed()) << "nothing but the proposal ended";
  const v1::Ack again = ruling(*s, v1::RULING_DECISION_ACCEPT, proposed);
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.error().find("already settled"), std::string::npos) << again.error();
  // The game goes on: the result piece taken off, White's next move completes.
  s->on_sensor(drivers::SquareChanged{sq('d', 4), Piece::kEmpty}, milliseconds(t_ += 500));
  play_move(*s, sq('g', 1), sq('f', 3), Piece::kWhiteKnight, ClockSide::kLeft, t_);
  EXPECT_EQ(state_.snapshot().moves_size(), 3);
}

TEST_F(Rulings, ASuspectedDeadPositionIsAProposedDraw) {
  GameSetup blocked = setup();
  blocked.params = {{"dead_position_analysis", "structural"}};
  blocked.start_fen = "2bk4/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 b - - 0 39";
  BoardSession s("b1", blocked, drivers::WhiteSetting::kLeft, published_.publish());
  s.on_sensor(drivers::PlacementSeen{placement_of(blocked.start_fen)}, milliseconds(t_));
  play_move(s, sq('d', 8), sq('e', 8), Piece::kBlackKing, ClockSide::kRight, t_);
  const auto open = s.open_proposals();
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].kind(), v1::PROPOSAL_KIND_RESULT);
  EXPECT_EQ(open[0].termination(), v1::TERMINATION_DEAD_POSITION);
  const v1::Event& suspected = published_.events[open[0].seq() - 1];
  EXPECT_TRUE(suspected.has_dead_position_suspected());
  ASSERT_TRUE(ruling(s, v1::RULING_DECISION_ACCEPT, open[0].seq()).ok());
  ASSERT_NE(last_end(), nullptr);
  EXPECT_EQ(last_end()->game_ended().result(), "1/2-1/2");
  EXPECT_EQ(last_end()->game_ended().termination(), v1::TERMINATION_DEAD_POSITION);
  EXPECT_EQ(last_end()->game_ended().proposal_seq(), open[0].seq());
}

TEST_F(Rulings, AResumedSessionKeepsTheArbitersWork) {
  std::uint32_t penalty = 0;
  std::uint32_t result = 0;
  std::uint32_t claim = 0;
  {
    auto first = session();
    two_moves(*first);
    v1::Command add;
    add.mutable_add_time()->set_side(v1::SIDE_BLACK);
    add.mutable_add_time()->set_delta_ms(60000);
    ASSERT_TRUE(run(*first, add).ok());
    v1::Command hands;
    hands.mutable_two_hands()->set_side(v1::SIDE_WHITE);
    ASSERT_TRUE(run(*first, hands).ok());
    v1::Command threefold;
    threefold.mutable_claim()->set_side(v1::SIDE_WHITE);
    threefold.mutable_claim()->set_kind(v1::CLAIM_KIND_THREEFOLD);
    ASSERT_TRUE(run(*first, threefold).ok());
    result = result_piece(*first, Piece::kResultWhiteWins);
    const auto open = open_seqs(*first);
    ASSERT_EQ(open.size(), 3u);
    penalty = open[0];
    claim = open[1];
    EXPECT_EQ(open[2], result);
    // The claim found incorrect, as the arbiter confirms (+2 minutes to Black, 9.5.3).
    ASSERT_TRUE(ruling(*first, v1::RULING_DECISION_ACCEPT, claim).ok());
    EXPECT_EQ(open_seqs(*first), (std::vector<std::uint32_t>{penalty, result}));
  }
  const std::int32_t last_at = state_.snapshot().at_ms();
  const std::int32_t black_before = state_.snapshot().black_ms();
  EXPECT_GT(black_before, 5400000 + 60000) << "the added minute";

  auto second = session();
  ASSERT_FALSE(second->resume(state_).has_value());
  EXPECT_EQ(second->resume_warning(), "");
  EXPECT_EQ(second->resume_at(), milliseconds(last_at));
  EXPECT_EQ(open_seqs(*second), (std::vector<std::uint32_t>{penalty, result}));
  EXPECT_EQ(second->open_proposals()[1].result(), "1-0");
  const auto clocks = second->clock_setting(milliseconds(last_at));
  ASSERT_TRUE(clocks.has_value());
  EXPECT_EQ(clocks->right.count(), black_before) << "Black's clock, on the right";
  t_ = last_at;
  const v1::Ack settled = ruling(*second, v1::RULING_DECISION_ACCEPT, claim);
  EXPECT_NE(settled.error().find("already settled"), std::string::npos) << settled.error();
  const std::uint32_t before = published_.seq();
  ASSERT_TRUE(ruling(*second, v1::RULING_DECISION_ACCEPT, penalty).ok());
  bool applied = false;
  for (const auto& e : published_.events) {
    if (e.seq() <= before) continue;
    EXPECT_GT(e.at_ms(), last_at) << "the time line goes on";
    if (e.has_penalty() && e.penalty().applied() && e.penalty().proposal_seq() == penalty)
      applied = true;
  }
  EXPECT_TRUE(applied);
  ASSERT_TRUE(ruling(*second, v1::RULING_DECISION_ACCEPT, result).ok());
  ASSERT_NE(last_end(), nullptr);
  EXPECT_EQ(last_end()->game_ended().result(), "1-0");
  EXPECT_EQ(last_end()->game_ended().proposal_seq(), result);
  EXPECT_FALSE(last_end()->game_ended().proposed());
}

}  // namespace
}  // namespace eboard::daemon
