#include "daemon/event_mapping.h"

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/clock/time_control.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::GameEvent;

v1::Reason reason_of(engine::IllegalReason r) {
  using R = engine::IllegalReason;
  switch (r) {
    case R::kPieceMovement: return v1::REASON_PIECE_MOVEMENT;
    case R::kKingInCheck: return v1::REASON_KING_IN_CHECK;
    case R::kCastling: return v1::REASON_CASTLING;
    case R::kWrongSide: return v1::REASON_WRONG_SIDE;
    case R::kOwnPieceCaptured: return v1::REASON_OWN_PIECE_CAPTURED;
    case R::kPromotionIncomplete: return v1::REASON_PROMOTION_INCOMPLETE;
    case R::kKingCaptured: return v1::REASON_KING_CAPTURED;
    case R::kPressWithoutMove: return v1::REASON_PRESS_WITHOUT_MOVE;
    case R::kTwoHands: return v1::REASON_TWO_HANDS;
    case R::kUnexplained: return v1::REASON_UNEXPLAINED;
  }
  return v1::REASON_UNSPECIFIED;
}

v1::Termination termination_of(engine::TerminationKind t) {
  // The engine's enum lists the proto's values in the proto's order, from 1.
  return v1::Termination(int(t) + 1);
}

v1::Completion completion_of(engine::CompletionKind c) {
  switch (c) {
    case engine::CompletionKind::kClockPress: return v1::COMPLETION_CLOCK_PRESS;
    case engine::CompletionKind::kGameEnd: return v1::COMPLETION_GAME_END;
    case engine::CompletionKind::kNextMove: return v1::COMPLETION_NEXT_MOVE;
    case engine::CompletionKind::kArbiter: return v1::COMPLETION_ARBITER;
    case engine::CompletionKind::kOpponentBegan: return v1::COMPLETION_OPPONENT_BEGAN;
    case engine::CompletionKind::kSettled: return v1::COMPLETION_SETTLED;
    case engine::CompletionKind::kRecovered: return v1::COMPLETION_RECOVERED;
  }
  return v1::COMPLETION_UNSPECIFIED;
}

v1::PressClassification press_class_of(engine::PressClass c) {
  switch (c) {
    case engine::PressClass::kIllegal: return v1::PRESS_CLASSIFICATION_ILLEGAL;
    case engine::PressClass::kRestartAllowed: return v1::PRESS_CLASSIFICATION_RESTART_ALLOWED;
    case engine::PressClass::kNeedsRuling: return v1::PRESS_CLASSIFICATION_NEEDS_RULING;
  }
  return v1::PRESS_CLASSIFICATION_UNSPECIFIED;
}

v1::ClockField clock_field_of(engine::ClockField f) {
  switch (f) {
    case engine::ClockField::kWhiteMs: return v1::CLOCK_FIELD_WHITE_MS;
    case engine::ClockField::kBlackMs: return v1::CLOCK_FIELD_BLACK_MS;
    case engine::ClockField::kWhiteMoves: return v1::CLOCK_FIELD_WHITE_MOVES;
    case engine::ClockField::kBlackMoves: return v1::CLOCK_FIELD_BLACK_MOVES;
    case engine::ClockField::kRunning: return v1::CLOCK_FIELD_RUNNING;
  }
  return v1::CLOCK_FIELD_UNSPECIFIED;
}

v1::SetupIrregularity setup_kind_of(engine::SetupIrregularKind k) {
  switch (k) {
    case engine::SetupIrregularKind::kWrongPosition: return v1::SETUP_IRREGULARITY_WRONG_POSITION;
    case engine::SetupIrregularKind::kBoardRotated: return v1::SETUP_IRREGULARITY_BOARD_ROTATED;
    case engine::SetupIrregularKind::kKingMisplaced: return v1::SETUP_IRREGULARITY_KING_MISPLACED;
    case engine::SetupIrregularKind::kRookMisplaced: return v1::SETUP_IRREGULARITY_ROOK_MISPLACED;
  }
  return v1::SETUP_IRREGULARITY_UNSPECIFIED;
}

// The arbiter's enums list the proto's values in the proto's order, from 1.
static_assert(int(v1::CLAIM_KIND_AGREEMENT) == int(engine::ClaimKind::kAgreement) + 1);
v1::ClaimKind claim_kind_of(engine::ClaimKind k) { return v1::ClaimKind(int(k) + 1); }
v1::PenaltyKind penalty_kind_of(engine::PenaltyKind k) { return v1::PenaltyKind(int(k) + 1); }
v1::ClaimDecisionReason claim_reason_of(engine::ClaimReason r) {
  return v1::ClaimDecisionReason(int(r));
}
v1::Unwinnability unwinnability_of(engine::UnwinnabilityNote u) {
  return v1::Unwinnability(int(u));
}
v1::CastlingWing wing_of(engine::CastlingWing w) { return v1::CastlingWing(int(w) + 1); }
v1::IllegalPositionKind illegal_position_of(engine::IllegalPositionKind k) {
  return v1::IllegalPositionKind(int(k) + 1);
}

v1::Side side_of(engine::Color c) { return c == engine::kWhite ? v1::SIDE_WHITE : v1::SIDE_BLACK; }

std::int32_t ms_of(std::chrono::milliseconds d) { return std::int32_t(d.count()); }

template <class M>
void add_squares(M* m, const std::vector<engine::Square>& squares) {
  for (const engine::Square s : squares) m->add_squares(engine::square_name(s));
}

// An illegal move's `uci`: its two squares ("e2e5"), or "" when the analysis named none.
std::string illegal_uci(engine::Square from, engine::Square to) {
  if (from == engine::kNoSquare) return "";
  return engine::square_name(from) + engine::square_name(to);
}

std::string square_text(engine::Square s) {
  return s == engine::kNoSquare ? "" : engine::square_name(s);
}

// squareChanged.piece: the FEN letter, "" when emptied, "?" or a result piece's digit.
std::string square_code_text(engine::SquareCode code) {
  return code == engine::kEmptyCode ? "" : std::string(1, engine::square_code_to_char(code));
}

template <class M>
void set_sighting(M* m, const engine::events::MoveSighting& s) {
  m->set_first_seen_ms(ms_of(s.first_seen));
  m->set_slid_through(s.slid_through);
  m->set_taken_back(s.taken_back);
  m->set_piece_missing(s.piece_missing);
}

// One function per kind: each fills the kind's message of `out`.
namespace ev = engine::events;

void fill(const ev::GameStarted& e, v1::Event& out) {
  auto* m = out.mutable_game_started();
  m->set_fen(engine::to_fen(e.position));
  m->set_rules(e.rules);
  m->set_time_control(engine::format_time_control(e.time_control));
  for (const auto& [name, value] : e.params) {
    auto* p = m->add_params();
    p->set_name(name);
    p->set_value(value);
  }
  for (const auto& [name, value] : e.tags) {
    auto* t = m->add_tags();
    t->set_name(name);
    t->set_value(value);
  }
  m->set_white_ms(ms_of(e.white_remaining));
  m->set_black_ms(ms_of(e.black_remaining));
}

void fill(const ev::MoveTentative& e, v1::Event& out) {
  auto* m = out.mutable_move_tentative();
  m->set_uci(engine::to_uci(e.move));
  m->set_san(e.san);
  m->set_side(side_of(e.side));
  m->set_fen(engine::to_fen(e.position));
  set_sighting(m, e.sighting);
}

void fill(const ev::MoveWithdrawn& e, v1::Event& out) {
  auto* m = out.mutable_move_withdrawn();
  m->set_uci(engine::to_uci(e.move));
  m->set_side(side_of(e.side));
}

void fill(const ev::IllegalMovePending& e, v1::Event& out) {
  auto* m = out.mutable_illegal_move_pending();
  m->set_reason(reason_of(e.reason));
  m->set_description(e.description);
  m->set_side(side_of(e.side));
  m->set_uci(illegal_uci(e.from, e.to));
  add_squares(m, e.squares);
}

void fill(const ev::IllegalMoveCorrected& e, v1::Event& out) {
  out.mutable_illegal_move_corrected()->set_side(side_of(e.side));
}

void fill(const ev::MoveCompleted& e, v1::Event& out) {
  auto* m = out.mutable_move_completed();
  m->set_ply(std::uint32_t(e.ply));
  m->set_uci(engine::to_uci(e.move));
  m->set_san(e.san);
  m->set_fen(engine::to_fen(e.position));
  m->set_white_ms(ms_of(e.white_remaining));
  m->set_black_ms(ms_of(e.black_remaining));
  m->set_side(side_of(e.side));
  m->set_completion(completion_of(e.completion));
  m->set_recovered(e.completion == engine::CompletionKind::kRecovered);
  set_sighting(m, e.sighting);
}

void fill(const ev::IllegalMoveCompleted& e, v1::Event& out) {
  auto* m = out.mutable_illegal_move_completed();
  m->set_side(side_of(e.side));
  m->set_reason(reason_of(e.reason));
  m->set_description(e.description);
  m->set_count(std::uint32_t(e.count));
  m->set_uci(illegal_uci(e.from, e.to));
}

void fill(const ev::ClockPressWithoutMove& e, v1::Event& out) {
  auto* m = out.mutable_clock_press_without_move();
  m->set_side(side_of(e.side));
  m->set_classification(press_class_of(e.classification));
}

void fill(const ev::RestoreRequested& e, v1::Event& out) {
  auto* m = out.mutable_restore_requested();
  m->set_fen(engine::to_fen(e.position));
  add_squares(m, e.squares);
}

void fill(const ev::ClockShown& e, v1::Event& out) {
  auto* m = out.mutable_clock();
  m->set_white_ms(ms_of(e.white_remaining));
  m->set_black_ms(ms_of(e.black_remaining));
  m->set_running(e.running ? side_of(*e.running) : v1::SIDE_NONE);
  m->set_paused(e.paused);
  m->set_white_period(std::uint32_t(e.white_period));
  m->set_black_period(std::uint32_t(e.black_period));
}

void fill(const ev::FlagFell& e, v1::Event& out) {
  auto* m = out.mutable_flag_fell();
  m->set_side(side_of(e.side));
  m->set_period(std::uint32_t(e.period));
  m->set_moves_completed(std::uint32_t(e.moves_completed));
  m->set_first(e.first);
}

void fill(const ev::GameEnded& e, v1::Event& out) {
  auto* m = out.mutable_game_ended();
  m->set_result(std::string(engine::result_text(e.result)));
  m->set_termination(termination_of(e.termination));
  m->set_proposed(e.finality == engine::Finality::kProposed);
  m->set_description(e.description);
  m->set_unwinnability(unwinnability_of(e.unwinnability));
  m->set_proposal_seq(std::uint32_t(e.proposal_seq));
}

void fill(const ev::TouchMoveViolation& e, v1::Event& out) {
  auto* m = out.mutable_touch_move_violation();
  m->set_side(side_of(e.side));
  m->set_inferred(true);
  m->set_square(square_text(e.square));
  m->set_uci(engine::to_uci(e.move));
}

void fill(const ev::SetupIrregular& e, v1::Event& out) {
  auto* m = out.mutable_setup_irregular();
  m->set_kind(setup_kind_of(e.kind));
  add_squares(m, e.squares);
}

void fill(const ev::PositionChanged& e, v1::Event& out) {
  auto* m = out.mutable_position_changed();
  m->set_fen(engine::to_fen(e.position));
  m->set_description(e.description);
}

void fill(const ev::IncrementCredited& e, v1::Event& out) {
  auto* m = out.mutable_increment_credited();
  m->set_side(side_of(e.side));
  m->set_increment_ms(ms_of(e.amount));
}

void fill(const ev::DelayWindow& e, v1::Event& out) {
  auto* m = out.mutable_delay_window();
  m->set_side(side_of(e.side));
  m->set_d(ms_of(e.delay));
}

void fill(const ev::PeriodStarted& e, v1::Event& out) {
  auto* m = out.mutable_period_started();
  m->set_side(side_of(e.side));
  m->set_period(std::uint32_t(e.period));
  m->set_added_ms(ms_of(e.added));
}

void fill(const ev::TimeControlMissed& e, v1::Event& out) {
  auto* m = out.mutable_time_control_missed();
  m->set_side(side_of(e.side));
  m->set_period(std::uint32_t(e.period));
  m->set_moves_completed(std::uint32_t(e.moves_completed));
  m->set_moves_required(std::uint32_t(e.moves_required));
}

void fill(const ev::ClockMismatch& e, v1::Event& out) {
  auto* m = out.mutable_clock_mismatch();
  m->set_field(clock_field_of(e.field));
  m->set_clock_value(std::int32_t(e.clock_value));
  m->set_model_value(std::int32_t(e.model_value));
}

void fill(const ev::SquareChanged& e, v1::Event& out) {
  auto* m = out.mutable_square_changed();
  m->set_square(square_text(e.square));
  m->set_piece(square_code_text(e.code));
}

void fill(const ev::Penalty& e, v1::Event& out) {
  auto* m = out.mutable_penalty();
  m->set_side(side_of(e.side));
  m->set_kind(penalty_kind_of(e.kind));
  m->set_seconds(std::int32_t(std::chrono::duration_cast<std::chrono::seconds>(e.amount).count()));
  m->set_applied(e.applied);
  m->set_description(e.description);
  m->set_proposal_seq(std::uint32_t(e.proposal_seq));
  m->set_proposed(e.proposal != 0);
}

void fill(const ev::ClaimAvailable& e, v1::Event& out) {
  auto* m = out.mutable_claim_available();
  m->set_side(side_of(e.side));
  m->set_kind(claim_kind_of(e.kind));
}

void fill(const ev::ClaimWindowClosed& e, v1::Event& out) {
  auto* m = out.mutable_claim_window_closed();
  m->set_side(side_of(e.side));
  m->set_kind(claim_kind_of(e.kind));
}

void fill(const ev::ClaimReceived& e, v1::Event& out) {
  auto* m = out.mutable_claim_received();
  m->set_side(side_of(e.side));
  m->set_kind(claim_kind_of(e.kind));
  m->set_intended_uci(e.intended_uci);
  m->set_eligible(e.eligible);
}

void fill(const ev::ClaimDecided& e, v1::Event& out) {
  auto* m = out.mutable_claim_decided();
  m->set_side(e.side ? side_of(*e.side) : v1::SIDE_UNSPECIFIED);
  m->set_kind(claim_kind_of(e.kind));
  m->set_accepted(e.accepted);
  m->set_proposed(e.finality == engine::Finality::kProposed);
  m->set_penalty_ms(ms_of(e.penalty));
  m->set_reason(claim_reason_of(e.reason));
  m->set_proposal_seq(std::uint32_t(e.proposal_seq));
}

void fill(const ev::IllegalMoveStood& e, v1::Event& out) {
  auto* m = out.mutable_illegal_move_stood();
  m->set_side(side_of(e.side));
  m->set_fen(engine::to_fen(e.position));
}

void fill(const ev::TouchMoveObligation& e, v1::Event& out) {
  auto* m = out.mutable_touch_move_obligation();
  m->set_side(side_of(e.side));
  m->set_square(engine::square_name(e.square));
  for (const engine::Square s : e.legal_targets) m->add_legal_targets(engine::square_name(s));
}

void fill(const ev::CastlingForbidden& e, v1::Event& out) {
  auto* m = out.mutable_castling_forbidden();
  m->set_side(side_of(e.side));
  m->set_wing(wing_of(e.wing));
}

void fill(const ev::IllegalPosition& e, v1::Event& out) {
  auto* m = out.mutable_illegal_position();
  m->set_kind(illegal_position_of(e.kind));
  add_squares(m, e.squares);
  m->set_fen(engine::to_fen(e.position));
}

void fill(const ev::DeadPositionSuspected& e, v1::Event& out) {
  out.mutable_dead_position_suspected()->set_fen(engine::to_fen(e.position));
}

void fill(const ev::DrawClaimable& e, v1::Event& out) {
  auto* m = out.mutable_draw_claimable();
  m->set_side(side_of(e.side));
  m->set_kind(claim_kind_of(e.kind));
}

}  // namespace

v1::Event to_proto(const GameEvent& e, const EventEnvelope& envelope) {
  v1::Event out;
  out.set_board_id(envelope.board_id);
  out.set_seq(envelope.seq);
  out.set_at_ms(ms_of(e.at));
  out.set_visibility(e.visibility == engine::EventVisibility::kPublic ? v1::VISIBILITY_PUBLIC
                                                                      : v1::VISIBILITY_ARBITER);
  out.set_game_id(envelope.game_id);
  for (const std::string& a : e.articles) out.add_articles(a);
  out.set_rules(envelope.rules);
  std::visit([&out](const auto& body) { fill(body, out); }, e.body);
  return out;
}

namespace {

v1::WithdrawnReason withdrawn_reason_of(engine::WithdrawReason reason) {
  switch (reason) {
    case engine::WithdrawReason::kLapsed: return v1::WITHDRAWN_REASON_LAPSED;
    case engine::WithdrawReason::kSuperseded: return v1::WITHDRAWN_REASON_SUPERSEDED;
    case engine::WithdrawReason::kGameEnded: return v1::WITHDRAWN_REASON_GAME_ENDED;
  }
  return v1::WITHDRAWN_REASON_UNSPECIFIED;
}

}  // namespace

v1::Event to_proto(const engine::Withdrawal& w, const EventEnvelope& envelope) {
  v1::Event out;
  out.set_board_id(envelope.board_id);
  out.set_seq(envelope.seq);
  out.set_at_ms(std::int32_t(w.at.count()));
  // Told to whoever was told of the proposal.
  out.set_visibility(w.visibility == engine::EventVisibility::kPublic ? v1::VISIBILITY_PUBLIC
                                                                      : v1::VISIBILITY_ARBITER);
  out.set_game_id(envelope.game_id);
  out.set_rules(envelope.rules);
  v1::ProposalWithdrawn* x = out.mutable_proposal_withdrawn();
  x->set_proposal_seq(static_cast<std::uint32_t>(w.seq));
  x->set_reason(withdrawn_reason_of(w.reason));
  x->set_superseded_by(static_cast<std::uint32_t>(w.superseded_by));
  x->set_description(w.description);
  for (const std::uint64_t seq : w.seqs) x->add_seqs(static_cast<std::uint32_t>(seq));
  return out;
}

}  // namespace eboard::daemon
