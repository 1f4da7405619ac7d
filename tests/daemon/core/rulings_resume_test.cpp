// The arbiter's proposals on a BoardSession with chosen timestamps (docs/rules.md §0, the
// authority rule): a result signalled with the DGT result pieces, a suspected dead position,
// a penalty and a claim are each open under their seq until a ruling settles them; one
// voice per decision (a newer proposal on the result supersedes the older, a penalty
// ladder's loss is one proposal with its result, a lapse and the game's end withdraw what
// is open, each as a proposalWithdrawn event); and a restarted session (resume) plays the
// journal's commands again in journal order, so the same proposals are open under the same
// seqs, the clocks keep the time added and the board's time line goes on from the journal's
// last atMs, and a new game answered ok but not started is the game set up.
#include <gtest/gtest.h>

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

class Rulings : public SessionFixture {
 protected:
  static GameSetup setup() {
    GameSetup s = testing_support::standard_setup();
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
  v1::Ack command(BoardSession& s, void (*fill)(v1::Command&)) {
    v1::Command c;
    fill(c);
    return run(s, c);
  }
  std::vector<const v1::ProposalWithdrawn*> withdrawn() const {
    std::vector<const v1::ProposalWithdrawn*> out;
    for (const auto& e : published_.events)
      if (e.has_proposal_withdrawn()) out.push_back(&e.proposal_withdrawn());
    return out;
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

void two_hands_white(v1::Command& c) { c.mutable_two_hands()->set_side(v1::SIDE_WHITE); }

// The symptom this guards against: "Penalty proposed: White, game lost" and "Result proposed:
// 0-1" both open for the same second illegal act. It is one decision, listed under its
// gameEnded and named by either event; accepting it ends the game, and what was still open
// (the first act's time penalty) is withdrawn, so a ruling on it is refused with the reason.
TEST_F(Rulings, ASecondIllegalActIsOneProposalOfTheResult) {
  auto s = session();
  two_moves(*s);
  ASSERT_TRUE(command(*s, two_hands_white).ok());
  ASSERT_TRUE(command(*s, two_hands_white).ok());
  const auto open = s->open_proposals();
  ASSERT_EQ(open.size(), 2u);
  EXPECT_EQ(open[0].kind(), v1::PROPOSAL_KIND_PENALTY);
  EXPECT_EQ(open[1].kind(), v1::PROPOSAL_KIND_RESULT);
  EXPECT_EQ(open[1].result(), "0-1");
  ASSERT_EQ(open[1].seqs_size(), 2);
  const v1::Event& lost = published_.events[open[1].seqs(0) - 1];
  ASSERT_TRUE(lost.has_penalty());
  EXPECT_EQ(lost.penalty().kind(), v1::PENALTY_GAME_LOST);
  EXPECT_EQ(open[1].seqs(1), open[1].seq());
  EXPECT_TRUE(published_.events[open[1].seq() - 1].game_ended().proposed());

  // Accepted under the penalty's seq: the same decision.
  ASSERT_TRUE(ruling(*s, v1::RULING_DECISION_ACCEPT, open[1].seqs(0)).ok());
  ASSERT_NE(last_end(), nullptr);
  EXPECT_FALSE(last_end()->game_ended().proposed());
  EXPECT_EQ(last_end()->game_ended().result(), "0-1");
  EXPECT_TRUE(s->open_proposals().empty());
  const auto gone = withdrawn();
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0]->proposal_seq(), open[0].seq());
  EXPECT_EQ(gone[0]->reason(), v1::WITHDRAWN_REASON_GAME_ENDED);
  const v1::Ack late = ruling(*s, v1::RULING_DECISION_ACCEPT, open[0].seq());
  EXPECT_FALSE(late.ok());
  EXPECT_NE(late.error().find("withdrawn (the game ended"), std::string::npos) << late.error();
}

// Two results signalled one after the other: the newer supersedes the older, which is
// withdrawn as an event naming its successor; the same result again opens nothing new.
TEST_F(Rulings, ANewerProposedResultSupersedesTheOlder) {
  auto s = session();
  two_moves(*s);
  const std::uint32_t white = result_piece(*s, Piece::kResultWhiteWins);
  ASSERT_NE(white, 0u);
  s->on_sensor(drivers::SquareChanged{sq('d', 4), Piece::kEmpty}, milliseconds(t_ += 500));
  const std::uint32_t again = result_piece(*s, Piece::kResultWhiteWins);
  EXPECT_EQ(again, 0u) << "the same result is not proposed twice";
  EXPECT_EQ(open_seqs(*s), std::vector<std::uint32_t>{white});
  s->on_sensor(drivers::SquareChanged{sq('d', 4), Piece::kEmpty}, milliseconds(t_ += 500));
  const std::uint32_t black = result_piece(*s, Piece::kResultBlackWins);
  ASSERT_NE(black, 0u);
  EXPECT_EQ(open_seqs(*s), std::vector<std::uint32_t>{black});
  const auto gone = withdrawn();
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0]->proposal_seq(), white);
  EXPECT_EQ(gone[0]->reason(), v1::WITHDRAWN_REASON_SUPERSEDED);
  EXPECT_EQ(gone[0]->superseded_by(), black);
  EXPECT_EQ(published_.events.back().visibility(), v1::VISIBILITY_PUBLIC) << "as the result was";
  const v1::Ack stale = ruling(*s, v1::RULING_DECISION_ACCEPT, white);
  EXPECT_FALSE(stale.ok());
  EXPECT_NE(stale.error().find("withdrawn (superseded by seq " + std::to_string(black)),
            std::string::npos)
      << stale.error();
  EXPECT_FALSE(s->game_ended());
}

// docs/rules.md §4 scenario 10: under fide-rapid with auto_apply_penalties=false the
// penalty for an illegal move is proposed, and lapses when the opponent makes his move
// without a claim: the engine says so (proposalWithdrawn, lapsed), not a ruling's silence.
TEST_F(Rulings, APenaltyThatLapsesIsWithdrawn) {
  GameSetup rapid = setup();
  rapid.rules = "fide-rapid";
  rapid.clock = "900+10";
  rapid.params = {{"auto_apply_penalties", "false"}};
  BoardSession s("b1", rapid, drivers::WhiteSetting::kLeft, published_.publish());
  s.on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
  play_move(s, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
  play_move(s, sq('g', 8), sq('g', 5), Piece::kBlackKnight, ClockSide::kRight, t_);  // illegal
  const auto open = open_seqs(s);
  ASSERT_EQ(open.size(), 1u) << "the penalty proposed";
  play_move(s, sq('d', 2), sq('d', 4), Piece::kWhitePawn, ClockSide::kLeft, t_);
  EXPECT_TRUE(s.open_proposals().empty());
  const auto gone = withdrawn();
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0]->proposal_seq(), open[0]);
  EXPECT_EQ(gone[0]->reason(), v1::WITHDRAWN_REASON_LAPSED);
  const v1::Ack late = ruling(s, v1::RULING_DECISION_ACCEPT, open[0]);
  EXPECT_FALSE(late.ok());
  EXPECT_NE(late.error().find("withdrawn (it lapsed"), std::string::npos) << late.error();
}

// A reject without a seq rules on the newest open proposal; its record names the
// proposal's seqs, so the folded state (eboard-ctl status, a restart) knows the game goes on.
TEST_F(Rulings, ARejectWithoutASeqIsFoldedIntoTheState) {
  auto s = session();
  two_moves(*s);
  const std::uint32_t proposed = result_piece(*s, Piece::kResultBlackWins);
  ASSERT_NE(proposed, 0u);
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_ENDED);
  v1::Command reject;
  reject.mutable_ruling()->set_decision(v1::RULING_DECISION_REJECT);
  ASSERT_TRUE(run(*s, reject).ok());
  const v1::CommandApplied& record = published_.events.back().command_applied();
  EXPECT_EQ(std::vector<std::uint32_t>(record.ruled_seqs().begin(), record.ruled_seqs().end()),
            std::vector<std::uint32_t>{proposed});
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_IN_PROGRESS);
  EXPECT_FALSE(state_.snapshot().result_proposed());
  EXPECT_EQ(state_.snapshot().result(), "");
}

// kill -9 after a new game was answered ok and before its first input (the board not heard
// since a restart): the journal has the command but no gameStarted. The command was
// acknowledged, so the restarted session sets that game up (its players, its white side)
// instead of going on with the one before.
TEST_F(Rulings, ANewGameAnsweredButNotStartedIsTheGameAfterARestart) {
  {
    auto first = session();
    two_moves(*first);
  }
  {
    auto restarted = session();
    ASSERT_FALSE(restarted->resume(state_).has_value());
    v1::Command next;
    v1::NewGame* n = next.mutable_new_game();
    n->set_white_side(v1::CLOCK_SIDE_RIGHT);
    v1::Tag* white = n->add_tags();
    white->set_name("White");
    white->set_value("Gukesh, D");
    v1::Tag* black = n->add_tags();
    black->set_name("Black");
    black->set_value("Firouzja, Alireza");
    ASSERT_TRUE(run(*restarted, next).ok());
  }
  ASSERT_TRUE(state_.new_game_pending());
  ASSERT_TRUE(state_.game_in_progress()) << "the old game as folded: not what resumes";
  const std::uint32_t before = published_.seq();
  const std::int32_t set_up_at = state_.snapshot().at_ms();
  ASSERT_GT(set_up_at, 0);
  auto second = session();
  ASSERT_FALSE(second->resume(state_).has_value());
  EXPECT_EQ(second->resume_warning(), "");
  EXPECT_TRUE(second->open_proposals().empty());
  // The game was set up on the board's time line, which goes on (atMs never goes back).
  EXPECT_EQ(second->resume_at(), milliseconds(set_up_at));
  // The new game starts at the board's first input, with its players and White on the right.
  t_ = int(second->resume_at().count());
  second->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
  play_move(*second, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kRight, t_);
  const v1::Event* started = nullptr;
  for (const auto& e : published_.events) {
    if (e.seq() <= before) continue;
    EXPECT_GE(e.at_ms(), set_up_at) << e.ShortDebugString();
    if (e.has_game_started()) started = &e;
  }
  ASSERT_NE(started, nullptr);
  EXPECT_EQ(started->game_id(), 2u);
  EXPECT_EQ(state_.snapshot().moves_size(), 1) << "White's press on the right completed e4";
  bool named = false;
  for (const auto& t : started->game_started().tags())
    named = named || (t.name() == "White" && t.value() == "Gukesh, D");
  EXPECT_TRUE(named);
}

// A game started by a new game with --white-side: after a restart White's clock is still the
// one that new game named, not the board's configured side.
TEST_F(Rulings, TheNewGamesWhiteSideSurvivesARestart) {
  {
    auto first = session();
    first->on_sensor(drivers::PlacementSeen{placement_of(engine::kStartFen)}, milliseconds(t_));
    v1::Command next;
    next.mutable_new_game()->set_white_side(v1::CLOCK_SIDE_RIGHT);
    ASSERT_TRUE(run(*first, next).ok());
    play_move(*first, sq('e', 2), sq('e', 4), Piece::kWhitePawn, ClockSide::kRight, t_);
    ASSERT_EQ(state_.snapshot().moves_size(), 1);
  }
  EXPECT_FALSE(state_.new_game_pending());
  auto second = session();
  ASSERT_FALSE(second->resume(state_).has_value());
  const auto clocks = second->clock_setting(second->resume_at());
  ASSERT_TRUE(clocks.has_value());
  EXPECT_EQ(clocks->left.count(), state_.snapshot().black_ms()) << "Black on the left";
  EXPECT_EQ(clocks->right.count(), state_.snapshot().white_ms());
}

}  // namespace
}  // namespace eboard::daemon
