// The engine's domain events: one GameEvent per fact a GameTracker learns about its game.
// They mirror the kinds of docs/interfaces.md §4 / proto/eboard/v1/event.proto that the
// engine produces, without depending on Protobuf (engine/ links the standard library
// only); daemon/event_mapping.h turns them into eboard.v1.Event.
//
// An event is an envelope (when, who may see it, the articles it relies on) around a body
// that is one struct per kind, held in a std::variant. Each body carries only what its kind
// says, in the engine's own types: Move, Square, Color, the engine's enums, GameResult,
// TimeControl and std::chrono durations. One flat struct with the union of every kind's
// fields left each reader to know which fields its kind set and which kept a default
// (and for which kinds an optional side could be empty); here a reader gets at a kind's
// fields only through that kind (get<Kind>(), std::visit), and a visitor without a
// catch-all that forgets a kind does not compile. Text (UCI, FEN, square names, "1-0",
// the time-control string) is written at the edges: daemon/event_mapping.cpp for the
// wire and the JSON, the PGN recorder, the text view (which reads the wire).
//
// Some strings remain, each for a reason. SAN needs the position before the move, which
// only the tracker holds when it makes the event (a tentative move may follow other
// pending plies): it is written once, there, rather than carrying a copy of that
// Position (with its history) to the edge. A claim's intended move is echoed as the
// claimant gave it (docs/rules.md D8): it may name no legal move. The rule set's name is
// a name, and descriptions are for people.
//
// The envelope's `seq` and `boardId` are the caller's: the tracker leaves numbering to
// whoever publishes (the daemon's journal, eboard-replay).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/board/position_snapshot.h"
#include "engine/board/types.h"
#include "engine/clock/clock_events.h"
#include "engine/game/claim_kind.h"
#include "engine/game/game_result.h"
#include "engine/recognize/illegal_analysis.h"
#include "engine/recognize/sensed_board.h"

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

using Millis = std::chrono::milliseconds;

namespace events {

// Where a recognised move was seen first and what happened on the way (move_recognizer.h
// Provenance): moveTentative and moveCompleted.
struct MoveSighting {
  Millis first_seen{0};
  bool slid_through = false;
  bool taken_back = false;
  bool piece_missing = false;
};

struct GameStarted {
  PositionSnapshot position{};
  std::string rules{};  // the rule set's name
  TimeControl time_control{};
  std::vector<std::pair<std::string, std::string>> tags{};
  std::vector<std::pair<std::string, std::string>> params{};
  Millis white_remaining{0};
  Millis black_remaining{0};
};

struct MoveTentative {
  Color side = kWhite;
  Move move{};
  std::string san{};
  PositionSnapshot position{};  // after the move
  MoveSighting sighting{};
};

struct MoveWithdrawn {
  Color side = kWhite;
  Move move{};
};

struct IllegalMovePending {
  Color side = kWhite;
  IllegalReason reason = IllegalReason::kUnexplained;
  std::string description{};
  // The square a piece left and the one it reached; kNoSquare when the analysis names none.
  Square from = kNoSquare;
  Square to = kNoSquare;
  std::vector<Square> squares{};  // where the board differs from the committed position
};

struct IllegalMoveCorrected {
  Color side = kWhite;
};

struct MoveCompleted {
  int ply = 0;  // half-move number in the game, from 1
  Color side = kWhite;
  Move move{};
  std::string san{};
  PositionSnapshot position{};  // after the move
  Millis white_remaining{0};
  Millis black_remaining{0};
  CompletionKind completion = CompletionKind::kClockPress;
  MoveSighting sighting{};
};

struct IllegalMoveCompleted {
  Color side = kWhite;
  IllegalReason reason = IllegalReason::kUnexplained;
  std::string description{};
  int count = 0;  // this player's count so far (D3, D6)
  Square from = kNoSquare;
  Square to = kNoSquare;
};

struct ClockPressWithoutMove {
  Color side = kWhite;
  PressClass classification = PressClass::kIllegal;
};

struct RestoreRequested {
  PositionSnapshot position{};    // the position to set back
  std::vector<Square> squares{};  // the squares that differ from it
  std::string description{};
};

// The `clock` kind: what a display shows.
struct ClockShown {
  Millis white_remaining{0};
  Millis black_remaining{0};
  std::optional<Color> running{};  // empty: nobody's clock runs
  bool paused = false;
  int white_period = 1;
  int black_period = 1;
};

struct FlagFell {
  Color side = kWhite;
  int period = 0;
  int moves_completed = 0;
  bool first = false;
  std::string description{};
};

struct GameEnded {
  GameResult result = GameResult::kUnfinished;
  TerminationKind termination = TerminationKind::kArbiter;
  Finality finality = Finality::kFinal;
  std::string description{};
  UnwinnabilityNote unwinnability = UnwinnabilityNote::kNone;  // D10
  std::uint32_t proposal = 0;                                  // GameEvent::proposal()
  std::uint64_t proposal_seq = 0;                              // GameEvent::proposal_seq()
};

// Touch move broken (D2, D4): `move` was made instead of one with the piece on `square`.
struct TouchMoveViolation {
  Color side = kWhite;
  Move move{};
  Square square = kNoSquare;
  std::string description{};
};

struct SetupIrregular {
  SetupIrregularKind kind = SetupIrregularKind::kWrongPosition;
  std::vector<Square> squares{};  // the misplaced ones
  std::string description{};
};

struct PositionChanged {
  PositionSnapshot position{};  // the one that stands now
  std::string description{};
};

struct IncrementCredited {
  Color side = kWhite;
  Millis amount{0};
};

struct DelayWindow {
  Color side = kWhite;
  Millis delay{0};
};

struct PeriodStarted {
  Color side = kWhite;
  int period = 0;
  Millis added{0};
};

struct TimeControlMissed {
  Color side = kWhite;
  int period = 0;
  int moves_completed = 0;
  int moves_required = 0;
};

// The hardware clock disagrees with the model. Values as clock_events.h ClockMismatch:
// milliseconds, move counts or the running side, by `field`.
struct ClockMismatch {
  ClockField field = ClockField::kWhiteMs;
  std::int64_t clock_value = 0;
  std::int64_t model_value = 0;
};

// --raw: one sensor change as the board reported it.
struct SquareChanged {
  Square square = kNoSquare;
  SquareCode code = kEmptyCode;
};

struct Penalty {
  Color side = kWhite;  // the offender
  PenaltyKind kind = PenaltyKind::kWarning;
  Millis amount{0};  // time to the opponent
  bool applied = false;
  std::string description{};
  std::uint32_t proposal = 0;
  std::uint64_t proposal_seq = 0;
};

struct ClaimAvailable {
  Color side = kWhite;
  ClaimKind kind = ClaimKind::kIllegalMove;
};

struct ClaimWindowClosed {
  Color side = kWhite;
  ClaimKind kind = ClaimKind::kIllegalMove;
};

struct ClaimReceived {
  Color side = kWhite;
  ClaimKind kind = ClaimKind::kIllegalMove;
  std::string intended_uci{};  // as given (D8); "" when none was
  bool eligible = false;
  std::uint32_t proposal = 0;
};

struct ClaimDecided {
  std::optional<Color> side{};  // empty: nobody's claim (an agreement, 5.2.3)
  ClaimKind kind = ClaimKind::kIllegalMove;
  bool accepted = false;
  Finality finality = Finality::kFinal;
  Millis penalty{0};
  ClaimReason reason = ClaimReason::kNone;
  std::string description{};
  std::uint32_t proposal = 0;
  std::uint64_t proposal_seq = 0;
};

struct IllegalMoveStood {
  Color side = kWhite;
  PositionSnapshot position{};
};

struct TouchMoveObligation {
  Color side = kWhite;
  Square square = kNoSquare;  // the touched piece's
  std::vector<Square> legal_targets{};
  std::string description{};
};

struct CastlingForbidden {
  Color side = kWhite;
  CastlingWing wing = CastlingWing::kAll;
};

struct IllegalPosition {
  IllegalPositionKind kind = IllegalPositionKind::kPawnOnLastRank;
  std::vector<Square> squares{};
  PositionSnapshot position{};
};

struct DeadPositionSuspected {
  PositionSnapshot position{};
  std::string description{};
  std::uint32_t proposal = 0;
};

struct DrawClaimable {
  Color side = kWhite;
  ClaimKind kind = ClaimKind::kThreefold;
};

}  // namespace events

// In GameEventKind's order: GameEvent::kind() is the index.
using GameEventBody = std::variant<
    events::GameStarted, events::MoveTentative, events::MoveWithdrawn, events::IllegalMovePending,
    events::IllegalMoveCorrected, events::MoveCompleted, events::IllegalMoveCompleted,
    events::ClockPressWithoutMove, events::RestoreRequested, events::ClockShown, events::FlagFell,
    events::GameEnded, events::TouchMoveViolation, events::SetupIrregular, events::PositionChanged,
    events::IncrementCredited, events::DelayWindow, events::PeriodStarted,
    events::TimeControlMissed, events::ClockMismatch, events::SquareChanged, events::Penalty,
    events::ClaimAvailable, events::ClaimWindowClosed, events::ClaimReceived, events::ClaimDecided,
    events::IllegalMoveStood, events::TouchMoveObligation, events::CastlingForbidden,
    events::IllegalPosition, events::DeadPositionSuspected, events::DrawClaimable>;
static_assert(std::variant_size_v<GameEventBody> == std::size_t(GameEventKind::kDrawClaimable) + 1);

struct GameEvent {
  GameEvent() = default;
  GameEvent(Millis at_, GameEventBody body_, EventVisibility visibility_ = EventVisibility::kPublic,
            std::vector<std::string> articles_ = {})
      : at(at_), visibility(visibility_), articles(std::move(articles_)), body(std::move(body_)) {}

  Millis at{0};  // since the game's start, the board's time source
  EventVisibility visibility = EventVisibility::kPublic;
  std::vector<std::string> articles;  // docs/rules.md / Laws articles the event relies on
  GameEventBody body;

  GameEventKind kind() const { return GameEventKind(body.index()); }
  template <class Kind>
  const Kind* get() const {
    return std::get_if<Kind>(&body);
  }
  template <class Kind>
  Kind* get() {
    return std::get_if<Kind>(&body);
  }
  template <class Kind>
  bool is() const {
    return std::holds_alternative<Kind>(body);
  }

  // The authority rule (docs/rules.md §0): an event that opens a decision for the arbiter (a
  // penalty not applied, a proposed gameEnded, a claim and its proposed claimDecided, a
  // suspected dead position) carries the arbiter's handle of it. Seqs are the publisher's,
  // so the publisher hands each such event back with the seq it assigned
  // (GameTracker::published); `arbiter ruling accept|reject SEQ` then settles that
  // decision. 0: the event opens none.
  std::uint32_t proposal() const;
  // A penalty, gameEnded or claimDecided settling an earlier proposal: the seq of the event
  // that proposed it (0 when the publisher did not say, or for other kinds).
  std::uint64_t proposal_seq() const;
};

using GameEvents = std::vector<GameEvent>;

const char* game_event_kind_name(GameEventKind kind);  // "moveCompleted", ...

}  // namespace eboard::engine
