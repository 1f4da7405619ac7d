// BoardSession's control side: the Commands of docs/interfaces.md §4 (new game, arbiter
// actions, claims, rulings, promotion choices) checked, mapped to the tracker's operator
// actions and answered with an ack (the proposals a ruling may name:
// board_session_proposals.cpp).
#include <algorithm>

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
  first_seq_ = 0;
  ruled_seqs_.clear();
  v1::Ack result = run_action(command, now);
  // A position the arbiter set may be the one a pending dump shows (a restore).
  if (pending_dump_ && tracker_) judge_dump(now, false);
  result.set_seq(result.ok() ? first_seq_ : 0);
  return result;
}

v1::Ack BoardSession::run_action(const v1::Command& c, Millis now) {
  using K = engine::OperatorAction::Kind;
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
  engine::GameEvents out;
  engine::OperatorAction a;
  const auto need_side = [&](v1::Side side, const char* field) -> std::optional<v1::Ack> {
    const auto color = color_of(side);
    if (!color) {
      return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                 std::string(field) + ": must be SIDE_WHITE or SIDE_BLACK");
    }
    a.side = *color;
    return std::nullopt;
  };
  switch (c.action_case()) {
    case v1::Command::kAddTime:
      if (auto bad = need_side(c.add_time().side(), "add_time.side")) return *bad;
      a.kind = K::kAddTime;
      a.amount = Millis(c.add_time().delta_ms());
      break;
    case v1::Command::kPause: a.kind = K::kPause; break;
    case v1::Command::kResume: a.kind = K::kResume; break;
    case v1::Command::kResign:
      if (auto bad = need_side(c.resign().side(), "resign.side")) return *bad;
      a.kind = K::kResign;
      break;
    case v1::Command::kDrawAgreed: a.kind = K::kDrawAgreed; break;
    case v1::Command::kTwoHands:
      if (auto bad = need_side(c.two_hands().side(), "two_hands.side")) return *bad;
      a.kind = K::kTwoHands;
      break;
    case v1::Command::kInfraction:
      if (auto bad = need_side(c.infraction().side(), "infraction.side")) return *bad;
      a.kind = K::kInfraction;
      break;
    case v1::Command::kClaim: {
      if (auto bad = need_side(c.claim().side(), "claim.side")) return *bad;
      const std::optional<engine::ClaimKind> kind = player_claim_of(c.claim().kind());
      if (!kind)
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "claim.kind: not a claim a player can make");
      a.kind = K::kClaim;
      a.claim = *kind;
      a.uci = c.claim().intended_uci();
      break;
    }
    case v1::Command::kRuling:
      if (c.ruling().decision() == v1::RULING_DECISION_UNSPECIFIED) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "ruling.decision: must be ACCEPT or REJECT");
      }
      a.kind = K::kRuling;
      a.accept = c.ruling().decision() == v1::RULING_DECISION_ACCEPT;
      if (c.ruling().seq() != 0) a.seq = c.ruling().seq();
      break;
    case v1::Command::kSetResult: {
      const std::string& r = c.set_result().result();
      const std::optional<engine::GameResult> result = engine::parse_result(r);
      if (!result) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                   "set_result.result: '" + r + "' is not 1-0, 0-1, 1/2-1/2 or *");
      }
      const int t = c.set_result().termination();
      const auto kind = t == 0 ? engine::TerminationKind::kArbiter : engine::TerminationKind(t - 1);
      tracker_->end_game(now, *result, kind, engine::Finality::kFinal, c.set_result().description(),
                         out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    case v1::Command::kRestorePosition: {
      if (c.restore_position().fen().empty()) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "restore_position.fen: empty");
      }
      auto pos = engine::parse_fen(c.restore_position().fen());
      if (!pos) return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "restore_position.fen: " + pos.error());
      tracker_->replace_committed(now, pos.value(), "restored by the arbiter", out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    case v1::Command::kPromotionChoice: {
      // docs/protocols.md §10: only an occupancy-only board needs to be told the piece.
      const engine::PieceType piece = promotion_piece_of(c.promotion_choice().piece());
      if (piece == engine::kNoPieceType) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                   "promotion_choice.piece: must be QUEEN, ROOK, BISHOP or KNIGHT");
      }
      if (tracker_->recognizer().keys() != engine::MatchKeys::kOccupancy) {
        return ack(v1::ACK_ERROR_REJECTED,
                   "promotion_choice: board " + board_id_ +
                       " senses the pieces; the board shows the promoted piece");
      }
      tracker_->promotion_choice(now, piece, out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    case v1::Command::kSetClock: {
      const auto& s = c.set_clock();
      if (s.white_ms() < 0 || s.black_ms() < 0) {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "set_clock: times must not be negative");
      }
      tracker_->adjust_clock(
          now, engine::kWhite,
          Millis(s.white_ms()) - tracker_->clock().remaining(engine::kWhite, now), out);
      tracker_->adjust_clock(
          now, engine::kBlack,
          Millis(s.black_ms()) - tracker_->clock().remaining(engine::kBlack, now), out);
      emit(out);
      return ack(v1::ACK_ERROR_UNSPECIFIED, "");
    }
    default: return ack(v1::ACK_ERROR_UNSUPPORTED, "unknown command action");
  }
  if (a.kind == K::kRuling) {
    if (auto refused = check_ruling(a)) return *refused;
    const engine::ProposalBook& book = arbiter_->proposals();
    for (const std::uint64_t seq : book.get(book.for_ruling(a.seq))->seqs)
      ruled_seqs_.push_back(static_cast<std::uint32_t>(seq));
  }
  tracker_->operator_action(now, a, out);
  emit(out);
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

}  // namespace eboard::daemon
