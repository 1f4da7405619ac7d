// BoardSession's control side: the Commands of docs/interfaces.md §4 (new game, arbiter
// actions, claims, rulings, promotion choices) checked, mapped to the tracker's operator
// actions and answered with an ack; and the proposals a ruling may name.
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

const char* claim_word(v1::ClaimKind kind) {
  switch (kind) {
    case v1::CLAIM_KIND_ILLEGAL_MOVE: return "illegal-move";
    case v1::CLAIM_KIND_THREEFOLD: return "threefold";
    case v1::CLAIM_KIND_FIFTY: return "fifty";
    case v1::CLAIM_KIND_FLAG: return "flag";
    case v1::CLAIM_KIND_QPF: return "qpf";
    case v1::CLAIM_KIND_SETUP: return "setup";
    case v1::CLAIM_KIND_ORIENTATION: return "orientation";
    case v1::CLAIM_KIND_CLOCK_SETTING: return "clock-setting";
    default: return nullptr;
  }
}

// "threefold claim", and once the engine has judged it "threefold claim: correct" or
// "...: incorrect (+120 s to black)" (claimDecided with `proposed`).
std::string claim_text(const engine::GameEvent& e) {
  static constexpr const char* kWords[] = {"illegal-move", "threefold",     "fifty",
                                           "flag",         "qpf",           "setup",
                                           "orientation",  "clock-setting", "agreement"};
  std::string text = std::string(kWords[int(e.claim_kind)]) + " claim";
  if (e.kind != engine::GameEventKind::kClaimDecided) return text;
  text += e.accepted ? ": correct" : ": incorrect";
  if (e.amount_ms > 0 && e.side) {
    text += " (+" + std::to_string(e.amount_ms / 1000) + " s to " +
            (*e.side == engine::kWhite ? "black" : "white") + ")";
  }
  return text;
}

// What a proposal's opening event says, as open_proposals() shows it.
v1::Proposal shown_proposal(const engine::GameEvent& e, std::uint32_t seq,
                            const std::string& board_id) {
  v1::Proposal p;
  p.set_seq(seq);
  p.set_board_id(board_id);
  p.set_at_ms(static_cast<std::int32_t>(e.at_ms));
  p.set_description(e.description);
  if (e.side) p.set_side(*e.side == engine::kWhite ? v1::SIDE_WHITE : v1::SIDE_BLACK);
  switch (e.kind) {
    case engine::GameEventKind::kGameEnded:
      p.set_kind(v1::PROPOSAL_KIND_RESULT);
      p.set_result(e.result);
      p.set_termination(v1::Termination(int(e.termination) + 1));
      p.set_side(e.result == "1-0"   ? v1::SIDE_WHITE
                 : e.result == "0-1" ? v1::SIDE_BLACK
                                     : v1::SIDE_UNSPECIFIED);
      break;
    case engine::GameEventKind::kDeadPositionSuspected:  // accepted, a draw (5.2.2)
      p.set_kind(v1::PROPOSAL_KIND_RESULT);
      p.set_result("1/2-1/2");
      p.set_termination(v1::TERMINATION_DEAD_POSITION);
      break;
    case engine::GameEventKind::kPenalty: p.set_kind(v1::PROPOSAL_KIND_PENALTY); break;
    default:
      p.set_kind(v1::PROPOSAL_KIND_CLAIM);
      if (e.description.empty()) p.set_description(claim_text(e));
      break;
  }
  return p;
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

std::vector<v1::Proposal> BoardSession::open_proposals() const {
  std::vector<v1::Proposal> open;
  for (const auto& [handle, p] : proposals_) {
    if (!p.settled) open.push_back(p.shown);
  }
  return open;
}

void BoardSession::note_proposal(const engine::GameEvent& e, std::uint32_t seq) {
  // The arbiter's proposals start afresh with each game (its handles restart at 1).
  if (e.kind == engine::GameEventKind::kGameStarted) proposals_.clear();
  if (e.proposal != 0) {
    OpenProposal& p = proposals_[e.proposal];
    if (p.seqs.empty()) {
      p.shown = shown_proposal(e, seq, board_id_);
    } else if (e.kind == engine::GameEventKind::kClaimDecided && e.description.empty()) {
      p.shown.set_description(claim_text(e));  // the engine's verdict on the claim
    }
    p.seqs.push_back(seq);
    if (e.kind == engine::GameEventKind::kGameEnded ||
        e.kind == engine::GameEventKind::kDeadPositionSuspected)
      p.game_end = true;
  }
  if (e.proposal_seq == 0) return;
  for (auto& [handle, p] : proposals_) {
    if (std::find(p.seqs.begin(), p.seqs.end(), e.proposal_seq) != p.seqs.end()) p.settled = true;
  }
}

// The proposal a ruling is for (`Ruling.seq`, or without one the newest open proposal, as
// the arbiter chooses), or the error ack when there is none to rule on.
std::optional<v1::Ack> BoardSession::check_ruling(const engine::OperatorAction& a,
                                                  OpenProposal*& target) {
  target = nullptr;
  for (auto it = proposals_.rbegin(); it != proposals_.rend() && !target; ++it) {
    const auto& seqs = it->second.seqs;
    const bool named = a.seq && std::find(seqs.begin(), seqs.end(), *a.seq) != seqs.end();
    if (named || (!a.seq && !it->second.settled)) target = &it->second;
  }
  if (!a.seq && !target) {
    return ack(v1::ACK_ERROR_REJECTED,
               "ruling: board " + board_id_ + " has no open proposal to rule on");
  }
  const std::string named = a.seq ? "ruling.seq: " + std::to_string(*a.seq) : std::string("ruling");
  if (!target) {
    return ack(v1::ACK_ERROR_REJECTED, named + " names no proposal of board " + board_id_ +
                                           "'s game (a proposal is an event with `proposed` or an "
                                           "unapplied penalty, published in this daemon's run)");
  }
  if (target->settled) {
    return ack(v1::ACK_ERROR_REJECTED,
               named + ": that proposal of board " + board_id_ + " is already settled");
  }
  return std::nullopt;
}

v1::Ack BoardSession::command(const v1::Command& command, Millis now) {
  first_seq_ = 0;
  v1::Ack result = run_action(command, now);
  // A position the arbiter set may be the one a pending dump shows (a restore).
  if (pending_dump_ && tracker_) judge_dump(now, false);
  result.set_seq(result.ok() ? first_seq_ : 0);
  return result;
}

v1::Ack BoardSession::run_action(const v1::Command& c, Millis now) {
  using K = engine::OperatorAction::Kind;
  if (c.action_case() == v1::Command::kNewGame) {
    const v1::NewGame& n = c.new_game();
    GameSetup setup = setup_;
    if (!n.rules().empty()) setup.rules = n.rules();
    if (!n.time_control().empty()) setup.clock = n.time_control();
    for (const auto& p : n.params()) setup.params.emplace_back(p.name(), p.value());
    if (n.tags_size() > 0) setup.tags.clear();
    for (const auto& t : n.tags()) setup.tags.emplace_back(t.name(), t.value());
    setup.start_fen = n.start_fen();
    if (auto error = start_game(setup, now)) {
      return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "new_game: " + error->message);
    }
    // docs/interfaces.md §6.1 new-game --white-side: from this game on.
    if (const auto white = white_setting_of(n.white_side())) sides_ = drivers::ClockSides(*white);
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
      const char* word = claim_word(c.claim().kind());
      if (!word)
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT, "claim.kind: not a claim a player can make");
      a.kind = K::kClaim;
      a.claim = word;
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
      if (r != "1-0" && r != "0-1" && r != "1/2-1/2" && r != "*") {
        return ack(v1::ACK_ERROR_INVALID_ARGUMENT,
                   "set_result.result: '" + r + "' is not 1-0, 0-1, 1/2-1/2 or *");
      }
      const int t = c.set_result().termination();
      const auto kind = t == 0 ? engine::TerminationKind::kArbiter : engine::TerminationKind(t - 1);
      tracker_->end_game(now, r, kind, false, c.set_result().description(), out);
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
  OpenProposal* target = nullptr;
  if (a.kind == K::kRuling) {
    if (auto refused = check_ruling(a, target)) return *refused;
  }
  tracker_->operator_action(now, a, out);
  const bool settled =
      std::any_of(out.begin(), out.end(), [](const auto& e) { return e.proposal_seq != 0; });
  emit(out);
  if (target && !settled) {
    target->settled = true;
    // Rejecting a proposed result is the one ruling that rightly emits nothing; any other
    // ruling that settled nothing found its proposal lapsed in the arbiter.
    if (!(target->game_end && !a.accept)) {
      return ack(v1::ACK_ERROR_REJECTED, "ruling: that proposal of board " + board_id_ +
                                             " is no longer open (it lapsed); nothing was changed");
    }
  }
  return ack(v1::ACK_ERROR_UNSPECIFIED, "");
}

}  // namespace eboard::daemon
