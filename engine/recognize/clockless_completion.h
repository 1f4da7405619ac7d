// ClocklessCompletion: when a move is complete on a board without a clock
// (docs/clockless.md; the recognizer consults it only in that mode).
//
// With a clock the press completes a move (docs/rules.md D3). Without one the board alone has
// to say that its player is done, and what players do before that looks like moves for a
// while: a piece set down on the way to its square, the rook of a rook-first castling, a
// move tried and taken back, a pawn put on the last rank before the new piece. The
// recognizer hands this unit the candidate a press would complete (the legal move standing
// on the board, or an illegal placement that one move explains) and every change of the
// board after it; the unit says when one of two rules completes it:
//
//   opponent began  the candidate stood unchanged for `stable`, then the opponent took one
//                   of their own pieces off it and kept it off for `lift_hold` (longer than
//                   a sensor flicker or a piece merely straightened). The recognizer adds
//                   the other way to begin: the opponent's move put down on top of it.
//   settled         the candidate stood unchanged for `settle`.
//
// Pieces taken off the candidate by anyone else (its own player lifting a piece again, the
// opponent lifting a victim before their capturing piece) stop it standing without
// dropping it: an opponent's lift that follows still counts against the time it stood.
// Any other change drops it (the recognizer names the next candidate). The board coming
// back to the candidate starts its times again.
//
// Time is injected: every call takes `now`; the owner calls due() at next_deadline().
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/board/bitboard.h"
#include "engine/recognize/sensed_board.h"

namespace eboard::engine {

struct ClocklessTiming {
  std::chrono::milliseconds stable{750};     // rule-set parameters clockless_stable_ms,
  std::chrono::milliseconds settle{3000};    // clockless_settle_ms
  std::chrono::milliseconds lift_hold{150};  // clockless_lift_hold_ms
};

enum class ClocklessRule : std::uint8_t { kOpponentBegan, kSettled };
enum class CandidateKind : std::uint8_t { kLegalMove, kIllegalPlacement };

struct ClocklessDecision {
  CandidateKind kind = CandidateKind::kLegalMove;
  ClocklessRule rule = ClocklessRule::kSettled;
  std::chrono::milliseconds at{0};
};

class ClocklessCompletion {
 public:
  using Millis = std::chrono::milliseconds;

  explicit ClocklessCompletion(ClocklessTiming timing = {}) : timing_(timing) {}

  // A candidate stands on the board, unchanged since `since`: the board as sensed now, and
  // the squares holding pieces of the side that moves after it (the candidate's opponent).
  void stand(CandidateKind kind, Millis since, const SensedBoard& board, Bitboard opponent_pieces);
  // The board changed at `now` (call after stand() when both happen at once).
  void sensed(Millis now, const SensedBoard& board);
  // Completed, taken back, or replaced: nothing is a candidate.
  void clear() { state_ = State::kNone; }

  std::optional<Millis> next_deadline() const;
  // The decision due by `now`, once; the candidate is then cleared.
  std::optional<ClocklessDecision> due(Millis now);

  bool has_candidate() const { return state_ != State::kNone; }
  CandidateKind kind() const { return kind_; }
  const ClocklessTiming& timing() const { return timing_; }

 private:
  enum class State : std::uint8_t {
    kNone,
    kStanding,        // the board shows the candidate
    kLifted,          // only pieces taken off it, none of the opponent's
    kOpponentLifted,  // only pieces taken off it, an opponent's among them
  };
  bool stood_long_enough() const { return left_at_ - since_ >= timing_.stable; }

  ClocklessTiming timing_;
  State state_ = State::kNone;
  CandidateKind kind_ = CandidateKind::kLegalMove;
  std::array<SquareCode, kSquareCount> codes_{};
  Bitboard occupied_ = 0;
  Bitboard opponent_ = 0;
  Millis since_{0};      // standing since
  Millis left_at_{0};    // the first piece taken off it
  Millis lifted_at_{0};  // the first opponent's piece taken off it
};

}  // namespace eboard::engine
