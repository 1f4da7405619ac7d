// RulesArbiter: dispatch, the authority rule (docs/rules.md §0) and rulings.
#include "engine/arbiter/arbiter.h"

#include <algorithm>

#include "engine/board/fen.h"

namespace eboard::engine {

// D1: the start array is judged once, at the game's first input.
void RulesArbiter::started(const GameTracker& game, Millis now, ArbiterDecisions& out) {
  if (started_) return;
  started_ = true;
  const Position& start = game.config().start;
  const Position standard;
  // Only a game that starts from move 1 with an irregular array is a set-up matter; a
  // configured position from later in a game is what the organiser wanted.
  if (start.game_ply() != 0 || start.placement_key() == standard.placement_key()) return;
  events::SetupIrregular e;
  e.kind = SetupIrregularKind::kWrongPosition;
  for (int s = 0; s < kSquareCount; ++s)
    if (start.piece_on(Square(s)) != standard.piece_on(Square(s))) e.squares.push_back(Square(s));
  for (Color c : {kWhite, kBlack}) {
    const Square home = c == kWhite ? Square(4) : Square(60);
    if (start.piece_on(home) != make_piece(c, kKing)) {
      king_misplaced_[c] = true;
      e.kind = SetupIrregularKind::kKingMisplaced;
    }
  }
  e.description = "the initial position is not the standard array";
  report(out, GameEvent(now, std::move(e), EventVisibility::kArbiter, {"7.2", "A.5.1"}));
}

void RulesArbiter::apply_time(Color to, Millis amount, ArbiterDecisions& out) {
  if (amount.count() != 0) out.push_back(AdjustClock{to, amount});
}

void RulesArbiter::reinstate(const GameTracker& game, const Position& before, Millis now,
                             ArbiterDecisions& out) {
  out.push_back(SetCommitted{before, "position before the irregularity reinstated (7.5.1)"});
  events::RestoreRequested e;
  e.position = snapshot_of(before);
  e.description = "reinstate the position before the illegal move";
  report(out, GameEvent(now, std::move(e), game.irregularity_visibility(), {"7.5.1"}));
}

// A penalty: applied at once with `auto_apply_penalties`, otherwise a proposal the
// arbiter's ruling settles (the authority rule).
std::uint32_t RulesArbiter::penalty(const GameTracker& game, Color offender, PenaltyKind kind,
                                    Millis amount, PenaltyPosition position,
                                    const std::string& description, Millis now,
                                    ArbiterDecisions& out) {
  const bool apply = game.rules().auto_apply_penalties;
  const EventVisibility visibility = game.irregularity_visibility();
  events::Penalty e;
  e.side = offender;
  e.kind = kind;
  e.amount = amount;
  e.applied = apply;
  e.description = description;
  if (apply) {
    report(out, GameEvent(now, std::move(e), visibility));
    apply_time(~offender, amount, out);
    if (position == PenaltyPosition::kReinstated) reinstate(game, window_.before, now, out);
    return 0;
  }
  Proposal p;
  p.kind = Proposal::Kind::kTimePenalty;
  p.offender = offender;
  p.penalty_kind = kind;
  p.amount = amount;
  p.position = position;
  p.description = description;
  const std::uint32_t handle = book_.open(std::move(p), visibility, now).handle;
  e.proposal = handle;
  report(out, GameEvent(now, std::move(e), visibility));
  return handle;
}

void RulesArbiter::open_claim(GameEvent decided, ArbiterDecisions& out) {
  Proposal p;
  p.kind = Proposal::Kind::kClaim;
  p.decided = decided;
  events::ClaimDecided& d = *decided.get<events::ClaimDecided>();
  d.proposal = book_.open(std::move(p), decided.visibility, decided.at).handle;
  for (auto it = out.rbegin(); it != out.rend(); ++it) {
    auto* r = std::get_if<ArbiterReport>(&*it);
    auto* received = r ? r->event.get<events::ClaimReceived>() : nullptr;
    if (!received) continue;
    if (received->side == d.side && received->kind == d.kind) received->proposal = d.proposal;
    break;
  }
  report(out, std::move(decided));
}

void RulesArbiter::on_published(std::uint32_t proposal, std::uint64_t seq) {
  book_.published(proposal, seq);
}

ArbiterDecisions RulesArbiter::propose_result(const GameTracker&, GameResult result,
                                              TerminationKind termination,
                                              const std::string& description, Millis now) {
  ArbiterDecisions out;
  game_end(result, termination, Finality::kProposed, description, UnwinnabilityNote::kNone, now,
           out);
  return out;
}

// A proposed end that an open proposal already makes is not proposed again (one voice per
// decision): nothing is emitted and the open one's handle is returned.
std::uint32_t RulesArbiter::game_end(GameResult result, TerminationKind termination,
                                     Finality finality, const std::string& description,
                                     UnwinnabilityNote note, Millis now, ArbiterDecisions& out) {
  std::uint32_t handle = 0;
  if (finality == Finality::kProposed) {
    Proposal p;
    p.kind = Proposal::Kind::kGameEnd;
    p.result = result;
    p.termination = termination;
    p.description = description;
    const ProposalBook::Opened opened = book_.open(std::move(p), EventVisibility::kPublic, now);
    if (!opened.is_new) return opened.handle;
    handle = opened.handle;
  }
  // The tracker emits gameEnded; the unwinnability note and the handle ride on it.
  out.push_back(EndGame{result, termination, finality, description, note, handle});
  if (finality == Finality::kFinal) game_over(now);
  return handle;
}

void RulesArbiter::game_over(Millis now) {
  book_.withdraw_all(WithdrawReason::kGameEnded, "the game is over", now);
}

// `arbiter ruling accept|reject [SEQ]` (the authority rule, docs/rules.md §0).
void RulesArbiter::ruling(const GameTracker& game, const OperatorAction& a, Millis now,
                          ArbiterDecisions& out) {
  const bool accept = a.accept;
  // The decision a ruling settles: the open one whose event was published as SEQ, or
  // without SEQ the latest open one (ProposalBook::for_ruling).
  if (const std::uint32_t handle = book_.for_ruling(a.seq)) {
    const Proposal p = *book_.get(handle);
    book_.settle(handle, accept ? RulingDecision::kAccept : RulingDecision::kReject);
    const std::uint64_t proposal_seq = p.seqs.empty() ? 0 : p.seqs.back();
    switch (p.kind) {
      case Proposal::Kind::kTimePenalty: {
        events::Penalty e;
        e.side = p.offender;
        e.kind = p.penalty_kind;
        e.amount = accept ? p.amount : Millis{0};
        e.applied = accept;
        e.description = accept ? "the arbiter applied: " + p.description
                               : "the arbiter rejected: " + p.description;
        e.proposal_seq = proposal_seq;
        report(out, GameEvent(now, std::move(e), game.irregularity_visibility()));
        if (accept) {
          apply_time(~p.offender, p.amount, out);
          if (p.position == PenaltyPosition::kReinstated && window_.open &&
              window_.proposal == handle) {
            window_.open = false;
            window_.penalised = true;
            reinstate(game, window_.before, now, out);
          }
        }
        return;
      }
      case Proposal::Kind::kGameEnd: {
        if (!accept) return;
        out.push_back(EndGame{p.result, p.termination, Finality::kFinal,
                              "the arbiter confirmed: " + p.description, UnwinnabilityNote::kNone,
                              0, proposal_seq});
        game_over(now);
        return;
      }
      case Proposal::Kind::kClaim: {
        GameEvent decided = p.decided;
        decided.at = now;
        events::ClaimDecided& d = *decided.get<events::ClaimDecided>();
        d.finality = Finality::kFinal;
        d.proposal = 0;
        d.proposal_seq = proposal_seq;
        if (!accept) {
          d.accepted = !d.accepted;
          d.reason = ClaimReason::kArbiter;
        }
        decide_claim(game, decided, now, out);
        return;
      }
    }
  }
}

void RulesArbiter::on_new_game() {
  dead_verdicts_ = {};
  next_dead_verdict_ = 0;
  started_ = false;
  book_.clear();
  window_ = IllegalWindow{};
  restart_owed_by_.reset();
  obligation_ = kNoSquare;
  obligation_has_targets_ = false;
  touched_before_claim_ = false;
  king_misplaced_ = {};
  setup_window_closed_ = false;
  illegal_position_.reset();
  illegal_position_moves_ = 0;
  flag_down_ = {};
  infractions_ = {};
  two_hands_ = {};
  suspected_.clear();
  fifty_claimable_reported_ = false;
  pending_end_.reset();
}

PressClass RulesArbiter::classify_press_without_move(const GameTracker& game, Color side) {
  // After a reinstatement (7.5.1) the offender's opponent, whose clock the illegal press
  // started, presses once to give the offender the clock back: not an offence.
  if (restart_owed_by_ == side && side != game.committed().side_to_move() &&
      game.recognizer().tentative() == Move::none() &&
      differing_squares(game.committed(), game.recognizer().sensed(), game.recognizer().keys()) ==
          0) {
    restart_owed_by_.reset();
    return PressClass::kRestartAllowed;
  }
  return game.rules().press_without_move == PressWithoutMove::kIllegal
             ? PressClass::kIllegal
             : PressClass::kRestartAllowed;
}

ArbiterDecisions RulesArbiter::on_operator(const GameTracker& game, const OperatorAction& a,
                                           Millis now) {
  ArbiterDecisions out;
  started(game, now, out);
  using K = OperatorAction::Kind;
  switch (a.kind) {
    case K::kPause:
    case K::kResume:
    case K::kAddTime: {
      ArbiterDecisions clock = Arbiter::on_operator(game, a, now);
      out.insert(out.end(), clock.begin(), clock.end());
      break;
    }
    case K::kClaim: claim(game, a, now, out); break;
    case K::kResign: resign(game, a.side, now, out); break;
    case K::kDrawAgreed: draw_agreed(game, now, out); break;
    case K::kTwoHands: two_hands(game, a.side, now, out); break;
    case K::kRuling: ruling(game, a, now, out); break;
    case K::kInfraction: infraction(game, a.side, now, out); break;
  }
  return out;
}

}  // namespace eboard::engine
