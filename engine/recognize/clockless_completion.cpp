#include "engine/recognize/clockless_completion.h"

namespace eboard::engine {

void ClocklessCompletion::stand(CandidateKind kind, Millis since, const SensedBoard& board,
                                Bitboard opponent_pieces) {
  kind_ = kind;
  state_ = State::kStanding;
  since_ = since;
  occupied_ = board.occupied();
  opponent_ = opponent_pieces & occupied_;
  for (int s = 0; s < kSquareCount; ++s) codes_[s] = board.at(Square(s));
}

void ClocklessCompletion::sensed(Millis now, const SensedBoard& board) {
  if (state_ == State::kNone) return;
  bool same = true;
  for (int s = 0; s < kSquareCount; ++s) {
    const SquareCode c = board.at(Square(s));
    if (c == codes_[s]) continue;
    same = false;
    if (c != kEmptyCode) {  // something put down or changed: not the candidate any more
      state_ = State::kNone;
      return;
    }
  }
  if (same) {
    if (state_ != State::kStanding) since_ = now;  // back: its times start again
    state_ = State::kStanding;
    return;
  }
  if (state_ == State::kStanding) left_at_ = now;
  const bool opponent_off = (opponent_ & ~board.occupied()) != 0;
  if (!opponent_off) {
    state_ = State::kLifted;
  } else if (state_ != State::kOpponentLifted) {
    state_ = State::kOpponentLifted;
    lifted_at_ = now;
  }
}

std::optional<ClocklessCompletion::Millis> ClocklessCompletion::next_deadline() const {
  switch (state_) {
    case State::kStanding: return since_ + timing_.settle;
    case State::kOpponentLifted:
      if (stood_long_enough()) return lifted_at_ + timing_.lift_hold;
      return std::nullopt;
    case State::kNone:
    case State::kLifted: break;
  }
  return std::nullopt;
}

std::optional<ClocklessDecision> ClocklessCompletion::due(Millis now) {
  const std::optional<Millis> deadline = next_deadline();
  if (!deadline || now < *deadline) return std::nullopt;
  ClocklessDecision d;
  d.kind = kind_;
  d.rule = state_ == State::kStanding ? ClocklessRule::kSettled : ClocklessRule::kOpponentBegan;
  d.at = *deadline;
  state_ = State::kNone;
  return d;
}

}  // namespace eboard::engine
