// The engine's domain events: one GameEvent per fact a GameTracker learns about its game.
// They mirror the kinds of docs/interfaces.md §4 / proto/eboard/v1/event.proto that the
// engine produces, field for field, without depending on Protobuf (engine/ links the
// standard library only); daemon/event_mapping.h turns them into eboard.v1.Event.
//
// One flat struct rather than a variant of many: most kinds share most fields (side,
// uci, san, fen, description), consumers switch on `kind`, and a field a kind does not
// use keeps its default. The envelope's `seq` and `boardId` are the caller's: the
// tracker leaves numbering to whoever publishes (the daemon's journal, eboard-replay).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/board/position_snapshot.h"
#include "engine/board/types.h"
#include "engine/clock/clock_events.h"
#include "engine/game/claim_kind.h"
#include "engine/recognize/illegal_analysis.h"

namespace eboard::engine {

enum class GameEventKind : std::uint8_t {
  kGameStarted,
  kMoveTentative,
  kMoveWithdrawn,
  kIllegalMovePending,
  kIllegalMoveCorrected,
  kMoveCompleted,
  kIllegalMoveCompleted,
  kClockPressWithoutMove,
  kRestoreRequested,
  kClock,
  kFlagFell,
  kGameEnded,
  kTouchMoveViolation,
  kSetupIrregular,
  kPositionChanged,
  kIncrementCredited,
  kDelayWindow,
  kPeriodStarted,
  kTimeControlMissed,
  kClockMismatch,
  kSquareChanged,
  // docs/rules.md §0.2 kinds the arbiter emits (engine/arbiter/arbiter*.h).
  kPenalty,
  kClaimAvailable,
  kClaimWindowClosed,
  kClaimReceived,
  kClaimDecided,
  kIllegalMoveStood,
  kTouchMoveObligation,
  kCastlingForbidden,
  kIllegalPosition,
  kDeadPositionSuspected,
  kDrawClaimable,
};

enum class EventVisibility : std::uint8_t { kPublic, kArbiter };  // docs/rules.md D14

enum class CompletionKind : std::uint8_t {
  kClockPress,
  kGameEnd,
  kNextMove,
  kArbiter,
  kOpponentBegan,  // board without a clock: it stood, and the opponent began their move
  kSettled,        // board without a clock: it stood unchanged for the settle time
  kRecovered,      // found on the board after a restart or a reconnect (MoveSource::kRecovered)
};

enum class PressClass : std::uint8_t { kIllegal, kRestartAllowed, kNeedsRuling };  // D6

// Whether an end of the game stands, or is proposed to the arbiter, who confirms or rejects
// it (docs/rules.md §0, the authority rule): gameEnded.proposed.
enum class Finality : std::uint8_t { kFinal, kProposed };
constexpr Finality proposed_if(bool arbiter_decides) {
  return arbiter_decides ? Finality::kProposed : Finality::kFinal;
}

// 6.11: the arbiter stops the clocks, or starts them again.
enum class ClockHold : std::uint8_t { kPause, kResume };

// gameEnded.termination (docs/interfaces.md §4), without the TERMINATION_ prefix.
enum class TerminationKind : std::uint8_t {
  kCheckmate,
  kStalemate,
  kTimeForfeit,
  kTimeoutVsInsufficient,
  kBothFlags,
  kIllegalMove,
  kFivefoldRepetition,
  kSeventyFiveMoves,
  kDeadPosition,
  kAgreement,
  kResignation,
  kArbiter,
  kThreefoldClaim,
  kFiftyMoveClaim,
  kIllegalMoveClaim,
  kIllegalPosition,
  kPenaltyLadder,
};

// The arbiter's event fields (docs/rules.md D1, D5, D8, D10, D11, D13), as in rule_events.proto.
enum class PenaltyKind : std::uint8_t { kWarning, kTimeAdded, kGameLost };
enum class ClaimReason : std::uint8_t {
  kNone,
  kCorrect,
  kIncorrect,
  kNotOnMove,
  kTouched,
  kNoMoveMade,
  kWindowClosed,
  kNotEligible,
  kArbiter,
};
enum class UnwinnabilityNote : std::uint8_t { kNone, kWinnable, kUnwinnable, kUndetermined };
enum class IllegalPositionKind : std::uint8_t { kPawnOnLastRank, kBothKingsInCheck };
enum class CastlingWing : std::uint8_t { kKingSide, kQueenSide, kAll };

// setupIrregular.kind (docs/rules.md D1).
enum class SetupIrregularKind : std::uint8_t {
  kWrongPosition,
  kBoardRotated,
  kKingMisplaced,
  kRookMisplaced
};

struct GameEvent {
  GameEventKind kind = GameEventKind::kGameStarted;
  std::int64_t at_ms = 0;
  EventVisibility visibility = EventVisibility::kPublic;
  std::vector<std::string> articles;  // docs/rules.md / Laws articles the event relies on

  std::optional<Color> side;  // mover, offender, presser, flagged side, ... per kind
  // moveTentative, moveWithdrawn, moveCompleted: the legal move; touchMoveViolation: the
  // move made instead of the touched piece's. Its UCI is written by whoever shows it
  // (daemon/event_mapping.cpp, PGN), from the Move itself.
  Move move;
  // illegalMovePending / illegalMoveCompleted: the square a piece left and the one it
  // reached, kNoSquare when the analysis names none; touchMoveObligation: `from` is the
  // touched piece's square.
  Square from = kNoSquare;
  Square to = kNoSquare;
  // SAN needs the position before the move, which only the tracker holds when it makes
  // the event (a tentative move may follow other pending plies): it is written once,
  // there, rather than carrying a copy of that Position (with its history) to the edge.
  std::string san;
  // After the move; the start position; the position to restore or that stands. Its FEN
  // is written by whoever shows it (daemon/event_mapping.cpp).
  PositionSnapshot position;
  std::string description;
  // The squares that differ, that are misplaced, or a touched piece's legal targets;
  // squareChanged and touchMoveViolation: the one square, first.
  std::vector<Square> squares;
  // claimReceived: the claimant's intended move as given (docs/rules.md D8), echoed as
  // it came: it may name no legal move, which makes the claim incorrect.
  std::string intended_uci;

  // moveTentative / moveCompleted
  int ply = 0;  // moveCompleted: half-move number in the game, from 1
  CompletionKind completion = CompletionKind::kClockPress;
  std::int64_t first_seen_ms = 0;
  bool slid_through = false;
  bool taken_back = false;
  bool piece_missing = false;

  // clocks (moveCompleted, clock, gameStarted)
  std::int64_t white_ms = 0;
  std::int64_t black_ms = 0;
  std::optional<Color> running;  // clock: whose clock runs; empty = nobody
  bool paused = false;
  int white_period = 1;
  int black_period = 1;

  // illegal moves
  IllegalReason reason = IllegalReason::kUnexplained;
  int count = 0;  // illegalMoveCompleted: this player's count so far (D3, D6)
  PressClass classification = PressClass::kIllegal;

  // gameEnded
  std::string result;
  TerminationKind termination = TerminationKind::kArbiter;
  bool proposed = false;

  // gameStarted
  std::string rules;
  std::string time_control;
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::pair<std::string, std::string>> params;

  // clock details (flagFell, periodStarted, incrementCredited, delayWindow,
  // timeControlMissed, clockMismatch)
  int period = 0;
  int moves_completed = 0;
  int moves_required = 0;
  bool first = false;
  std::int64_t amount_ms = 0;                     // increment, delay or period time added
  ClockField clock_field = ClockField::kWhiteMs;  // clockMismatch: which reading disagrees
  std::int64_t clock_value = 0;
  std::int64_t model_value = 0;

  SetupIrregularKind setup_kind = SetupIrregularKind::kWrongPosition;
  std::string piece;  // squareChanged: FEN letter, "" when emptied, "?", "1" "2" "3"

  // The arbiter's kinds (penalty: side = offender, amount_ms = time to the opponent).
  PenaltyKind penalty_kind = PenaltyKind::kWarning;
  bool applied = false;
  ClaimKind claim_kind = ClaimKind::kIllegalMove;
  bool accepted = false;
  bool eligible = false;
  ClaimReason claim_reason = ClaimReason::kNone;
  UnwinnabilityNote unwinnability = UnwinnabilityNote::kNone;  // gameEnded (D10)
  IllegalPositionKind illegal_position_kind = IllegalPositionKind::kPawnOnLastRank;
  CastlingWing wing = CastlingWing::kAll;

  // The authority rule (docs/rules.md §0): an event that opens a decision for the arbiter (a
  // penalty not applied, a proposed gameEnded, a claim and its proposed claimDecided)
  // carries the arbiter's handle of it. Seqs are the publisher's, so the publisher hands
  // each such event back with the seq it assigned (GameTracker::published); `arbiter
  // ruling accept|reject SEQ` then settles that decision. 0: the event opens none.
  std::uint32_t proposal = 0;
  // penalty / gameEnded / claimDecided settling an earlier proposal: the seq of the event
  // that proposed it (0 when the publisher did not say).
  std::uint64_t proposal_seq = 0;
};

using GameEvents = std::vector<GameEvent>;

const char* game_event_kind_name(GameEventKind kind);  // "moveCompleted", ...

}  // namespace eboard::engine
