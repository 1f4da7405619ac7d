// RulesArbiter: completed illegal moves and acts treated as such (docs/rules.md D5, D6), the
// claim window and the illegal move that stands, touch-move obligations (D4), illegal
// positions left on the board (D11).
#include <algorithm>

#include "engine/arbiter/arbiter.h"
#include "engine/board/movegen.h"
#include "engine/board/notation.h"

namespace eboard::engine {
namespace {

// The committed position's castling rights whose king and rook still stand on the board.
CastlingRights castling_still_possible(const Position& committed, const SensedBoard& sensed) {
  const auto at = [&](int sq, Piece p) { return sensed.at(Square(sq)) == SquareCode(p); };
  int rights = kNoCastling;
  if (committed.can_castle(kWhiteKingside) && at(4, make_piece(kWhite, kKing)) &&
      at(7, make_piece(kWhite, kRook)))
    rights |= kWhiteKingside;
  if (committed.can_castle(kWhiteQueenside) && at(4, make_piece(kWhite, kKing)) &&
      at(0, make_piece(kWhite, kRook)))
    rights |= kWhiteQueenside;
  if (committed.can_castle(kBlackKingside) && at(60, make_piece(kBlack, kKing)) &&
      at(63, make_piece(kBlack, kRook)))
    rights |= kBlackKingside;
  if (committed.can_castle(kBlackQueenside) && at(60, make_piece(kBlack, kKing)) &&
      at(56, make_piece(kBlack, kRook)))
    rights |= kBlackQueenside;
  return CastlingRights(rights);
}

}  // namespace

// The position standing on the board, `to_move` to move: what a completed illegal move
// left (docs/rules.md D5: once it stands, legality is judged from it). It may be
// irregular (a pawn on its last rank, the side not to move in check: D11), but a Position
// needs one king of each colour; without them, or with a square whose piece is unknown,
// it falls back to the committed position. No en passant square, the halfmove clock at 0.
Position RulesArbiter::board_position(const GameTracker& game, Color to_move) const {
  const SensedBoard& sensed = game.recognizer().sensed();
  const Position& committed = game.committed();
  Piece board[kSquareCount] = {};
  std::array<int, 2> kings{};
  for (int s = 0; s < kSquareCount; ++s) {
    const SquareCode c = sensed.at(Square(s));
    if (c == kEmptyCode) continue;
    if (!is_piece_code(c)) return committed;  // identity unknown
    board[s] = Piece(c);
    if (type_of(board[s]) == kKing) ++kings[color_of(board[s])];
  }
  if (kings[kWhite] != 1 || kings[kBlack] != 1) return committed;
  const int fullmove = committed.fullmove_number() + (to_move == kWhite ? 1 : 0);
  return Position::from_parts(board, to_move, castling_still_possible(committed, sensed), kNoSquare,
                              0, fullmove);
}

ArbiterDecisions RulesArbiter::on_illegal_completed(const GameTracker& game,
                                                    const events::IllegalMoveCompleted& completed,
                                                    Millis now) {
  ArbiterDecisions out;
  started(game, now, out);
  const Color offender = completed.side;
  const IllegalAct act = completed.reason == IllegalReason::kPressWithoutMove
                             ? IllegalAct::kOffBoard
                             : IllegalAct::kOnBoard;
  // The offender's own move closes a window he had against the opponent (D5).
  if (window_.open && act == IllegalAct::kOnBoard && offender != window_.offender)
    close_window(game, now, out);
  illegal_ladder(game, offender, completed, act, now, out);
  if (act == IllegalAct::kOffBoard && !game.ended() && !ends_game(out))
    restart_owed_by_ = ~offender;
  return out;
}

// The ladder counts two-hands reports with the tracker's count (two_hands).
int RulesArbiter::unseen_illegal_acts(const GameTracker& game, Color side) const {
  return game.rules().illegal_move_ladder.empty() ? 0 : two_hands_[side];
}

// 7.5.4: the arbiter saw a move made with two hands; the move stands (docs/rules.md §4 scenario
// 23) and counts like a completed illegal move. The tracker does not see the report, so
// the count is the tracker's plus these reports.
void RulesArbiter::two_hands(const GameTracker& game, Color side, Millis now,
                             ArbiterDecisions& out) {
  events::IllegalMoveCompleted e;
  e.side = side;
  e.reason = IllegalReason::kTwoHands;
  e.description = "move made with two hands (reported by the arbiter)";
  e.count = game.illegal_count(side) + ++two_hands_[side];
  report(out, GameEvent(now, e, game.irregularity_visibility(), {"7.5.4"}));
  illegal_ladder(game, side, e, IllegalAct::kOffBoard, now, out);
}

// One rung of `illegal_move.ladder` for the offender's count-th completed illegal act.
void RulesArbiter::illegal_ladder(const GameTracker& game, Color offender,
                                  const events::IllegalMoveCompleted& completed, IllegalAct act,
                                  Millis now, ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  if (r.illegal_move_ladder.empty()) return;  // the arbiter chooses (12.9)
  // The tracker's count does not include two-hands reports (its event's does:
  // unseen_illegal_acts).
  const int count = game.illegal_count(offender) + two_hands_[offender];
  const PenaltyStep step = r.illegal_move_ladder[std::size_t(
      std::min<int>(count, int(r.illegal_move_ladder.size())) - 1)];
  const bool proposal = !r.auto_apply_penalties;
  const Color opponent = ~offender;
  Position before = game.committed();
  // 7.5.2: a pawn left on the last rank becomes a queen of its colour; the move stands.
  bool promotion = false;
  const Move queen(completed.from, completed.to, MoveKind::kPromotion, kQueen);
  if (completed.reason == IllegalReason::kPromotionIncomplete && completed.from != kNoSquare &&
      before.is_legal(queen)) {
    before.make(queen);
    promotion = true;
  }
  const bool window =
      act == IllegalAct::kOnBoard &&
      (r.illegal_move_detection == IllegalMoveDetection::kClaimOnlyBeforeReply ||
       (r.illegal_move_detection == IllegalMoveDetection::kBeforeReply && proposal));
  if (window && step.kind != PenaltyStep::Kind::kLoss) {
    window_ = IllegalWindow{};
    window_.open = true;
    window_.offender = offender;
    window_.before = game.committed();
    window_.after = board_position(game, opponent);
    out.push_back(SetCommitted{window_.after, "the illegal move stands until claimed (D5)"});
    report(out, GameEvent(now, events::ClaimAvailable{opponent, ClaimKind::kIllegalMove},
                          game.irregularity_visibility(),
                          {r.illegal_move_detection == IllegalMoveDetection::kBeforeReply
                               ? "A.5.2"
                               : "B.3.c (2009)"}));
    if (step.kind == PenaltyStep::Kind::kTimeToOpponent) {
      window_.has_penalty = true;
      window_.proposal =
          penalty(game, offender, PenaltyKind::kTimeAdded, step.time, PenaltyPosition::kReinstated,
                  "completed illegal move (7.5.5, A.3)", now, out);
    }
    return;
  }
  switch (step.kind) {
    case PenaltyStep::Kind::kTimeToOpponent:
      penalty(game, offender, PenaltyKind::kTimeAdded, step.time, PenaltyPosition::kStands,
              "completed illegal move (7.5.5)", now, out);
      if (act == IllegalAct::kOnBoard) {
        reinstate(game, before, now, out);
        if (!promotion) restart_owed_by_ = opponent;
      }
      return;
    case PenaltyStep::Kind::kWarning:
      penalty(game, offender, PenaltyKind::kWarning, Millis{0}, PenaltyPosition::kStands,
              "completed illegal move", now, out);
      return;
    case PenaltyStep::Kind::kClaimWin:  // acts off the board (two hands) in claim-only sets
      return;
    case PenaltyStep::Kind::kLoss: {
      events::Penalty p;
      p.side = offender;
      p.kind = PenaltyKind::kGameLost;
      p.applied = !proposal;
      p.description = "second completed illegal move (7.5.5)";
      const std::size_t at = out.size();
      report(out, GameEvent(now, std::move(p), game.irregularity_visibility()));
      const UnwinnabilityNote note =
          r.illegal_move_draw_if_unwinnable
              ? can_mate(game, game.committed(), opponent, MatingTest::kFideHelpmate)
              : UnwinnabilityNote::kNone;
      const bool draw = note == UnwinnabilityNote::kUnwinnable;
      // One decision, not two: the loss the penalty proposes is the proposed result.
      const std::uint32_t handle =
          game_end(draw ? GameResult::kDraw : win_for(opponent), TerminationKind::kIllegalMove,
                   proposed_if(proposal || note == UnwinnabilityNote::kUndetermined),
                   draw ? "second illegal move, but the opponent cannot checkmate (7.5.5)"
                        : "second completed illegal move (7.5.5)",
                   note, now, out);
      reported<events::Penalty>(out, at).proposal = handle;
      return;
    }
  }
}

// The claimant made (or, pskov, touched for) his move: the illegal move stands (D5).
void RulesArbiter::close_window(const GameTracker& game, Millis now, ArbiterDecisions& out) {
  if (!window_.open) return;
  window_.open = false;
  book_.withdraw(window_.proposal, WithdrawReason::kLapsed,
                 "the claim window closed: the illegal move stands (A.5.2)", now);
  report(out, GameEvent(now, events::ClaimWindowClosed{~window_.offender, ClaimKind::kIllegalMove},
                        EventVisibility::kArbiter));
  report(out, GameEvent(now, events::IllegalMoveStood{window_.offender, snapshot_of(window_.after)},
                        game.irregularity_visibility(), {"A.5.2"}));
  check_illegal_position(game, now, out);
}

// `claim X illegal-move`: only while the window is open (before X's reply / touch).
void RulesArbiter::claim_illegal(const GameTracker& game, Color claimant, Millis now,
                                 ArbiterDecisions& out) {
  const RuleSet& r = game.rules();
  const EventVisibility visibility = game.irregularity_visibility();
  events::ClaimDecided d;
  d.side = claimant;
  d.kind = ClaimKind::kIllegalMove;
  if (!window_.open || window_.offender == claimant) {
    d.accepted = false;
    d.reason = ClaimReason::kWindowClosed;
    report(out, GameEvent(now, std::move(d), visibility, {"A.5.2", "S4 7d"}));
    return;
  }
  d.accepted = true;
  d.reason = ClaimReason::kCorrect;
  d.finality = proposed_if(!r.auto_apply_penalties);
  const std::size_t decided_at = out.size();
  report(out, GameEvent(now, d, visibility));
  window_.open = false;
  if (window_.has_penalty) {
    // A.5.2: the claim makes the arbiter act on the pending penalty.
    Proposal* p = book_.get(window_.proposal);
    if (p && p->open() && r.auto_apply_penalties) {
      book_.settle(window_.proposal, RulingDecision::kAccept);
      apply_time(claimant, p->amount, out);
      reinstate(game, window_.before, now, out);
    }
    return;
  }
  // Claim-win sets: the claimant wins unless he cannot mate the offender (judged on the
  // position before the claimed irregularity, docs/rules.md §4 scenario 16).
  const UnwinnabilityNote note = can_mate(game, window_.before, claimant, r.mating_test);
  const bool draw = r.illegal_move_draw_if_unwinnable && note == UnwinnabilityNote::kUnwinnable;
  const std::uint32_t handle = game_end(
      draw ? GameResult::kDraw : win_for(claimant), TerminationKind::kIllegalMoveClaim,
      proposed_if(d.finality == Finality::kProposed || note == UnwinnabilityNote::kUndetermined),
      draw ? "illegal move claimed, but the claimant cannot checkmate" : "illegal move claimed",
      note, now, out);
  // A ruling may name the claim (claimReceived, claimDecided) or the proposed result.
  if (handle != 0) {
    reported<events::ClaimDecided>(out, decided_at).proposal = handle;
    if (decided_at > 0) {
      auto* report = std::get_if<ArbiterReport>(&out[decided_at - 1]);
      if (auto* received = report ? report->event.get<events::ClaimReceived>() : nullptr)
        received->proposal = handle;
    }
  }
}

// D4: an illegal placement by the side on move; the first lifted own piece must move.
void RulesArbiter::touch_obligation(const GameTracker& game, Millis now, ArbiterDecisions& out) {
  const Position& pos = game.committed();
  Square s = game.recognizer().first_lifted_own();
  if (s == kNoSquare || s == obligation_) return;
  if (pos.empty(s) || color_of(pos.piece_on(s)) != pos.side_to_move()) return;
  obligation_ = s;
  events::TouchMoveObligation e;
  e.side = pos.side_to_move();
  e.square = s;
  std::vector<Square>& targets = e.legal_targets;
  MoveList legal;
  generate_legal(pos, legal);
  for (Move m : legal)
    if (m.from() == s && std::find(targets.begin(), targets.end(), m.to()) == targets.end())
      targets.push_back(m.to());
  obligation_has_targets_ = !targets.empty();
  e.description = obligation_has_targets_
                      ? "the touched piece must be moved (4.3.1)"
                      : "the touched piece has no legal move: any legal move (4.5)";
  report(out, GameEvent(now, std::move(e), EventVisibility::kArbiter, {"4.3", "4.5"}));
}

// D11: both kings in check or a pawn on its furthest rank in the committed position.
void RulesArbiter::check_illegal_position(const GameTracker& game, Millis now,
                                          ArbiterDecisions& out) {
  const Position& pos = game.committed();
  std::optional<IllegalPositionKind> kind;
  Bitboard squares = 0;
  const Bitboard last_ranks = 0xFF000000000000FFULL;
  if (pos.pieces(kPawn) & last_ranks) {
    kind = IllegalPositionKind::kPawnOnLastRank;
    squares = pos.pieces(kPawn) & last_ranks;
  } else if (pos.in_check() && pos.opponent_in_check()) {
    kind = IllegalPositionKind::kBothKingsInCheck;
    squares = (Bitboard(1) << pos.king_square(kWhite)) | (Bitboard(1) << pos.king_square(kBlack));
  }
  if (!kind) return;
  report(out, GameEvent(now, events::IllegalPosition{*kind, squares_of(squares), snapshot_of(pos)},
                        EventVisibility::kArbiter, {"A.5.4"}));
  if (game.rules().illegal_position_rule == IllegalPositionRule::kA54) illegal_position_ = kind;
}

ArbiterDecisions RulesArbiter::on_board_change(const GameTracker& game,
                                               std::span<const GameEvent> caused, Millis now) {
  ArbiterDecisions out;
  started(game, now, out);
  const Color on_move = game.committed().side_to_move();
  for (const GameEvent& event : caused) {
    const auto* pending = event.get<events::IllegalMovePending>();
    const auto* tentative = event.get<events::MoveTentative>();
    if (pending || event.is<events::MoveWithdrawn>()) pending_end_.reset();
    if (!tentative && !pending) continue;
    const Color side = tentative ? tentative->side : pending->side;
    // D5: the claimant made (released) his next move.
    if (window_.open && side == ~window_.offender &&
        game.rules().window_closes_on != WindowClosesOn::kOpponentMoveCompleted)
      close_window(game, now, out);
    if (pending && side == on_move) touch_obligation(game, now, out);
    if (tentative && side == on_move) {
      const Move move = tentative->move;
      // D7: a made legal move that ends the game by itself completes without a press once
      // it has stood for game_end_stable (D2: a piece sliding over the square must not end
      // the game); another move on the board supersedes it.
      pending_end_.reset();
      // The same side's later pending ply (6.2.1.2) is not a move from the committed position.
      if (!game.committed().is_legal(move)) continue;
      Position after = game.committed();
      after.make(move);
      if (ends_by_itself(game, after))
        pending_end_ = PendingEnd{move, game.committed().key(), now + game.rules().game_end_stable};
    }
  }
  // pskov (S4 7b, 13d): touching an own piece closes the window too.
  if (window_.open && game.rules().window_closes_on == WindowClosesOn::kOpponentTouch &&
      on_move == ~window_.offender && game.recognizer().first_lifted_own() != kNoSquare)
    close_window(game, now, out);
  return out;
}

}  // namespace eboard::engine
