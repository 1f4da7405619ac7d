// BoardSession: judging only a synchronised board. Whenever the session's picture of the
// board may be stale - after a (re)connect or a restart, after the driver discarded bytes
// (DgtDriver requests a full dump then and holds field updates back) - presses,
// placements and clock readings wait for the dump, and the dump is judged against the
// committed position with the clock's running side (engine/recognize/missed_moves.h):
//   - exactly the legal moves made meanwhile: they are completed (as `recovered`);
//   - those and one more of the player whose clock still runs: that last one is a move
//     waiting for its press, left standing on the board for it, and the others are
//     completed;
//   - the committed position: nothing happened that can be judged; a press that came
//     meanwhile is not charged (a fault must never produce a ruling: the press may be
//     one the corrupted stream invented, and it cannot be told from a real one);
//   - anything else: the session waits (the board may be mid-move) up to kDumpJudgeWait,
//     then publishes restoreRequested once and keeps waiting, charging nothing, until
//     the board shows the committed position or moves that explain it.
// A pending dump is not judged while a newer one is awaited (bytes lost again): the
// driver holds back the field updates made after the older one, so it may show a move
// half made.
// A resync with no press meanwhile needs no judgement once the clock has reported after
// the dump: every press was heard, so nothing was completed in the gap, and the dump (with
// the changes since) is simply the board as it stands. Until that report a press may
// still be on its way - the driver holds a reading with a press until a second confirms
// it (clock_gate.h), and lost bytes may have held one, which the clock's next reading
// shows - and a dump that already shows the next player's hand at work would turn it
// into an illegal move; a press that comes is judged against the dump like any other.
// A board without a clock has no presses and no clock to agree: its dump is judged at
// once, against the one shortest sequence of moves alone (docs/clockless.md), and after
// lost bytes one that stays unexplained for the wait is shown to the game as it stands.
#include <algorithm>

#include "daemon/core/board_session.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/recognize/missed_moves.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::Color;

std::array<engine::SquareCode, engine::kSquareCount> codes_of(const engine::Position& pos) {
  std::array<engine::SquareCode, engine::kSquareCount> codes{};
  for (int s = 0; s < engine::kSquareCount; ++s) {
    codes[s] = engine::SquareCode(pos.piece_on(engine::Square(s)));
  }
  return codes;
}

}  // namespace

void BoardSession::begin_sync(SyncCause cause) {
  awaiting_dump_ = true;
  // A (re)connect's judgement (moves may have gone unheard) is not narrowed by a resync.
  if (sync_cause_ != SyncCause::kLinkUp) sync_cause_ = cause;
}

bool BoardSession::in_game() const {
  return resumed_ || (tracker_->started() && !tracker_->ended());
}

bool BoardSession::unsynced() const {
  return pending_dump_.has_value() || (awaiting_dump_ && in_game());
}

// The press says whose clock runs now; it is not judged on its own (a move it completed
// is found when the dump is judged).
void BoardSession::held_press(Color presser, Millis now) {
  clock_running_ = Color(1 - presser);
  clock_known_ = true;
  press_held_ = true;
  if (!held_press_at_) held_press_at_ = now;
  if (pending_dump_) judge_dump(now, false);
}

void BoardSession::placement_seen(const drivers::Placement& placement, Millis now) {
  for (int s = 0; s < engine::kSquareCount; ++s) placement_[s] = code_of_piece(placement[s]);
  placement_known_ = true;
  if (awaiting_dump_ && in_game()) {
    awaiting_dump_ = false;
    if (sync_cause_ == SyncCause::kResync && !press_held_ &&
        presence_ != engine::ClockPresence::kNone) {
      clock_known_ = false;  // a press may be on its way: wait for the clock's next report
    }
    pending_dump_ = placement_;
    // The wait for an explanation runs from the stretch's first dump: a resync meanwhile
    // (bytes lost again) does not start it over, or a line that keeps losing bytes would
    // hold the game for good and never ask for the restore.
    if (!pending_dump_at_) pending_dump_at_ = now;
    // After a (re)connect, wait for a clock report made after this dump.
    if (sync_cause_ == SyncCause::kLinkUp) clock_known_ = false;
    if (judgeable()) judge_dump(now, false);
    return;
  }
  awaiting_dump_ = false;
  if (!pending_dump_) sync_cause_ = SyncCause::kNone;  // no game to judge
  if (pending_dump_) {
    pending_dump_ = placement_;
    if (judgeable()) judge_dump(now, false);
    return;
  }
  engine::GameEvents out;
  tracker_->placement(now, placement_, out);
  emit(out);
}

void BoardSession::clock_reading(const drivers::ClockReading& reading, Millis now) {
  // A clock plugged in mid-game: presses complete moves again from now on.
  if (presence_ == engine::ClockPresence::kNone)
    clock_presence(engine::ClockPresence::kConnected, now);
  const bool side_known = sides_.decided();
  // The clock that runs is the side to move's: White's at the start (6.6), Black's once
  // White's first press came before the first reading did.
  sides_.observe(reading, tracker_->committed().side_to_move() == engine::kWhite
                              ? drivers::ClockSides::Running::kWhite
                              : drivers::ClockSides::Running::kBlack);
  if (!side_known && sides_.decided()) side_learned(now);
  const bool white_left = sides_.white_side() == drivers::ClockSide::kLeft;
  engine::ClockReading r;
  r.white = white_left ? reading.left : reading.right;
  r.black = white_left ? reading.right : reading.left;
  r.running_known = true;
  if (reading.running && reading.turn) {
    r.running = sides_.is_white(*reading.turn) ? engine::kWhite : engine::kBlack;
  }
  clock_running_ = r.running;
  clock_known_ = true;
  if (unsynced()) {
    held_reading_ = r;  // given to the tracker once the board is judged (end_sync)
    held_reading_at_ = now;
    if (pending_dump_) judge_dump(now, false);
    return;
  }
  engine::GameEvents out;
  give_reading(now, r, out);
  emit(out);
}

bool BoardSession::judge_dump(Millis now, bool final) {
  // Bytes were lost since this dump was taken and a newer one is on its way: the driver
  // holds back the field updates that came in between, so this one may show a move half
  // made (a castling rook on f1, its king still on e1), which a press would complete.
  if (awaiting_dump_) return false;
  const bool clockless = presence_ == engine::ClockPresence::kNone;
  if (sync_cause_ == SyncCause::kResync && !press_held_ && !clockless) {
    // The clock reported after the dump (or its wait ran out) and no press came: every
    // press was heard, nothing was completed in the gap, the board is as it stands.
    pending_dump_.reset();
    pending_dump_at_.reset();
    end_sync(now, Millis{0});
    return true;
  }
  const Codes board = *pending_dump_;
  engine::MissedMoves missed =
      clockless
          ? engine::find_missed_moves_without_clock(tracker_->committed(), board, seen_standing())
          : engine::find_missed_moves(tracker_->committed(), board,
                                      clock_known_ ? clock_running_ : std::nullopt);
  if (missed.verdict == engine::MissedMoves::Verdict::kUnexplained && !clockless && clock_known_ &&
      clock_running_) {
    // The clock runs for the player whose move stands last: that move waits for its press,
    // as any move between its release and its press does. The moves before it (the clock
    // agrees with them) were completed meanwhile; it is left standing for its press.
    missed = engine::find_missed_moves(tracker_->committed(), board, Color(1 - *clock_running_));
    if (missed.verdict == engine::MissedMoves::Verdict::kMoves) {
      missed.moves.pop_back();
      if (missed.moves.empty()) missed.verdict = engine::MissedMoves::Verdict::kUnchanged;
    }
  }
  if (missed.verdict == engine::MissedMoves::Verdict::kUnexplained && final && clockless &&
      sync_cause_ == SyncCause::kResync) {
    // Bytes lost on a board without a clock, and the board still no sequence of moves: a
    // move in progress all this time (a piece held), which the game judges as it stands.
    pending_dump_.reset();
    pending_dump_at_.reset();
    end_sync(now, now);
    return true;
  }
  if (missed.verdict == engine::MissedMoves::Verdict::kUnexplained) {
    if (final) pending_dump_at_.reset();  // judged once when the wait runs out
    if (final && !restore_published_) {
      restore_published_ = true;
      publish_restore(board, now);
    }
    return false;
  }
  pending_dump_.reset();
  pending_dump_at_.reset();
  resumed_ = false;
  // Moves a press completed while unsynced are completed at that press, so that the
  // clock model charges the mover only the time until it (the tracker's time stood still).
  const Millis at = held_press_at_.value_or(now);
  if (missed.verdict == engine::MissedMoves::Verdict::kMoves) complete_recovered(missed.moves, at);
  end_sync(now, at);
  return true;
}

std::vector<engine::Move> BoardSession::seen_standing() const {
  std::vector<engine::Move> seen;
  const engine::MoveRecognizer& r = tracker_->recognizer();
  for (int i = 0; i < r.pending_count(); ++i) seen.push_back(r.pending(i));
  return seen;
}

bool BoardSession::judgeable() const {
  return clock_known_ || presence_ == engine::ClockPresence::kNone;
}

// The moves a dump shows were made meanwhile, completed as `recovered` at `at`: each is
// shown to the tracker as its placement and its press. Without a clock there are no
// presses: each placement completes the move before it (its opponent began), and the last
// move stands on the board, where the clockless completion judges it like any other (it
// may still be taken back, or be a piece put down on its way).
void BoardSession::complete_recovered(const std::vector<engine::Move>& moves, Millis at) {
  const bool presses = presence_ != engine::ClockPresence::kNone;
  engine::GameEvents out;
  engine::Position pos = tracker_->committed();
  recovering_ = true;
  tracker_->set_move_source(engine::MoveSource::kRecovered);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Color mover = pos.side_to_move();
    pos.make(moves[i]);
    // The move left standing is published as standing (moveTentative), as any is.
    if (!presses && i + 1 == moves.size()) recovering_ = false;
    tracker_->placement(at, codes_of(pos), out);
    if (presses) tracker_->lever(at, mover, out);
    emit(out);
  }
  tracker_->set_move_source(engine::MoveSource::kPlayers);
  recovering_ = false;
}

// The board is synchronised: the tracker gets the board as it stands and the clock's
// latest report, and presses are judged again as they come.
// The clock's latest report is given at the time it came (not before `judged_at`, the
// time the tracker has reached).
void BoardSession::end_sync(Millis now, Millis judged_at) {
  sync_cause_ = SyncCause::kNone;
  press_held_ = false;
  held_press_at_.reset();
  restore_published_ = false;
  engine::GameEvents out;
  if (held_reading_) {
    give_reading(std::max(held_reading_at_, judged_at), *held_reading_, out);
  }
  held_reading_.reset();
  tracker_->placement(now, placement_, out);
  emit(out);
}

void BoardSession::publish_restore(const Codes& board, Millis now) {
  v1::Event event;
  event.set_at_ms(static_cast<std::int32_t>(now.count()));
  event.set_visibility(v1::VISIBILITY_PUBLIC);
  event.set_game_id(game_id_);
  event.set_rules(rules_name_);
  const engine::Position& committed = tracker_->committed();
  event.mutable_restore_requested()->set_fen(engine::to_fen(committed));
  for (int s = 0; s < engine::kSquareCount; ++s) {
    if (engine::SquareCode(committed.piece_on(engine::Square(s))) != board[s]) {
      event.mutable_restore_requested()->add_squares(engine::square_name(engine::Square(s)));
    }
  }
  publish_event(std::move(event));
}

}  // namespace eboard::daemon
