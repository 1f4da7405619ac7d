#include "daemon/core/board_state.h"

#include <algorithm>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

std::string placement_of(const std::string& fen) { return fen.substr(0, fen.find(' ')); }

}  // namespace

BoardState::BoardState(std::string board_id) {
  snapshot_.set_board_id(std::move(board_id));
  snapshot_.set_game_state(v1::GAME_STATE_NOT_STARTED);
  snapshot_.set_running(v1::SIDE_NONE);
  snapshot_.set_board_state(v1::DEVICE_STATE_CONNECTING);
  snapshot_.set_clock_state(v1::DEVICE_STATE_CONNECTING);
}

// A proposed result the arbiter rejected has not ended the game (docs/rules.md §0): the
// rejection emits no event of its own, its command's record says it, naming the
// proposal's seqs (`ruledSeqs`) even when the ruling named none (the newest open one).
// An applied newGame is remembered for its white side, and for a restart before its game
// started (new_game_pending).
void BoardState::ruled(const v1::CommandApplied& applied) {
  const v1::Command& c = applied.command();
  if (applied.outcome().ok() && c.has_new_game()) {
    new_game_ = c.new_game();
    learned_white_side_.reset();  // a new game learns its clock side again
    // Its game started within the command (the board's position was known) or waits for
    // the board's first input.
    const std::uint32_t first = applied.outcome().seq();
    new_game_pending_ = first == 0 || started_seq_ < first;
  }
  if (!applied.outcome().ok() || !c.has_ruling() || proposed_end_seq_ == 0) return;
  const auto& seqs = applied.ruled_seqs();
  const bool named = c.ruling().seq() == proposed_end_seq_ ||
                     std::find(seqs.begin(), seqs.end(), proposed_end_seq_) != seqs.end();
  if (c.ruling().decision() != v1::RULING_DECISION_REJECT || !named) return;
  proposed_end_gone();
}

// The proposed result is no longer open (rejected, or withdrawn without a final one):
// the game goes on.
void BoardState::proposed_end_gone() {
  proposed_end_seq_ = 0;
  snapshot_.set_game_state(v1::GAME_STATE_IN_PROGRESS);
  snapshot_.clear_result();
  snapshot_.clear_termination();
  snapshot_.clear_result_proposed();
}

void BoardState::apply(const v1::Event& e) {
  v1::Snapshot& s = snapshot_;
  s.set_last_seq(e.seq());
  s.set_at_ms(e.at_ms());
  if (e.game_id() != 0) s.set_game_id(e.game_id());
  if (!e.rules().empty()) s.set_rules(e.rules());
  switch (e.kind_case()) {
    case v1::Event::kGameStarted:
      history_.clear();
      proposed_end_seq_ = 0;
      started_seq_ = e.seq();
      new_game_pending_ = false;
      break;
    case v1::Event::kMoveCompleted:
    case v1::Event::kClockPressWithoutMove:
    case v1::Event::kIllegalMoveCompleted:
    case v1::Event::kPositionChanged:
    case v1::Event::kCommandApplied:
    case v1::Event::kGameEnded:
    case v1::Event::kPenalty:
    case v1::Event::kClaimReceived:
    case v1::Event::kClaimDecided:
    case v1::Event::kDeadPositionSuspected: history_.push_back(e); break;
    default: break;
  }
  switch (e.kind_case()) {
    case v1::Event::kGameStarted: {
      const auto& g = e.game_started();
      s.set_game_state(v1::GAME_STATE_IN_PROGRESS);
      s.set_rules(g.rules());
      s.set_time_control(g.time_control());
      *s.mutable_params() = g.params();
      *s.mutable_tags() = g.tags();
      s.set_start_fen(g.fen());
      s.set_fen(g.fen());
      s.set_placement(placement_of(g.fen()));
      s.clear_moves();
      s.clear_tentative_uci();
      s.set_white_ms(g.white_ms());
      s.set_black_ms(g.black_ms());
      s.clear_result();
      s.clear_termination();
      s.clear_result_proposed();
      s.clear_white_illegal_count();
      s.clear_black_illegal_count();
      break;
    }
    case v1::Event::kMoveTentative:
      s.set_tentative_uci(e.move_tentative().uci());
      s.set_placement(placement_of(e.move_tentative().fen()));
      break;
    case v1::Event::kMoveWithdrawn:
      s.clear_tentative_uci();
      s.set_placement(placement_of(s.fen()));
      break;
    case v1::Event::kMoveCompleted: {
      const auto& m = e.move_completed();
      v1::MoveRecord* record = s.add_moves();
      record->set_ply(m.ply());
      record->set_uci(m.uci());
      record->set_san(m.san());
      record->set_at_ms(e.at_ms());
      record->set_clock_ms(m.side() == v1::SIDE_BLACK ? m.black_ms() : m.white_ms());
      record->set_recovered(m.recovered());
      s.set_fen(m.fen());
      s.set_placement(placement_of(m.fen()));
      s.clear_tentative_uci();
      s.set_white_ms(m.white_ms());
      s.set_black_ms(m.black_ms());
      break;
    }
    case v1::Event::kPositionChanged:
      s.set_fen(e.position_changed().fen());
      s.set_placement(placement_of(e.position_changed().fen()));
      s.clear_tentative_uci();
      break;
    case v1::Event::kIllegalMoveCompleted:
      if (e.illegal_move_completed().side() == v1::SIDE_WHITE) {
        s.set_white_illegal_count(e.illegal_move_completed().count());
      } else {
        s.set_black_illegal_count(e.illegal_move_completed().count());
      }
      break;
    case v1::Event::kClock:
      s.set_white_ms(e.clock().white_ms());
      s.set_black_ms(e.clock().black_ms());
      s.set_running(e.clock().running());
      s.set_paused(e.clock().paused());
      break;
    case v1::Event::kCommandApplied: ruled(e.command_applied()); break;
    case v1::Event::kProposalWithdrawn: {
      const auto& seqs = e.proposal_withdrawn().seqs();
      const bool end = proposed_end_seq_ != 0 && s.result_proposed() &&
                       std::find(seqs.begin(), seqs.end(), proposed_end_seq_) != seqs.end();
      if (end && e.proposal_withdrawn().reason() != v1::WITHDRAWN_REASON_GAME_ENDED)
        proposed_end_gone();
      break;
    }
    case v1::Event::kGameEnded:
      proposed_end_seq_ = e.game_ended().proposed() ? e.seq() : 0;
      s.set_game_state(v1::GAME_STATE_ENDED);
      s.set_result(e.game_ended().result());
      s.set_termination(e.game_ended().termination());
      s.set_result_proposed(e.game_ended().proposed());
      s.set_running(v1::SIDE_NONE);
      break;
    case v1::Event::kClockSideLearned:
      learned_white_side_ = e.clock_side_learned().white_side();
      break;
    case v1::Event::kDeviceStatus: {
      const auto& d = e.device_status();
      if (d.role() == v1::DEVICE_ROLE_CLOCK) {
        s.set_clock_state(d.state());
      } else {
        s.set_board_state(d.state());
      }
      s.set_device_detail(d.detail());
      break;
    }
    default: break;
  }
}

}  // namespace eboard::daemon
