// BoardSession's control side: the Commands of docs/interfaces.md §4 (new game, arbiter
// actions, claims, rulings, promotion choices) checked, mapped to the tracker's operator
// actions and answered with an ack (the proposals a ruling may name:
// board_session_proposals.cpp).
#include <algorithm>
#include <variant>

#include "daemon/core/board_session.h"
#include "engine/board/fen.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::Color;

v1::Ack ack(v1::AckError code, const std::string& error) {
  v1::Ack a;
  a.set_ok(code == v1::ACK_ERROR_UNSPECIFIED);
  a.set_code(code);
  a.set_error(error);
  return a;
}

std::optional<Color> color_of(v1::Side side) {
  if (side == v1::SIDE_WHITE) return engine::kWhite;
  if (side == v1::SIDE_BLACK) return engine::kBlack;
  return std::nullopt;
}

engine::PieceType promotion_piece_of(v1::PromotionPiece piece) {
  switch (piece) {
    case v1::PROMOTION_PIECE_QUEEN: return engine::kQueen;
    case v1::PROMOTION_PIECE_ROOK: return engine::kRook;
    case v1::PROMOTION_PIECE_BISHOP: return engine::kBishop;
    case v1::PROMOTION_PIECE_KNIGHT: return engine::kKnight;
    default: return engine::kNoPieceType;
  }
}

std::optional<drivers::WhiteSetting> white_setting_of(v1::ClockSide side) {
  switch (side) {
    case v1::CLOCK_SIDE_LEFT: return drivers::WhiteSetting::kLeft;
    case v1::CLOCK_SIDE_RIGHT: return drivers::WhiteSetting::kRight;
    case v1::CLOCK_SIDE_AUTO: return drivers::WhiteSetting::kAuto;
    default: return std::nullopt;
  }
}

// The wire lists the engine's claim kinds in the engine's order, from 1
// (engine/game/claim_kind.h); an agreement is not a claim a player makes.
static_assert(int(v1::CLAIM_KIND_AGREEMENT) == int(engine::ClaimKind::kAgreement) + 1);
std::optional<engine::ClaimKind> player_claim_of(v1::ClaimKind kind) {
  if (kind < v1::CLAIM_KIND_ILLEGAL_MOVE || kind >= v1::CLAIM_KIND_AGREEMENT) return std::nullopt;
  return engine::ClaimKind(int(kind) - 1);
}

// A command the tracker carries out as an operator action (docs/interfaces.md §4), or the
// ack that refuses it for a missing or impossible field.
using MappedAction = std::variant<engine::OperatorAction, v1::Ack>;
MappedAction operator_action_of(const v1::Command& c) {
  using K = engine::OperatorAction::Kind;
  engine::OperatorAction a;
  const auto with_side = [&a](v1::Side side, const char* field, K kind) -> MappedAction {
    const auto color = color_of(side);
    if (!color) {
      return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                 std::string(field) + ": must be SIDE_WHITE or SIDE_BLACK");
    }
    a.side = *color;
    a.kind = kind;
    return a;
  };
  switch (c.action_case()) {
    case v1::Command::kAddTime:
      a.amount = Millis(c.add_time().delta_ms());
      return with_side(c.add_time().side(), "add_time.side", K::kAddTime);
    case v1::Command::kPause: a.kind = K::kPause; return a;
    case v1::Command::kResume: a.kind = K::kResume; return a;
    case v1::Command::kResign: return with_side(c.resign().side(), "resign.side", K::kResign);
    case v1::Command::kDrawAgreed: a.kind = K::kDrawAgreed; return a;
    case v1::Command::kTwoHands:
      return with_side(c.two_hands().side(), "two_hands.side", K::kTwoHands);
    case v1::Command::kInfraction:
      return with_side(c.infraction().side(), "infraction.side", K::kInfraction);
    case v1::Command::kClaim: {
      const std::optional<engine::ClaimKind> kind = player_claim_of(c.claim().kind());
      if (!kind) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "claim.kind: not a claim a player can make");
      }
      a.claim = *kind;
      a.uci = c.claim().intended_uci();
      return with_side(c.claim().side(), "claim.side", K::kClaim);
    }
    case v1::Command::kRuling:
      if (c.ruling().decision() == v1::RULING_DECISION_UNSPECIFIED) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "ruling.decision: must be ACCEPT or REJECT");
      }
      a.kind = K::kRuling;
      a.accept = c.ruling().decision() == v1::RULING_DECISION_ACCEPT;
      if (c.ruling().seq() != 0) a.seq = c.ruling().seq();
      return a;
    default: return ack(v1::ACK_ERROR_UNSUPPORTED, "unknown command action");
  }
}
}  // namespace

std::optional<drivers::ClockSetAndRun> BoardSession::clock_setting(Millis now) const {
  if (!tracker_ || !(tracker_->started() || resumed_)) return std::nullopt;
  const engine::ClockModel& clock = tracker_->clock();
  const Millis white = std::max(Millis{0}, clock.remaining(engine::kWhite, now));
  const Millis black = std::max(Millis{0}, clock.remaining(engine::kBlack, now));
  const bool white_left = sides_.white_side() == drivers::ClockSide::kLeft;
  drivers::ClockSetAndRun set{white_left ? white : black, white_left ? black : white, std::nullopt};
  if (const auto running = clock.running(); running && !clock.paused()) {
    const bool left_runs = (*running == engine::kWhite) == white_left;
    set.run = left_runs ? drivers::ClockSide::kLeft : drivers::ClockSide::kRight;
  }
  return set;
}

// A newGame command's game: the board's set-up with the command's overrides; its white
// side (docs/interfaces.md §6.1 new-game --white-side) holds from this game on.
std::optional<Error> BoardSession::new_game(const v1::NewGame& n, Millis now) {
  GameSetup setup = setup_;
  if (!n.rules().empty()) setup.rules = n.rules();
  if (!n.time_control().empty()) setup.clock = n.time_control();
  for (const auto& p : n.params()) setup.params.emplace_back(p.name(), p.value());
  if (n.tags_size() > 0) setup.tags.clear();
  for (const auto& t : n.tags()) setup.tags.emplace_back(t.name(), t.value());
  setup.start_fen = n.start_fen();
  // A set-up that is refused leaves the game in progress as it was.
  if (auto config = make_tracker_config(setup); !config) return Error{config.error()};
  // What the game it replaces left open is withdrawn, for every client to see.
  if (arbiter_) {
    arbiter_->proposals().withdraw_all(engine::WithdrawReason::kGameEnded,
                                       "a new game replaced the game", now);
    publish_withdrawals();
  }
  if (auto error = start_game(setup, now)) return error;
  keep_white_side(n);
  return std::nullopt;
}

void BoardSession::keep_white_side(const v1::NewGame& n) {
  if (const auto white = white_setting_of(n.white_side())) sides_ = drivers::ClockSides(*white);
}

v1::Ack BoardSession::command(const v1::Command& command, Millis now) {
  input_at_ = std::max(input_at_, now);
  first_seq_ = 0;
  ruled_seqs_.clear();
  v1::Ack result = run_action(command, now);
  // A position the arbiter set may be the one a pending dump shows (a restore).
  if (pending_dump_ && tracker_) judge_dump(now, false);
  result.set_seq(result.ok() ? first_seq_ : 0);
  return result;
}

v1::Ack BoardSession::run_action(const v1::Command& c, Millis now) {
  if (c.action_case() == v1::Command::kNewGame) {
    if (auto error = new_game(c.new_game(), now)) {
      return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "new_game: " + error->message);
    }
    return ack(v1::ACK_ERROR_UNSPECIFIED, "");
  }
  if (c.action_case() == v1::Command::ACTION_NOT_SET) {
    return ack(v1::ACK_ERROR_UNSUPPORTED, "command has no action");
  }
  if (!tracker_ || !(tracker_->started() || resumed_)) {
    return ack(v1::ACK_ERROR_REJECTED, "board " + board_id_ + " has no game in progress");
  }
  switch (c.action_case()) {
    case v1::Command::kSetResult: return set_result(c.set_result(), now);
    case v1::Command::kRestorePosition: return restore_position(c.restore_position(), now);
    case v1::Command::kPromotionChoice: return promotion_choice(c.promotion_choice(), now);
    case v1::Command::kSetClock: return set_clock(c.set_clock(), now);
    default: break;
  }
  const MappedAction mapped = operator_action_of(c);
  if (const auto* refused = std::get_if<v1::Ack>(&mapped)) return *refused;
  const auto& a = std::get<engine::OperatorAction>(mapped);
  if (a.kind == engine::OperatorAction::Kind::kRuling) {
    if (auto refused = check_ruling(a)) return *refused;
    const engine::ProposalBook& book = arbiter_->proposals();
    for (const std::uint64_t seq : book.get(book.for_ruling(a.seq))->seqs)
      ruled_seqs_.push_back(static_cast<std::uint32_t>(seq));
  }
  engine::GameEvents out;
  tracker_->operator_action(now, a, out);
  emit(out);
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

// The arbiter's result stands at once (6.11 / 12.2): not a proposal.
v1::Ack BoardSession::set_result(const v1::SetResult& s, Millis now) {
  const std::optional<engine::GameResult> result = engine::parse_result(s.result());
  if (!result) {
    return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
               "set_result.result: '" + s.result() + "' is not 1-0, 0-1, 1/2-1/2 or *");
  }
  const int t = s.termination();
  const auto kind = t == 0 ? engine::TerminationKind::kArbiter : engine::TerminationKind(t - 1);
  engine::GameEvents out;
  tracker_->end_game(now, *result, kind, engine::Finality::kFinal, s.description(), out);
  emit(out);
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

v1::Ack BoardSession::restore_position(const v1::RestorePosition& r, Millis now) {
  if (r.fen().empty()) return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "restore_position.fen: empty");
  auto pos = engine::parse_fen(r.fen());
  if (!pos) return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "restore_position.fen: " + pos.error());
  engine::GameEvents out;
  tracker_->replace_committed(now, pos.value(), "restored by the arbiter", out);
  emit(out);
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

// docs/protocols.md §10: only an occupancy-only board needs to be told the piece.
v1::Ack BoardSession::promotion_choice(const v1::PromotionChoice& p, Millis now) {
  const engine::PieceType piece = promotion_piece_of(p.piece());
  if (piece == engine::kNoPieceType) {
    return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
               "promotion_choice.piece: must be QUEEN, ROOK, BISHOP or KNIGHT");
  }
  if (tracker_->recognizer().keys() != engine::MatchKeys::kOccupancy) {
    return ack(v1::ACK_ERROR_REJECTED,
               "promotion_choice: board " + board_id_ +
                   " senses the pieces; the board shows the promoted piece");
  }
  engine::GameEvents out;
  tracker_->promotion_choice(now, piece, out);
  emit(out);
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

v1::Ack BoardSession::set_clock(const v1::SetClock& s, Millis now) {
  if (s.white_ms() < 0 || s.black_ms() < 0) {
    return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "set_clock: times must not be negative");
  }
  engine::GameEvents out;
  for (const Color side : {engine::kWhite, engine::kBlack}) {
    const Millis wanted(side == engine::kWhite ? s.white_ms() : s.black_ms());
    tracker_->adjust_clock(now, side, wanted - tracker_->clock().remaining(side, now), out);
  }
  emit(out);
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

}  // namespace eboard::daemon
