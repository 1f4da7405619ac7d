// RulesArbiter: positions that end the game by themselves (docs/rules.md D7), what follows a
// completed move, flag falls and their result (D10), the infraction ladder (D13).
#include <algorithm>

#include "engine/arbiter/arbiter.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"

namespace eboard::engine {

UnwinnabilityNote RulesArbiter::can_mate(const GameTracker&, const Position& pos, Color side,
                                         MatingTest test) {
  // A result hangs on it: the full analysis at its default limit (docs/rules.md D10).
  const Analysis a =
      analyzer_.mating_test(pos, side, test, AnalysisMode::kFull, kDefaultFullNodeLimit);
  switch (a.verdict) {
    case Verdict::kWinnable: return UnwinnabilityNote::kWinnable;
    case Verdict::kUnwinnable: return UnwinnabilityNote::kUnwinnable;
    case Verdict::kUndetermined: return UnwinnabilityNote::kUndetermined;
  }
  return UnwinnabilityNote::kUndetermined;
}

// D7: checked for a made legal move (the tracker has already handled checkmate and
// stalemate, which take precedence: 9.6.2's "unless the last move resulted in checkmate").
std::optional<RulesArbiter::Ending> RulesArbiter::ending(const GameTracker& game,
                                                         const Position& pos) {
  const RuleSet& r = game.rules();
  if (r.auto_fivefold_75 && pos.repetition_count() >= 4)
    return Ending{
        TerminationKind::kFivefoldRepetition, "the same position for the fifth time", {"9.6.1"}};
  if (r.auto_fivefold_75 && pos.halfmove_clock() >= 150)
    return Ending{TerminationKind::kSeventyFiveMoves,
                  "75 moves by each side without pawn move or capture",
                  {"9.6.2"}};
  if (pos.is_insufficient_material())
    return Ending{
        TerminationKind::kDeadPosition, "dead position: insufficient material", {"5.2.2"}};
  if (r.dead_position_analysis == DeadPositionAnalysis::kStructural) return std::nullopt;
  const AnalysisMode mode = r.dead_position_analysis == DeadPositionAnalysis::kFull
                                ? AnalysisMode::kFull
                                : AnalysisMode::kQuick;
  if (dead_position_verdict(pos, mode) == Verdict::kUnwinnable)
    return Ending{
        TerminationKind::kDeadPosition, "dead position: neither side can checkmate", {"5.2.2"}};
  return std::nullopt;
}

// The same position is judged several times: as each tentative move appears (a hovering
// hand shows it again and again) and once more when the move is completed. The verdict
// depends only on the position (9.2 identity) and the mode, so the last few are kept.
Verdict RulesArbiter::dead_position_verdict(const Position& pos, AnalysisMode mode) {
  for (const DeadVerdict& d : dead_verdicts_)
    if (d.key == pos.key() && d.mode == mode && d.valid) return d.verdict;
  const Verdict v = analyzer_.dead_position(
      pos, mode, mode == AnalysisMode::kFull ? kDefaultFullNodeLimit : kDefaultQuickNodeLimit);
  dead_verdicts_[next_dead_verdict_] = {pos.key(), mode, true, v};
  next_dead_verdict_ = (next_dead_verdict_ + 1) % dead_verdicts_.size();
  return v;
}

// Play goes on, but every pawn is blocked by an enemy pawn and the analysis proved
// nothing: the arbiter may want to look (D7, arbiter only, once per position).
void RulesArbiter::dead_position_suspected(const GameTracker&, const Position& pos, Millis now,
                                           ArbiterDecisions& out) {
  const Bitboard pawns = pos.pieces(kPawn);
  if (!pawns) return;
  for (Bitboard b = pos.pieces(kWhite, kPawn); b;) {
    const Square s = pop_lsb(b);
    if (rank_of(s) == 7 || pos.piece_on(Square(s + 8)) != make_piece(kBlack, kPawn)) return;
  }
  for (Bitboard b = pos.pieces(kBlack, kPawn); b;) {
    const Square s = pop_lsb(b);
    if (rank_of(s) == 0 || pos.piece_on(Square(s - 8)) != make_piece(kWhite, kPawn)) return;
  }
  if (std::find(suspected_.begin(), suspected_.end(), pos.key()) != suspected_.end()) return;
  suspected_.push_back(pos.key());
  events::DeadPositionSuspected e;
  e.position = snapshot_of(pos);
  e.description = "blocked pawns; the analysis could not prove the position dead within its budget";
  // The arbiter judges it (5.2.2): accepting the suspicion ends the game drawn.
  Proposal p;
  p.kind = Proposal::Kind::kGameEnd;
  p.result = GameResult::kDraw;
  p.termination = TerminationKind::kDeadPosition;
  p.description = "dead position (blocked pawns)";
  e.proposal = book_.open(std::move(p), EventVisibility::kArbiter, now).handle;
  report(out, GameEvent(now, std::move(e), EventVisibility::kArbiter, {"5.2.2"}));
}

std::optional<Millis> RulesArbiter::next_deadline() const {
  if (!pending_end_) return std::nullopt;
  return pending_end_->due;
}

// The move that ends the game has stood for game_end_stable: it is completed without a
// press (6.2.1.1) if it still stands, and on_move_completed ends the game.
ArbiterDecisions RulesArbiter::on_deadline(const GameTracker& game, Millis now) {
  if (!pending_end_ || pending_end_->due > now) return {};
  const PendingEnd end = *pending_end_;
  pending_end_.reset();
  if (game.ended() || game.committed().key() != end.committed ||
      game.recognizer().tentative() != end.move)
    return {};
  return {CompletePending{}};
}

ArbiterDecisions RulesArbiter::on_move_completed(const GameTracker& game,
                                                 const events::MoveCompleted& completed,
                                                 Millis now) {
  ArbiterDecisions out;
  started(game, now, out);
  pending_end_.reset();
  const Color mover = completed.side;
  // D4: the replacement used another piece although the touched one could move.
  if (obligation_ != kNoSquare && obligation_has_targets_ && completed.move &&
      completed.move.from() != obligation_) {
    events::TouchMoveViolation t;
    t.side = mover;
    t.move = completed.move;
    t.square = obligation_;
    t.description = "the touched piece had a legal move but another piece was moved";
    report(out, GameEvent(now, std::move(t), EventVisibility::kArbiter, {"4.3.1"}));
  }
  obligation_ = kNoSquare;
  obligation_has_targets_ = false;
  restart_owed_by_.reset();
  if (window_.open && mover == ~window_.offender) close_window(game, now, out);
  // D11 (A.5.4): the illegal position is still there after the next completed move.
  if (illegal_position_) {
    ++illegal_position_moves_;
    const Position& pos = game.committed();
    const bool still = *illegal_position_ == IllegalPositionKind::kPawnOnLastRank
                           ? (pos.pieces(kPawn) & 0xFF000000000000FFULL) != 0
                           : pos.in_check() && pos.opponent_in_check();
    illegal_position_.reset();
    if (still) {
      game_end(GameResult::kDraw, TerminationKind::kIllegalPosition,
               proposed_if(!game.rules().auto_apply_penalties),
               "the illegal position was still on the board after the next move (A.5.4)",
               UnwinnabilityNote::kNone, now, out);
      return out;
    }
  }
  const Position pos = game.committed();
  if (auto end = ending(game, pos)) {
    game_end(GameResult::kDraw, end->termination, Finality::kFinal, end->description,
             UnwinnabilityNote::kNone, now, out);
    return out;
  }
  dead_position_suspected(game, pos, now, out);
  setup_window(game, now, out);
  draw_claimable(game, now, out);
  return out;
}

ArbiterDecisions RulesArbiter::on_flag(const GameTracker& game, Color side, Millis now) {
  ArbiterDecisions out;
  started(game, now, out);
  flag_down_[side] = true;
  // Claim-only sets (2009 A.4.d, S0 r9, S4 13c): nobody but the opponent may call it.
  if (game.rules().flag_observer == FlagObserver::kClaimOnly) return out;
  flag_result(game, side, now, out);
  return out;
}

// Guidelines III.3.1 governs an unknown order of falls when the set names it, or when the
// set reads the clock's order and III was announced (docs/rules.md §2 `both_flags` of
// fide-standard: "order_from_clock (III.3.1 if announced)"); III is only for games without
// increment (its title), so a period with an increment or delay excludes it.
bool RulesArbiter::guideline_iii_3_1_applies(const GameTracker& game) const {
  const RuleSet& r = game.rules();
  if (r.both_flags == BothFlags::kGuidelineIII31) return true;
  if (r.both_flags != BothFlags::kOrderFromClock || !r.guidelines_iii_announced) return false;
  const TimeControl& tc = game.clock().time_control();
  return std::all_of(tc.periods.begin(), tc.periods.end(),
                     [](const Period& p) { return p.adjustment == Adjustment::kNone; });
}

// D10, both flags down and the order unknown. Claim-only sets wait for the claim (which
// then draws, 2009 A.4.d, S4 13c). III.3.1.1: play continues unless both players are in the
// period in which all remaining moves must be completed; III.3.1.2: then a draw. Without
// III the Laws say nothing and the clock cannot tell: the arbiter decides on a proposed draw.
ArbiterDecisions RulesArbiter::on_both_flags(const GameTracker& game, Millis now) {
  ArbiterDecisions out;
  started(game, now, out);
  flag_down_ = {true, true};
  const RuleSet& r = game.rules();
  if (r.flag_observer == FlagObserver::kClaimOnly) return out;
  if (guideline_iii_3_1_applies(game)) {
    const int periods = int(game.clock().time_control().periods.size());
    const bool final_period =
        game.clock().period(kWhite) == periods && game.clock().period(kBlack) == periods;
    if (!final_period) return out;  // III.3.1.1
    game_end(GameResult::kDraw, TerminationKind::kBothFlags, Finality::kFinal,
             "both flags down in the final period, the order unknown (III.3.1.2)",
             UnwinnabilityNote::kNone, now, out);
    return out;
  }
  if (r.both_flags == BothFlags::kDrawIfBothDownAtClaim) {
    game_end(GameResult::kDraw, TerminationKind::kBothFlags, Finality::kFinal,
             "both flags down (2009 A.4.d)", UnwinnabilityNote::kNone, now, out);
    return out;
  }
  game_end(GameResult::kDraw, TerminationKind::kBothFlags, Finality::kProposed,
           "both flags down, the order unknown: the arbiter decides", UnwinnabilityNote::kNone, now,
           out);
  return out;
}

// 6.9: the flagged side loses unless the opponent cannot mate (by the set's mating test).
void RulesArbiter::flag_result(const GameTracker& game, Color flagged, Millis now,
                               ArbiterDecisions& out) {
  const Color opponent = ~flagged;
  const UnwinnabilityNote note =
      can_mate(game, game.committed(), opponent, game.rules().mating_test);
  if (note == UnwinnabilityNote::kUnwinnable) {
    game_end(GameResult::kDraw, TerminationKind::kTimeoutVsInsufficient, Finality::kFinal,
             "flag fell, but the opponent cannot checkmate (6.9)", note, now, out);
    return;
  }
  game_end(win_for(opponent), TerminationKind::kTimeForfeit,
           proposed_if(note == UnwinnabilityNote::kUndetermined),
           note == UnwinnabilityNote::kUndetermined
               ? "flag fell; whether the opponent can mate is undetermined"
               : "flag fell (6.9)",
           note, now, out);
}

// `claim X flag` (D10): in claim-only sets the claim is what makes a flag count.
void RulesArbiter::flag_claim(const GameTracker& game, Color claimant, Millis now,
                              ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  const bool mine = flag_down_[claimant] || game.clock().flag_fallen(claimant).has_value();
  const bool theirs = flag_down_[~claimant] || game.clock().flag_fallen(~claimant).has_value();
  const EventVisibility visibility = game.irregularity_visibility();
  events::ClaimDecided d;
  d.side = claimant;
  d.kind = ClaimKind::kFlag;
  if (mine && theirs && r.both_flags != BothFlags::kOrderFromClock) {
    d.accepted = true;
    d.reason = ClaimReason::kCorrect;
    report(out, GameEvent(now, d, visibility));
    game_end(GameResult::kDraw, TerminationKind::kBothFlags, Finality::kFinal,
             "both flags down at the claim (2009 A.4.d)", UnwinnabilityNote::kNone, now, out);
    return;
  }
  if (!theirs || mine) {
    d.accepted = false;
    d.reason = ClaimReason::kIncorrect;
    d.description = mine ? "the claimant's own flag is down" : "the opponent's flag has not fallen";
    report(out, GameEvent(now, d, visibility));
    return;
  }
  d.accepted = true;
  d.reason = ClaimReason::kCorrect;
  report(out, GameEvent(now, d, visibility));
  flag_result(game, ~claimant, now, out);
}

// D13: an infraction outside Article 7 (`arbiter infraction X`), per player.
void RulesArbiter::infraction(const GameTracker& game, Color side, Millis now,
                              ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  const int n = ++infractions_[side];
  const bool proposal = !r.auto_apply_penalties;
  if (r.infraction_ladder.empty() || n > int(r.infraction_ladder.size())) {
    events::Penalty e;
    e.side = side;
    e.kind = PenaltyKind::kWarning;
    e.applied = false;
    e.description =
        "infraction " + std::to_string(n) + " recorded: the arbiter chooses the penalty (12.9)";
    report(out, GameEvent(now, std::move(e), EventVisibility::kArbiter));
    return;
  }
  const PenaltyStep step = r.infraction_ladder[std::size_t(n - 1)];
  switch (step.kind) {
    case PenaltyStep::Kind::kWarning:
      // S4 10a as read in docs/rules.md D13: if the opponent's flag is already down, the
      // opponent gets one minute instead of the offender being warned.
      if (flag_down_[~side]) {
        penalty(game, side, PenaltyKind::kTimeAdded, Millis{60000}, PenaltyPosition::kStands,
                "first infraction, the opponent's flag is down: one minute (S4 10a)", now, out);
      } else {
        penalty(game, side, PenaltyKind::kWarning, Millis{0}, PenaltyPosition::kStands,
                "first infraction: warning (S4 10)", now, out);
      }
      return;
    case PenaltyStep::Kind::kTimeToOpponent:
      penalty(game, side, PenaltyKind::kTimeAdded, step.time, PenaltyPosition::kStands,
              "infraction (S4 10)", now, out);
      return;
    case PenaltyStep::Kind::kLoss:
    case PenaltyStep::Kind::kClaimWin: {
      events::Penalty p;
      p.side = side;
      p.kind = PenaltyKind::kGameLost;
      p.applied = !proposal;
      p.description = "infraction " + std::to_string(n) + ": loss (S4 10)";
      const std::size_t at = out.size();
      report(out, GameEvent(now, std::move(p), game.irregularity_visibility()));
      // One decision: the loss the penalty proposes is the proposed result.
      const std::uint32_t handle =
          game_end(win_for(~side), TerminationKind::kPenaltyLadder, proposed_if(proposal),
                   "infraction ladder (S4 10)", UnwinnabilityNote::kNone, now, out);
      reported<events::Penalty>(out, at).proposal = handle;
      return;
    }
  }
}

}  // namespace eboard::engine
