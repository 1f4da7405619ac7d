// GameTracker: one board's game. It owns the committed position (through the
// MoveRecognizer), the clock model and the move list, consumes timed sensor input and
// emits domain events (game_event.h).
//
// Time is injected: every call takes `now` (milliseconds since the game's start, the
// board's time source, non-decreasing). The tracker reports its next deadline (debounce,
// restore request, game end on the board, result gesture, flag fall, delay end); the
// caller calls advance() then. Events are appended to `out` in the order they happened;
// `seq` numbering is the caller's (eboard-replay numbers from 1, the daemon journals).
//
// Completion (docs/rules.md D3): a press by the side whose clock runs completes what stands on
// the board, judged against the committed position at that instant: a legal move
// (moveCompleted), an illegal one (illegalMoveCompleted, counted per player), or nothing
// (clockPressWithoutMove, and illegalMoveCompleted too when the rule set treats it as an
// illegal act, D6). A press by the side not on move while its clock runs (after an
// irregular press) is a press without a move. Presses by the side whose clock does not
// run are ignored (D3). Checkmate and stalemate complete without a press after
// `game_end_stable` (D2, D7, 6.2.1.1). Everything the rule set decides beyond that goes
// through the Arbiter (arbiter_seam.h), whose decisions the tracker applies.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/board/position.h"
#include "engine/clock/clock_model.h"
#include "engine/game/arbiter_seam.h"
#include "engine/game/game_event.h"
#include "engine/game/operator_action.h"
#include "engine/recognize/move_recognizer.h"
#include "engine/rules/rule_set.h"

namespace eboard::engine {

// Whether a clock reaches the tracker (docs/clockless.md). Without one no press comes:
// the board completes moves (ClocklessCompletion), and the clock model keeps no time.
enum class ClockPresence : std::uint8_t { kConnected, kNone };

struct TrackerConfig {
  RuleSet rules;  // with any `param` overrides already applied
  TimeControl time_control;
  Position start;                                           // the committed position at the start
  std::vector<std::pair<std::string, std::string>> tags;    // reported in gameStarted
  std::vector<std::pair<std::string, std::string>> params;  // reported in gameStarted
  SensingMode sensing = SensingMode::kAuto;
  bool report_square_changes = false;  // emit squareChanged per sensor change (--raw)
  ClockPresence clock = ClockPresence::kConnected;
  // Plies of this game completed before `start` (a game resumed from its last position
  // alone, when its journal could not be played again): moveCompleted.ply counts on from
  // them. A new game after an annulment counts from 1 again.
  int plies_before = 0;
};

// Where the moves the tracker completes come from: the players at the board, or recovery
// (daemon/core/recovery.h), which shows the tracker the moves found on the board after a
// restart or a reconnect and presses for them; those complete as kRecovered.
enum class MoveSource : std::uint8_t { kPlayers, kRecovered };

// One completed move of the game, for the move list and PGN (docs/interfaces.md §5).
struct CompletedMove {
  Move move;
  Color side;
  Millis at;
  Millis remaining;  // the mover's clock right after completion
};

class GameTracker {
 public:
  explicit GameTracker(TrackerConfig config, Arbiter* arbiter = nullptr);

  // Sensor input. Squares are the board's own numbering (the recognizer maps a board
  // set up turned round). A lift is square(now, s, kEmptyCode).
  void placement(Millis now, const std::array<SquareCode, kSquareCount>& codes, GameEvents& out);
  void square(Millis now, Square s, SquareCode code, GameEvents& out);
  void lever(Millis now, Color side, GameEvents& out);
  void clock_reading(Millis now, const ClockReading& reading, GameEvents& out);
  void flag(Millis now, Color side, GameEvents& out);  // the hardware clock shows a flag
  // Both flags are down and which fell first is unknown (docs/rules.md D10, III.3.1): not two
  // flags in some order; the arbiter applies the set's `both_flags`.
  void both_flags(Millis now, GameEvents& out);
  void operator_action(Millis now, const OperatorAction& action, GameEvents& out);
  // The publisher assigned `seq` to `event` (one of this tracker's): call it for every
  // event with a `proposal`, so that a ruling naming that seq finds the decision.
  void published(const GameEvent& event, std::uint64_t seq);
  // A result the arbiter is to confirm, opened again from a journal (daemon/core/
  // recovery.h): the proposed gameEnded as the board's result pieces made it.
  void propose_result(Millis now, GameResult result, TerminationKind termination,
                      const std::string& description, GameEvents& out);
  // The operator names the piece a pawn becomes where the board cannot sense it
  // (occupancy-only boards, docs/protocols.md §10; docs/interfaces.md §3 `promote`): the promotion
  // standing on the board is re-matched at once, else the next one uses it; back to a
  // queen after a promotion completes (MoveRecognizer::set_promotion_choice). Board
  // input, not an arbiter matter: it does not go through the Arbiter's on_operator.
  void promotion_choice(Millis now, PieceType piece, GameEvents& out);
  // The board's clock went away or came (a device report, board_session.h). Without a
  // clock the clock model is paused; when one comes its running side is the side to move
  // and its first reading sets the times.
  void set_clock_presence(Millis now, ClockPresence presence, GameEvents& out);
  ClockPresence clock_presence() const { return presence_; }
  // Catch up with time: call at next_deadline().
  void advance(Millis now, GameEvents& out);
  std::optional<Millis> next_deadline() const;
  // The deadlines of what stands on the board (the recognizer's and the arbiter's), not the
  // clock's: eboard-replay settles these after a script's last line.
  std::optional<Millis> next_board_deadline() const;

  // --- commands from outside the rules ------------------------------------------------
  // The daemon's operator commands (a result set, a position restored, the clocks set, the
  // pause a resumed journal had) and recovery (the position and the moves found on the
  // board) act on the game directly. The Arbiter does not call these: it returns its
  // decisions (arbiter_decision.h) and the tracker applies them.
  void end_game(Millis now, GameResult result, TerminationKind termination, Finality finality,
                const std::string& description, GameEvents& out);
  // Sets the committed position and emits positionChanged.
  void replace_committed(Millis now, const Position& pos, const std::string& description,
                         GameEvents& out);
  void adjust_clock(Millis now, Color side, Millis delta, GameEvents& out);
  // 6.11: the clocks stop or start again.
  void pause_clock(Millis now, ClockHold hold, GameEvents& out);
  // Where the moves completed from now on come from (kPlayers until told otherwise).
  void set_move_source(MoveSource source) { move_source_ = source; }

  // --- queries ---------------------------------------------------------------------
  bool started() const { return started_; }
  bool ended() const { return ended_; }
  GameResult result() const { return result_; }
  const Position& committed() const { return recognizer_.committed(); }
  const MoveRecognizer& recognizer() const { return recognizer_; }
  const ClockModel& clock() const { return clock_; }
  const RuleSet& rules() const { return config_.rules; }
  const TrackerConfig& config() const { return config_; }
  const std::vector<CompletedMove>& moves() const { return moves_; }
  int illegal_count(Color side) const { return illegal_counts_[side]; }
  int moves_completed(Color side) const { return moves_completed_[side]; }
  EventVisibility irregularity_visibility() const;

 private:
  void ensure_started(Millis now, GameEvents& out);
  void begin_new_game();
  // Turns the reports of one call of the recognizer into domain events. Completing a move
  // or applying a decision calls the recognizer again, with reports of its own.
  void translate(const RecognizerEvents& in, GameEvents& out);
  void complete_move(Millis now, const PressVerdict& verdict, CompletionKind how, GameEvents& out);
  void complete_illegal(Millis now, Color side, const IllegalAnalysis& analysis, GameEvents& out);
  void press_without_move(Millis now, Color side, GameEvents& out);
  void clock_events(const std::vector<ClockEvent>& in, GameEvents& out);
  void clock_update(Millis now, GameEvents& out);
  // The arbiter's decisions (arbiter_decision.h), applied in order at `now`.
  void apply(Millis now, const ArbiterDecisions& decisions, GameEvents& out);
  void apply(Millis now, const ArbiterReport& d, GameEvents& out);
  void apply(Millis now, const EndGame& d, GameEvents& out);
  void apply(Millis now, const AnnulGame& d, GameEvents& out);
  void apply(Millis now, const SetCommitted& d, GameEvents& out);
  void apply(Millis now, const AdjustClock& d, GameEvents& out);
  void apply(Millis now, const CompletePending& d, GameEvents& out);
  void apply(Millis now, const HoldClock& d, GameEvents& out);
  // The arbiter's view of what a sensor change caused: out[first..].
  void board_changed(Millis now, std::size_t first, GameEvents& out);
  events::FlagFell flag_fell(Color side) const;  // `first` left to the caller

  TrackerConfig config_;
  Arbiter default_arbiter_;
  Arbiter* arbiter_;
  MoveRecognizer recognizer_;
  ClockModel clock_;
  std::vector<CompletedMove> moves_;
  std::array<int, 2> illegal_counts_{};
  std::array<int, 2> moves_completed_{};
  // The period in which each side's flag was last reported (0: never). A flag is down
  // only in that period: after III.3.1.1 lets play continue, reaching the next period
  // gives the side time again, and a fall there is a new flag.
  std::array<int, 2> flag_period_{};
  bool flag_down(Color side) const { return flag_period_[side] == clock_.period(side); }
  std::array<std::int64_t, 2> shown_seconds_{-1, -1};  // in the last `clock` event
  std::array<SquareCode, kSquareCount> raw_{};         // the board's last report, for --raw
  bool started_ = false;
  bool ended_ = false;
  GameResult result_ = GameResult::kUnfinished;
  std::optional<Position> next_start_;  // set by AnnulGame: a new game follows
  ClockPresence presence_ = ClockPresence::kConnected;
  bool arbiter_paused_ = false;  // 6.11 pause_clock, kept apart from a missing clock
  MoveSource move_source_ = MoveSource::kPlayers;
};

}  // namespace eboard::engine
