#include "engine/game/game_event.h"

namespace eboard::engine {

const char* game_event_kind_name(GameEventKind kind) {
  switch (kind) {
    case GameEventKind::kGameStarted: return "gameStarted";
    case GameEventKind::kMoveTentative: return "moveTentative";
    case GameEventKind::kMoveWithdrawn: return "moveWithdrawn";
    case GameEventKind::kIllegalMovePending: return "illegalMovePending";
    case GameEventKind::kIllegalMoveCorrected: return "illegalMoveCorrected";
    case GameEventKind::kMoveCompleted: return "moveCompleted";
    case GameEventKind::kIllegalMoveCompleted: return "illegalMoveCompleted";
    case GameEventKind::kClockPressWithoutMove: return "clockPressWithoutMove";
    case GameEventKind::kRestoreRequested: return "restoreRequested";
    case GameEventKind::kClock: return "clock";
    case GameEventKind::kFlagFell: return "flagFell";
    case GameEventKind::kGameEnded: return "gameEnded";
    case GameEventKind::kTouchMoveViolation: return "touchMoveViolation";
    case GameEventKind::kSetupIrregular: return "setupIrregular";
    case GameEventKind::kPositionChanged: return "positionChanged";
    case GameEventKind::kIncrementCredited: return "incrementCredited";
    case GameEventKind::kDelayWindow: return "delayWindow";
    case GameEventKind::kPeriodStarted: return "periodStarted";
    case GameEventKind::kTimeControlMissed: return "timeControlMissed";
    case GameEventKind::kClockMismatch: return "clockMismatch";
    case GameEventKind::kSquareChanged: return "squareChanged";
    case GameEventKind::kPenalty: return "penalty";
    case GameEventKind::kClaimAvailable: return "claimAvailable";
    case GameEventKind::kClaimWindowClosed: return "claimWindowClosed";
    case GameEventKind::kClaimReceived: return "claimReceived";
    case GameEventKind::kClaimDecided: return "claimDecided";
    case GameEventKind::kIllegalMoveStood: return "illegalMoveStood";
    case GameEventKind::kTouchMoveObligation: return "touchMoveObligation";
    case GameEventKind::kCastlingForbidden: return "castlingForbidden";
    case GameEventKind::kIllegalPosition: return "illegalPosition";
    case GameEventKind::kDeadPositionSuspected: return "deadPositionSuspected";
    case GameEventKind::kDrawClaimable: return "drawClaimable";
  }
  return "";
}

std::uint32_t GameEvent::proposal() const {
  return std::visit(
      [](const auto& b) -> std::uint32_t {
        if constexpr (requires { b.proposal; })
          return b.proposal;
        else
          return 0;
      },
      body);
}

std::uint64_t GameEvent::proposal_seq() const {
  return std::visit(
      [](const auto& b) -> std::uint64_t {
        if constexpr (requires { b.proposal_seq; })
          return b.proposal_seq;
        else
          return 0;
      },
      body);
}

}  // namespace eboard::engine
