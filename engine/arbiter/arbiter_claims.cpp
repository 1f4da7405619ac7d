// RulesArbiter: claims (docs/rules.md D8: threefold and fifty with an intended move, 9.2-9.5),
// draw agreement (5.2.3), resignation (5.1.2), set-up claims and lost castling (D1),
// quickplay finish (D12).
#include "engine/arbiter/arbiter.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::engine {
namespace {

events::ClaimReceived received(Color side, ClaimKind kind) {
  events::ClaimReceived r;
  r.side = side;
  r.kind = kind;
  return r;
}

events::ClaimDecided decided(std::optional<Color> side, ClaimKind kind) {
  events::ClaimDecided d;
  d.side = side;
  d.kind = kind;
  return d;
}

}  // namespace

void RulesArbiter::claim(const GameTracker& game, const OperatorAction& a, Millis now,
                         ArbiterDecisions& out) {
  const ClaimKind kind = a.claim;
  switch (kind) {
    case ClaimKind::kIllegalMove: {
      events::ClaimReceived r = received(a.side, kind);
      r.eligible = window_.open && window_.offender != a.side;
      report(out, GameEvent(now, std::move(r), game.irregularity_visibility()));
      return claim_illegal(game, a.side, now, out);
    }
    case ClaimKind::kThreefold:
    case ClaimKind::kFifty: return claim_draw(game, a, kind, now, out);
    case ClaimKind::kFlag: {
      report(out, GameEvent(now, received(a.side, kind), game.irregularity_visibility()));
      return flag_claim(game, a.side, now, out);
    }
    case ClaimKind::kQpf: return claim_qpf(game, a, now, out);
    case ClaimKind::kSetup:
    case ClaimKind::kOrientation:
    case ClaimKind::kClockSetting: return claim_setup(game, a, kind, now, out);
    case ClaimKind::kAgreement: return;
  }
}

// A claim's outcome, final: the claimDecided and what it entails.
void RulesArbiter::decide_claim(const GameTracker& game, GameEvent decided, Millis now,
                                ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  const events::ClaimDecided d = *decided.get<events::ClaimDecided>();
  const Color claimant = d.side.value_or(kWhite);
  report(out, std::move(decided));
  if (d.accepted) {
    switch (d.kind) {
      case ClaimKind::kThreefold:
        game_end(GameResult::kDraw, TerminationKind::kThreefoldClaim, Finality::kFinal,
                 "threefold repetition claimed (9.2)", UnwinnabilityNote::kNone, now, out);
        return;
      case ClaimKind::kFifty:
        game_end(GameResult::kDraw, TerminationKind::kFiftyMoveClaim, Finality::kFinal,
                 "fifty-move rule claimed (9.3)", UnwinnabilityNote::kNone, now, out);
        return;
      case ClaimKind::kQpf:
        game_end(GameResult::kDraw, TerminationKind::kArbiter, Finality::kFinal,
                 "quickplay-finish claim upheld (D12)", UnwinnabilityNote::kNone, now, out);
        return;
      case ClaimKind::kSetup:
      case ClaimKind::kOrientation:
      case ClaimKind::kClockSetting:
        // 7.2.1 / A.5.1: a new game is played, from the standard array when the wrong one
        // was the configured start (D1), else from the configured start.
        out.push_back(
            AnnulGame{game.config().start.game_ply() == 0 ? Position() : game.config().start,
                      "set-up claim upheld: the game is annulled, a new game is played (7.2.1)"});
        return;
      default: return;
    }
  }
  // An incorrect claim: time to the opponent (9.5.3, A.3; D12 III.5).
  const Millis amount = d.kind == ClaimKind::kQpf ? r.qpf_penalty : r.claim_penalty;
  if ((d.reason == ClaimReason::kIncorrect || d.kind == ClaimKind::kQpf) && amount.count() > 0) {
    events::Penalty p;
    p.side = claimant;
    p.kind = PenaltyKind::kTimeAdded;
    p.amount = amount;
    p.applied = true;
    p.description = "incorrect claim (9.5.3)";
    report(out, GameEvent(now, std::move(p)));
    apply_time(~claimant, amount, out);
  }
}

// 9.2 / 9.3: the player having the move claims for the position on the board, or for
// the one his announced move would produce; 9.4: a touched piece forfeits the claim.
void RulesArbiter::claim_draw(const GameTracker& game, const OperatorAction& a, ClaimKind kind,
                              Millis now, ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  const Position& committed = game.committed();
  events::ClaimReceived rec = received(a.side, kind);
  rec.intended_uci = a.uci;
  events::ClaimDecided d = decided(a.side, kind);
  const std::vector<std::string> articles = {kind == ClaimKind::kThreefold ? "9.2" : "9.3"};
  const bool on_move = committed.side_to_move() == a.side;
  const bool touched = on_move && game.recognizer().first_lifted_own() != kNoSquare;
  rec.eligible = on_move && !touched;
  report(out, GameEvent(now, rec));
  if (!on_move || touched) {
    d.accepted = false;
    d.reason = on_move ? ClaimReason::kTouched : ClaimReason::kNotOnMove;
    report(out, GameEvent(now, d, EventVisibility::kPublic, articles));
    if (touched) touch_obligation(game, now, out);
    return;
  }
  Position pos = committed;
  bool legal = true;
  if (!a.uci.empty()) {
    auto m = parse_uci(pos, a.uci);
    legal = m.ok();
    if (legal) pos.make(m.value());
  }
  const bool correct = legal && (kind == ClaimKind::kThreefold ? pos.repetition_count() >= 2
                                                               : pos.halfmove_clock() >= 100);
  d.accepted = correct;
  d.reason = correct ? ClaimReason::kCorrect : ClaimReason::kIncorrect;
  d.penalty = correct ? Millis{0} : r.claim_penalty;
  if (!r.auto_apply_penalties) d.finality = Finality::kProposed;
  GameEvent e(now, d, EventVisibility::kPublic, articles);
  if (r.auto_apply_penalties) return decide_claim(game, std::move(e), now, out);
  open_claim(std::move(e), out);
}

// D12: the daemon checks eligibility; "normal means" is the arbiter's judgement, so an
// eligible claim is always a proposal (accept: draw; reject: opponent + qpf_penalty).
void RulesArbiter::claim_qpf(const GameTracker& game, const OperatorAction& a, Millis now,
                             ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  const ClockModel& clock = game.clock();
  const TimeControl& tc = clock.time_control();
  const Color c = a.side;
  const bool final_period = clock.period(c) == int(tc.periods.size());
  const bool no_increment = tc.periods.back().adjustment == Adjustment::kNone;
  const bool eligible = r.qpf_enabled && r.guidelines_iii_announced && final_period &&
                        no_increment && clock.remaining(c, now) < Millis{120000} &&
                        !clock.flag_fallen(c) &&
                        (!r.qpf_requires_move || game.committed().side_to_move() == c);
  events::ClaimReceived rec = received(c, ClaimKind::kQpf);
  rec.eligible = eligible;
  report(out, GameEvent(now, rec, EventVisibility::kPublic, {"III.4", "III.5"}));
  events::ClaimDecided d = decided(c, ClaimKind::kQpf);
  if (!eligible) {
    d.accepted = false;
    d.reason = ClaimReason::kNotEligible;
    report(out, GameEvent(now, d));
    return;
  }
  d.accepted = true;
  d.finality = Finality::kProposed;
  d.reason = ClaimReason::kCorrect;
  d.penalty = r.qpf_penalty;
  open_claim(GameEvent(now, d), out);
}

// D1: claims about the set-up (or orientation, or clock setting) inside the window.
void RulesArbiter::claim_setup(const GameTracker& game, const OperatorAction& a, ClaimKind kind,
                               Millis now, ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  events::ClaimReceived rec = received(a.side, kind);
  const std::optional<int> n = r.setup_claim_window_moves;
  const bool covered = kind != ClaimKind::kClockSetting || r.setup_window_covers_clock || !n;
  const bool in_window =
      !n || game.moves_completed(kWhite) < *n || game.moves_completed(kBlack) < *n;
  rec.eligible = in_window && covered;
  report(out, GameEvent(now, rec));
  events::ClaimDecided d = decided(a.side, kind);
  d.accepted = rec.eligible;
  d.reason = rec.eligible ? ClaimReason::kCorrect : ClaimReason::kWindowClosed;
  const bool decide_now = !d.accepted || r.auto_apply_penalties;
  if (!decide_now) d.finality = Finality::kProposed;
  GameEvent e(now, d, EventVisibility::kPublic, {n ? "A.5.1" : "7.2.1"});
  if (decide_now) return decide_claim(game, std::move(e), now, out);
  open_claim(std::move(e), out);
}

// D1 (A.5.1.2): when both have completed the window's moves, a misplaced king may not
// castle at all.
void RulesArbiter::setup_window(const GameTracker& game, Millis now, ArbiterDecisions& out) {
  const std::optional<int> n = game.rules().setup_claim_window_moves;
  if (setup_window_closed_ || !n) return;
  if (game.moves_completed(kWhite) < *n || game.moves_completed(kBlack) < *n) return;
  setup_window_closed_ = true;
  if (game.rules().misplaced_king_castling != MisplacedKingCastling::kForbidden) return;
  for (Color c : {kWhite, kBlack}) {
    if (!king_misplaced_[c]) continue;
    report(out, GameEvent(now, events::CastlingForbidden{c, CastlingWing::kAll},
                          EventVisibility::kPublic, {"A.5.1.2"}));
  }
}

// D8: informative, arbiter only: the side now on move could claim.
void RulesArbiter::draw_claimable(const GameTracker& game, Millis now, ArbiterDecisions& out) {
  const Position& pos = game.committed();
  const auto tell = [&](ClaimKind kind) {
    report(out,
           GameEvent(now, events::DrawClaimable{pos.side_to_move(), kind},
                     EventVisibility::kArbiter, {kind == ClaimKind::kThreefold ? "9.2" : "9.3"}));
  };
  if (pos.repetition_count() >= 2) tell(ClaimKind::kThreefold);
  if (pos.halfmove_clock() >= 100) tell(ClaimKind::kFifty);
}

// 5.1.2 (2023): a resignation loses, unless the opponent cannot mate: then a draw.
void RulesArbiter::resign(const GameTracker& game, Color side, Millis now, ArbiterDecisions& out) {
  const Color opponent = ~side;
  UnwinnabilityNote note = UnwinnabilityNote::kNone;
  if (game.rules().resign_draw_if_opponent_unwinnable)
    note = can_mate(game, game.committed(), opponent, MatingTest::kFideHelpmate);
  const bool draw = note == UnwinnabilityNote::kUnwinnable;
  game_end(
      draw ? GameResult::kDraw : win_for(opponent), TerminationKind::kResignation, Finality::kFinal,
      draw ? "resigned, but the opponent cannot checkmate: draw (5.1.2)" : "resignation (5.1.2)",
      note, now, out);
}

// 5.2.3: agreement only after both players have made at least one move.
void RulesArbiter::draw_agreed(const GameTracker& game, Millis now, ArbiterDecisions& out) {
  if (game.moves_completed(kWhite) >= 1 && game.moves_completed(kBlack) >= 1) {
    game_end(GameResult::kDraw, TerminationKind::kAgreement, Finality::kFinal,
             "draw agreed (5.2.3)", UnwinnabilityNote::kNone, now, out);
    return;
  }
  events::ClaimDecided d = decided(std::nullopt, ClaimKind::kAgreement);
  d.accepted = false;
  d.reason = ClaimReason::kNoMoveMade;
  report(out, GameEvent(now, std::move(d), EventVisibility::kPublic, {"5.2.3"}));
}

}  // namespace eboard::engine
