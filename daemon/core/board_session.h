// One board's game logic in the daemon: what its driver reports goes into its own
// GameTracker, and what the tracker emits leaves as eboard.v1.Events through `publish`
// (the hub numbers, journals and fans them out). No I/O and no clock reads: the link
// (device_link.h) passes `now` as milliseconds on the board's time line, so the whole
// session is testable with chosen timestamps.
//
// Recovery: resume() takes the state folded from the journal and
// restarts the game at the last completed move (move numbers continue; the tracker's own
// gameStarted is not repeated). The first full dump after a (re)connect is then judged
// against the committed position together with the clock's running side
// (recovery.h): moves made while nobody listened are completed as `recovered`; anything
// else publishes restoreRequested and nothing is guessed. The clocks continue from the
// journal's last times (restore_clocks), not from the time control's start; the model's
// per-side move counts restart at 0, so a `by_move_count` period change after a restart
// comes late (known gap). The DGT board's own change log (docs/protocols.md §1.11) is not read:
// the driver decodes a ChangeLog reply but has no request for it, and the read-out blocks
// the port for seconds; the dump and the clock's running side are the evidence.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/core/board_state.h"
#include "drivers/board_spec.h"
#include "drivers/clock_sides.h"
#include "drivers/sensor_event.h"
#include "eboard/v1/command.pb.h"
#include "eboard/v1/frame.pb.h"
#include "engine/arbiter/arbiter.h"
#include "engine/game/game_tracker.h"
#include "engine/rules/rule_set.h"
#include "util/result.h"

namespace eboard::daemon {

using engine::Millis;

// How games on this board are configured (--rules, --clock, --param, a sim script's
// header; a new-game command overrides parts).
struct GameSetup {
  std::string rules{engine::kDefaultRuleSetName};
  std::string clock;  // "" = the rule set's default
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::pair<std::string, std::string>> tags;
  std::string start_fen;  // "" = the standard start position
};

Result<engine::TrackerConfig> make_tracker_config(const GameSetup& setup);

// A sensed piece as the recognizer's square code (unknown pieces: occupied).
engine::SquareCode code_of_piece(drivers::Piece piece);

class BoardSession {
 public:
  using Publish = std::function<std::uint32_t(eboard::v1::Event)>;

  BoardSession(std::string board_id, GameSetup setup, drivers::WhiteSetting white, Publish publish);

  // Continues the journal's game (call before any input): its moves, the arbiter's
  // commands and its open proposals, under their journal seqs, played again in journal
  // order (recovery.h replay_game), and the board's time line goes on from the journal's
  // last atMs (resume_at()). When the game cannot be played again from its start it
  // continues from the last position alone, without the proposals, and resume_warning()
  // then holds one line naming the board and the reason, for the daemon's log
  // (docs/interfaces.md §4 has no event kind for a daemon notice; deviceStatus is the device's);
  // so it does when a journal proposal did not open again (its seqs named). A `white=auto`
  // board keeps the clock side it learned (BoardState::learned_white_side).
  std::optional<Error> resume(const BoardState& journal_state);
  const std::string& resume_warning() const { return resume_warning_; }
  // Where the board's time line starts after resume(): the journal's last atMs when a game
  // continues or a new game answered ok waits for its first input (atMs counts from the
  // game's start, which for a game set up and not started is on the time line it was set
  // up on, docs/interfaces.md §4), else 0. The caller passes times from there on.
  Millis resume_at() const { return resume_at_; }

  // `clock=none` (board spec): the board's clock input is dropped and its games complete
  // moves without presses (docs/clockless.md). With `auto` (the default) a game switches
  // to that when the device reports no clock, and back when a clock reading comes.
  void set_clock_setting(drivers::ClockSetting setting, Millis now);
  // The link was (re)established: the next full dump is checked for missed moves.
  void on_link_up() { begin_sync(SyncCause::kLinkUp); }
  // The driver discarded bytes and asked for a full dump: until it comes the session's
  // picture of the board may be stale, so nothing is judged against it
  // (board_session_sync.cpp).
  void on_resync() { begin_sync(SyncCause::kResync); }
  void on_sensor(const drivers::SensorEvent& event, Millis now);
  // A clock reading, or a press it showed, reported at `now` for a reading that arrived at
  // `read_at` (device_link.h): taken as on_sensor at `read_at`, so that the mover's clock
  // stops where the hardware clock's did, but never before an input the session had
  // already (the tracker's time only goes forward), nor after `now`.
  void on_sensor_read(const drivers::SensorEvent& event, Millis read_at, Millis now);
  void device_status(eboard::v1::DeviceRole role, eboard::v1::DeviceState state,
                     const std::string& detail, Millis now);
  void advance(Millis now);
  std::optional<Millis> next_deadline() const;
  eboard::v1::Ack command(const eboard::v1::Command& command, Millis now);
  // After command(): the seqs of the proposal a ruling settled (CommandApplied.ruled_seqs),
  // empty for any other command.
  const std::vector<std::uint32_t>& ruled_seqs() const { return ruled_seqs_; }

  // The clock's setting after an arbiter's correction (add time, set clock, pause,
  // resume): the model's times on the clock's sides and the side to run, for a hardware
  // clock (the DGT 3000's SETNRUN), whose own times are otherwise authoritative (6.10.1)
  // and would undo the correction at its next report. nullopt without a game.
  std::optional<drivers::ClockSetAndRun> clock_setting(Millis now) const;

  // The decisions of the current game waiting for the arbiter, oldest first, each under
  // the seq a ruling names (eboard-ctl proposals; frame.proto StatusRequest): the engine's
  // own record of them (RulesArbiter::proposals), not a reading of the published events.
  std::vector<eboard::v1::Proposal> open_proposals() const;

  const std::string& board_id() const { return board_id_; }
  bool game_ended() const { return tracker_ && tracker_->ended(); }

 private:
  using Codes = std::array<engine::SquareCode, engine::kSquareCount>;
  // Why a full dump is awaited: after a (re)connect moves may have been made unheard;
  // after a resync the link stayed up, so every press since was heard.
  enum class SyncCause : std::uint8_t { kNone, kLinkUp, kResync };
  // A pending dump that no move sequence explains is given this long (the board may be
  // mid-move, its clock report may be on the way) before a restore is requested.
  static constexpr Millis kDumpJudgeWait{3000};
  void begin_sync(SyncCause cause);
  bool in_game() const;
  // True while presses, placements and clock readings wait for the board's dump.
  bool unsynced() const;
  void held_press(engine::Color presser, Millis now);
  void publish_restore(const Codes& board, Millis now);
  void end_sync(Millis now, Millis judged_at);
  void emit(engine::GameEvents& events);
  std::uint32_t publish_event(eboard::v1::Event event);  // returns its seq
  void placement_seen(const drivers::Placement& placement, Millis now);
  // Decides on the pending dump; an unexplained one waits (the board may be mid-move)
  // until `final`. Returns true when decided.
  bool judge_dump(Millis now, bool final);
  // A pending dump can be judged: the clock has reported after it, or there is no clock.
  bool judgeable() const;
  // The legal moves the tracker last saw standing on the board (its recognizer's chain).
  std::vector<engine::Move> seen_standing() const;
  void complete_recovered(const std::vector<engine::Move>& moves, Millis at);
  void clock_reading(const drivers::ClockReading& reading, Millis now);
  // board_session_clock.cpp: a flag waits for the reading that comes with it, and a
  // forfeit that reading claims against the model's time is proposed, never final.
  void flag_shown(std::optional<engine::Color> side);  // nullopt: both flags
  std::optional<engine::Color> contradicted_forfeit(const engine::ClockReading& reading,
                                                    Millis at) const;
  void give_reading(Millis at, const engine::ClockReading& reading, engine::GameEvents& out);
  void propose_forfeit(engine::Color side, Millis at, engine::GameEvents& out);
  std::array<bool, 2> flags_seen_{};  // by color, since the last reading
  bool forfeit_proposed_ = false;     // for the contradiction that stands
  void clock_presence(engine::ClockPresence presence, Millis now);
  void clock_heard(Millis now);
  // `white=auto` learned White's clock side: published (clockSideLearned) for a restart.
  void side_learned(Millis now);
  void restore_clocks(const eboard::v1::Snapshot& snapshot, Millis now);
  // board_session_resume.cpp: the journal's game played again (resume()). While replay_
  // is set, emit() publishes nothing: what the tracker emits is matched to the journal's
  // events (a proposal gets the seq it was published under) by replayed().
  struct Replay {
    const std::vector<eboard::v1::Event>* history = nullptr;
    std::vector<bool> matched;          // history[i] was emitted again
    std::vector<std::uint32_t> caused;  // seqs a command caused (its replay emits them)
    // What is emitted now was published between these seqs (inclusive) as the journal
    // recorded them: a command's ack seq to its last_seq, a driver input's event up to the
    // journal's next input or command, a re-proposed result its own seq.
    std::uint32_t from_seq = 0;
    std::uint32_t to_seq = 0;
  };
  void replayed(engine::GameEvents& events);
  std::optional<std::size_t> journal_index(const engine::GameEvent& e);
  void replay_other(const eboard::v1::Event& journal, Millis now);
  std::optional<Replay> replay_;
  Millis resume_at_{0};
  std::optional<Error> start_game(const GameSetup& setup, Millis now);
  std::optional<Error> new_game(const eboard::v1::NewGame& command, Millis now);
  void keep_white_side(const eboard::v1::NewGame& command);
  void keep_learned_side(const BoardState& journal_state);
  eboard::v1::Ack run_action(const eboard::v1::Command& command, Millis now);
  // The commands the session carries out itself rather than as an operator action.
  eboard::v1::Ack set_result(const eboard::v1::SetResult& command, Millis now);
  eboard::v1::Ack restore_position(const eboard::v1::RestorePosition& command, Millis now);
  eboard::v1::Ack promotion_choice(const eboard::v1::PromotionChoice& command, Millis now);
  eboard::v1::Ack set_clock(const eboard::v1::SetClock& command, Millis now);

  std::string board_id_;
  GameSetup setup_;
  drivers::ClockSides sides_;
  Publish publish_;
  void new_tracker(engine::TrackerConfig config);
  std::optional<engine::RulesArbiter> arbiter_;  // outlives the tracker that calls it
  std::optional<engine::GameTracker> tracker_;
  std::uint32_t game_id_ = 0;
  std::string rules_name_;
  bool suppress_started_ = false;
  bool resumed_ = false;     // a journal's game continues on a fresh tracker
  bool recovering_ = false;  // feeding moves found by recovery
  bool awaiting_dump_ = false;
  SyncCause sync_cause_ = SyncCause::kNone;
  bool press_held_ = false;                           // a press came while unsynced
  bool restore_published_ = false;                    // for the pending dump
  std::optional<engine::ClockReading> held_reading_;  // the latest while unsynced
  Millis held_reading_at_{0};
  std::optional<Millis> held_press_at_;  // the first press while unsynced
  Millis input_at_{0};                   // the latest time of an input (sensor, timer, command)
  std::optional<Codes> pending_dump_;
  std::optional<Millis> pending_dump_at_;
  std::optional<engine::Color> clock_running_;
  bool clock_known_ = false;
  Codes placement_{};
  bool placement_known_ = false;
  std::uint32_t first_seq_ = 0;            // first seq published during the current command
  std::vector<std::uint32_t> ruled_seqs_;  // the current command's ruling settled these
  // The arbiter's proposals are the engine's (RulesArbiter::proposals): a ruling is checked
  // against them first, so that one naming a settled or withdrawn proposal is refused with
  // the reason instead of an ok that changed nothing; each withdrawal is published as a
  // proposalWithdrawn once the batch that caused it is (a superseding proposal has its seq).
  std::optional<eboard::v1::Ack> check_ruling(const engine::OperatorAction& a) const;
  void publish_withdrawals();
  static std::optional<Millis> game_over_at(const engine::GameEvent& e,
                                            std::optional<Millis> before);
  std::string resume_warning_;
  drivers::ClockSetting clock_setting_ = drivers::ClockSetting::kAuto;
  engine::ClockPresence presence_ = engine::ClockPresence::kConnected;
  // What the clock's deviceStatus last said (DEVICE_STATE_UNSPECIFIED: nothing yet).
  eboard::v1::DeviceState clock_state_ = eboard::v1::DEVICE_STATE_UNSPECIFIED;
};

}  // namespace eboard::daemon
