// BoardState::apply, event by event (board_state.h): the snapshot a consumer gets on
// connect, the game history recovery plays again, the proposed result's life (proposed,
// rejected, withdrawn, confirmed) and the set-up a pending new game keeps. Events are
// written here by hand, the way the stream carries them.
#include "daemon/core/board_state.h"

#include <gtest/gtest.h>

#include "engine/board/fen.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
constexpr const char* kAfterE5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

class BoardStateTest : public testing::Test {
 protected:
  // The next event, numbered and timed as the hub would: seq 1, 2, ...; 100 ms apart.
  v1::Event next() {
    v1::Event e;
    e.set_board_id("b1");
    e.set_seq(++seq_);
    e.set_at_ms(static_cast<std::int32_t>(seq_ * 100));
    e.set_game_id(1);
    e.set_rules("fide-blitz");
    return e;
  }
  std::uint32_t apply(v1::Event e) {
    state_.apply(e);
    return e.seq();
  }
  void start() {
    v1::Event e = next();
    v1::GameStarted* g = e.mutable_game_started();
    g->set_fen(std::string(engine::kStartFen));
    g->set_rules("fide-blitz");
    g->set_time_control("180+2");
    v1::Tag* white = g->add_tags();
    white->set_name("White");
    white->set_value("Carlsen, Magnus");
    g->set_white_ms(180000);
    g->set_black_ms(180000);
    apply(e);
  }
  void completed(int ply, const char* uci, const char* san, v1::Side side, const char* fen,
                 int white_ms, int black_ms) {
    v1::Event e = next();
    v1::MoveCompleted* m = e.mutable_move_completed();
    m->set_ply(static_cast<std::uint32_t>(ply));
    m->set_uci(uci);
    m->set_san(san);
    m->set_side(side);
    m->set_fen(fen);
    m->set_white_ms(white_ms);
    m->set_black_ms(black_ms);
    apply(e);
  }
  std::uint32_t ended(const char* result, bool proposed) {
    v1::Event e = next();
    e.mutable_game_ended()->set_result(result);
    e.mutable_game_ended()->set_termination(v1::TERMINATION_RESIGNATION);
    e.mutable_game_ended()->set_proposed(proposed);
    return apply(e);
  }
  // An applied ruling's record, naming `ruled` as the proposals it settled.
  void ruling(v1::RulingDecision decision, std::uint32_t ruled) {
    v1::Event e = next();
    v1::CommandApplied* a = e.mutable_command_applied();
    a->mutable_command()->mutable_ruling()->set_decision(decision);
    a->mutable_outcome()->set_ok(true);
    a->add_ruled_seqs(ruled);
    apply(e);
  }
  void withdrawn(std::uint32_t seq, v1::WithdrawnReason reason) {
    v1::Event e = next();
    e.mutable_proposal_withdrawn()->add_seqs(seq);
    e.mutable_proposal_withdrawn()->set_reason(reason);
    apply(e);
  }
  // An applied newGame whose own events begin at `first` (0: it published none yet).
  void new_game(std::uint32_t first) {
    v1::Event e = next();
    v1::CommandApplied* a = e.mutable_command_applied();
    a->mutable_command()->mutable_new_game()->set_white_side(v1::CLOCK_SIDE_RIGHT);
    a->mutable_outcome()->set_ok(true);
    a->mutable_outcome()->set_seq(first);
    apply(e);
  }

  BoardState state_{"b1"};
  std::uint32_t seq_ = 0;
};

TEST_F(BoardStateTest, ANewBoardIsConnectingWithNoGame) {
  const v1::Snapshot& s = state_.snapshot();
  EXPECT_EQ(s.board_id(), "b1");
  EXPECT_EQ(s.game_state(), v1::GAME_STATE_NOT_STARTED);
  EXPECT_EQ(s.running(), v1::SIDE_NONE);
  EXPECT_EQ(s.board_state(), v1::DEVICE_STATE_CONNECTING);
  EXPECT_EQ(s.clock_state(), v1::DEVICE_STATE_CONNECTING);
  EXPECT_FALSE(state_.game_in_progress());
}

TEST_F(BoardStateTest, GameStartedSetsTheGameUp) {
  start();
  const v1::Snapshot& s = state_.snapshot();
  EXPECT_EQ(s.last_seq(), 1u);
  EXPECT_EQ(s.at_ms(), 100);
  EXPECT_EQ(s.game_id(), 1u);
  EXPECT_EQ(s.game_state(), v1::GAME_STATE_IN_PROGRESS);
  EXPECT_EQ(s.rules(), "fide-blitz");
  EXPECT_EQ(s.time_control(), "180+2");
  ASSERT_EQ(s.tags_size(), 1);
  EXPECT_EQ(s.tags(0).value(), "Carlsen, Magnus");
  EXPECT_EQ(s.start_fen(), engine::kStartFen);
  EXPECT_EQ(s.fen(), engine::kStartFen);
  EXPECT_EQ(s.placement(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
  EXPECT_EQ(s.white_ms(), 180000);
  EXPECT_TRUE(state_.game_in_progress());
}

// A tentative move shows on the placement only; withdrawn, the placement is the committed
// position's again; completed, it is a move record with the mover's clock.
TEST_F(BoardStateTest, MovesTentativeWithdrawnAndCompleted) {
  start();
  v1::Event tentative = next();
  tentative.mutable_move_tentative()->set_uci("e2e4");
  tentative.mutable_move_tentative()->set_fen(kAfterE4);
  apply(tentative);
  EXPECT_EQ(state_.snapshot().tentative_uci(), "e2e4");
  EXPECT_EQ(state_.snapshot().placement(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR");
  EXPECT_EQ(state_.snapshot().fen(), engine::kStartFen);
  v1::Event back = next();
  back.mutable_move_withdrawn();
  apply(back);
  EXPECT_EQ(state_.snapshot().tentative_uci(), "");
  EXPECT_EQ(state_.snapshot().placement(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");

  completed(1, "e2e4", "e4", v1::SIDE_WHITE, kAfterE4, 179000, 180000);
  completed(2, "e7e5", "e5", v1::SIDE_BLACK, kAfterE5, 179000, 178500);
  const v1::Snapshot& s = state_.snapshot();
  ASSERT_EQ(s.moves_size(), 2);
  EXPECT_EQ(s.moves(0).uci(), "e2e4");
  EXPECT_EQ(s.moves(0).san(), "e4");
  EXPECT_EQ(s.moves(0).clock_ms(), 179000);  // White's clock for White's move
  EXPECT_EQ(s.moves(1).clock_ms(), 178500);  // Black's for Black's
  EXPECT_EQ(s.moves(1).at_ms(), s.at_ms());
  EXPECT_EQ(s.fen(), kAfterE5);
  EXPECT_EQ(s.black_ms(), 178500);
}

TEST_F(BoardStateTest, IllegalMoveCountsAndClocks) {
  start();
  v1::Event illegal = next();
  illegal.mutable_illegal_move_completed()->set_side(v1::SIDE_BLACK);
  illegal.mutable_illegal_move_completed()->set_count(2);
  apply(illegal);
  EXPECT_EQ(state_.snapshot().black_illegal_count(), 2u);
  EXPECT_EQ(state_.snapshot().white_illegal_count(), 0u);
  v1::Event clock = next();
  clock.mutable_clock()->set_white_ms(170000);
  clock.mutable_clock()->set_black_ms(160000);
  clock.mutable_clock()->set_running(v1::SIDE_BLACK);
  clock.mutable_clock()->set_paused(true);
  apply(clock);
  EXPECT_EQ(state_.snapshot().white_ms(), 170000);
  EXPECT_EQ(state_.snapshot().running(), v1::SIDE_BLACK);
  EXPECT_TRUE(state_.snapshot().paused());
}

// Only a final result ends the game; a proposed one leaves it in progress for recovery.
TEST_F(BoardStateTest, AProposedResultIsNotTheEnd) {
  start();
  ended("1-0", true);
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_ENDED);
  EXPECT_TRUE(state_.snapshot().result_proposed());
  EXPECT_EQ(state_.snapshot().running(), v1::SIDE_NONE);
  EXPECT_TRUE(state_.game_in_progress());
  ended("1-0", false);
  EXPECT_FALSE(state_.snapshot().result_proposed());
  EXPECT_FALSE(state_.game_in_progress());
}

TEST_F(BoardStateTest, ARejectedProposalLeavesTheGameGoing) {
  start();
  const std::uint32_t proposed = ended("0-1", true);
  ruling(v1::RULING_DECISION_REJECT, proposed + 100);  // another proposal: no change
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_ENDED);
  ruling(v1::RULING_DECISION_REJECT, proposed);
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_IN_PROGRESS);
  EXPECT_EQ(state_.snapshot().result(), "");
  EXPECT_FALSE(state_.snapshot().result_proposed());
}

// A proposed result withdrawn (superseded, lapsed) is gone; withdrawn because the game
// ended, the final gameEnded says the rest.
TEST_F(BoardStateTest, AWithdrawnProposalIsGoneUnlessTheGameEnded) {
  start();
  std::uint32_t proposed = ended("1-0", true);
  withdrawn(proposed, v1::WITHDRAWN_REASON_SUPERSEDED);
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_IN_PROGRESS);
  proposed = ended("1-0", true);
  withdrawn(proposed, v1::WITHDRAWN_REASON_GAME_ENDED);
  EXPECT_EQ(state_.snapshot().game_state(), v1::GAME_STATE_ENDED);
  EXPECT_TRUE(state_.snapshot().result_proposed());
}

// The history holds the facts recovery plays again, for the game in progress only.
TEST_F(BoardStateTest, TheHistoryHoldsTheFactsOfTheGameInProgress) {
  start();
  completed(1, "e2e4", "e4", v1::SIDE_WHITE, kAfterE4, 179000, 180000);
  v1::Event clock = next();
  clock.mutable_clock()->set_running(v1::SIDE_BLACK);
  apply(clock);
  v1::Event press = next();
  press.mutable_clock_press_without_move()->set_side(v1::SIDE_BLACK);
  apply(press);
  v1::Event penalty = next();
  penalty.mutable_penalty()->set_side(v1::SIDE_BLACK);
  apply(penalty);
  ASSERT_EQ(state_.game_history().size(), 3u);
  EXPECT_TRUE(state_.game_history()[0].has_move_completed());
  EXPECT_TRUE(state_.game_history()[1].has_clock_press_without_move());
  EXPECT_TRUE(state_.game_history()[2].has_penalty());
  start();
  EXPECT_TRUE(state_.game_history().empty());
  EXPECT_EQ(state_.snapshot().moves_size(), 0);
}

// A new game answered ok but not started yet is what a restart sets up; its gameStarted
// ends that; a new game forgets the clock side a `white=auto` board learned.
TEST_F(BoardStateTest, ANewGameIsPendingUntilItStarts) {
  start();
  v1::Event learned = next();
  learned.mutable_clock_side_learned()->set_white_side(v1::CLOCK_SIDE_LEFT);
  apply(learned);
  EXPECT_EQ(state_.learned_white_side(), v1::CLOCK_SIDE_LEFT);
  new_game(0);
  ASSERT_NE(state_.new_game(), nullptr);
  EXPECT_EQ(state_.new_game()->white_side(), v1::CLOCK_SIDE_RIGHT);
  EXPECT_TRUE(state_.new_game_pending());
  EXPECT_EQ(state_.learned_white_side(), std::nullopt);
  start();
  EXPECT_FALSE(state_.new_game_pending());
  // Started within the command (its first event is this gameStarted): not pending.
  new_game(seq_ + 1);
  start();
  EXPECT_FALSE(state_.new_game_pending());
}

TEST_F(BoardStateTest, DeviceStatusIsTheBoardsOrTheClocks) {
  v1::Event clock = next();
  clock.mutable_device_status()->set_role(v1::DEVICE_ROLE_CLOCK);
  clock.mutable_device_status()->set_state(v1::DEVICE_STATE_ABSENT);
  clock.mutable_device_status()->set_detail("no clock on the cable");
  apply(clock);
  EXPECT_EQ(state_.snapshot().clock_state(), v1::DEVICE_STATE_ABSENT);
  EXPECT_EQ(state_.snapshot().board_state(), v1::DEVICE_STATE_CONNECTING);
  EXPECT_EQ(state_.snapshot().device_detail(), "no clock on the cable");
  v1::Event board = next();
  board.mutable_device_status()->set_role(v1::DEVICE_ROLE_BOARD);
  board.mutable_device_status()->set_state(v1::DEVICE_STATE_CONNECTED);
  apply(board);
  EXPECT_EQ(state_.snapshot().board_state(), v1::DEVICE_STATE_CONNECTED);
}

}  // namespace
}  // namespace eboard::daemon
