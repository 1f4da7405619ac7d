#include "daemon/core/board_session.h"

#include <algorithm>

#include "daemon/core/recovery.h"
#include "daemon/event_mapping.h"
#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::Color;

// A full dump whose clock report does not come within this time is judged without it.
constexpr Millis kDumpJudgeWait{3000};

engine::SquareCode code_of(drivers::Piece piece) {
  if (piece == drivers::Piece::kEmpty) return engine::kEmptyCode;
  const engine::SquareCode code = engine::square_code_from_char(drivers::piece_letter(piece));
  return code == engine::kNoCode ? engine::kOccupiedCode : code;
}

std::array<engine::SquareCode, engine::kSquareCount> codes_of(const engine::Position& pos) {
  std::array<engine::SquareCode, engine::kSquareCount> codes{};
  for (int s = 0; s < engine::kSquareCount; ++s) {
    codes[s] = engine::SquareCode(pos.piece_on(engine::Square(s)));
  }
  return codes;
}

}  // namespace

Result<engine::TrackerConfig> make_tracker_config(const GameSetup& setup) {
  auto rules = engine::rule_set_by_name(setup.rules.empty() ? "fide-standard" : setup.rules);
  if (!rules) return Error{"rules: " + rules.error()};
  engine::TrackerConfig config;
  config.rules = rules.value();
  for (const auto& [name, value] : setup.params) {
    if (auto error = engine::apply_param(config.rules, name, value)) {
      return Error{"param " + name + ": " + error->message};
    }
  }
  auto control =
      engine::parse_time_control(setup.clock.empty() ? config.rules.default_clock : setup.clock);
  if (!control) return Error{"time control: " + control.error()};
  config.time_control = control.value();
  auto start = engine::parse_fen(setup.start_fen.empty() ? engine::kStartFen : setup.start_fen);
  if (!start) return Error{"start fen: " + start.error()};
  config.start = start.value();
  config.tags = setup.tags;
  config.params = setup.params;
  return config;
}

BoardSession::BoardSession(std::string board_id, GameSetup setup, drivers::WhiteSetting white,
                           Publish publish)
    : board_id_(std::move(board_id)),
      setup_(std::move(setup)),
      sides_(white),
      publish_(std::move(publish)) {
  auto config = make_tracker_config(setup_);
  // The configuration was validated at start-up; a failure here is a programming error.
  if (config) {
    rules_name_ = config->rules.name;
    new_tracker(std::move(config).value());
  }
}

// Each game gets a fresh arbiter (rules.md D1-D14: ladders, windows and proposals belong to
// one game); the old tracker, which points at the old arbiter, goes first.
void BoardSession::new_tracker(engine::TrackerConfig config) {
  tracker_.reset();
  proposals_.clear();
  arbiter_.emplace();
  config.clock = presence_;
  tracker_.emplace(std::move(config), &*arbiter_);
}

void BoardSession::set_clock_setting(drivers::ClockSetting setting, Millis now) {
  clock_setting_ = setting;
  if (setting == drivers::ClockSetting::kNone) clock_presence(engine::ClockPresence::kNone, now);
}

// A game's completion follows the clock's presence (GameTracker::set_clock_presence).
void BoardSession::clock_presence(engine::ClockPresence presence, Millis now) {
  presence_ = presence;
  if (!tracker_) return;
  engine::GameEvents out;
  tracker_->set_clock_presence(now, presence, out);
  emit(out);
}

std::uint32_t BoardSession::publish_event(v1::Event event) {
  const std::uint32_t seq = publish_(std::move(event));
  if (first_seq_ == 0) first_seq_ = seq;
  return seq;
}

void BoardSession::emit(engine::GameEvents& events) {
  if (replay_) return replayed(events);  // the journal has them already
  for (const engine::GameEvent& e : events) {
    if (e.kind == engine::GameEventKind::kGameStarted) {
      if (suppress_started_) {
        suppress_started_ = false;
        continue;
      }
      ++game_id_;
      ply_offset_ = 0;  // a new game after an annulled one (GameTracker::annul) counts from 1
    }
    if (recovering_ && (e.kind == engine::GameEventKind::kMoveTentative ||
                        e.kind == engine::GameEventKind::kMoveWithdrawn)) {
      continue;
    }
    v1::Event event = to_proto(e, EventEnvelope{board_id_, 0, game_id_, rules_name_});
    if (event.has_move_completed()) {
      v1::MoveCompleted* m = event.mutable_move_completed();
      m->set_ply(m->ply() + static_cast<std::uint32_t>(ply_offset_));
      if (recovering_) {
        m->set_completion(v1::COMPLETION_RECOVERED);
        m->set_recovered(true);
      }
    }
    const std::uint32_t seq = publish_event(std::move(event));
    // A ruling names a proposal by this seq (`Ruling.seq`): the arbiter learns it here.
    if (e.proposal != 0) tracker_->published(e, seq);
    note_proposal(e, seq);
  }
  events.clear();
}

void BoardSession::device_status(v1::DeviceRole role, v1::DeviceState state,
                                 const std::string& detail, Millis now) {
  v1::Event event;
  event.set_at_ms(static_cast<std::int32_t>(now.count()));
  event.set_visibility(v1::VISIBILITY_PUBLIC);
  event.set_game_id(game_id_);
  event.set_rules(rules_name_);
  v1::DeviceStatus* status = event.mutable_device_status();
  status->set_role(role);
  status->set_state(state);
  status->set_detail(detail);
  publish_event(std::move(event));
}

void BoardSession::on_sensor(const drivers::SensorEvent& sensor, Millis now) {
  if (!tracker_) return;
  // No clock reaches a clock=none board: what the device says of one is dropped.
  const bool clock_input = std::holds_alternative<drivers::ClockReading>(sensor) ||
                           std::holds_alternative<drivers::LeverPressed>(sensor) ||
                           std::holds_alternative<drivers::FlagShown>(sensor) ||
                           std::holds_alternative<drivers::BothFlagsShown>(sensor);
  if (clock_input && clock_setting_ == drivers::ClockSetting::kNone) return;
  engine::GameEvents out;
  if (const auto* seen = std::get_if<drivers::PlacementSeen>(&sensor)) {
    placement_seen(seen->placement, now);
  } else if (const auto* change = std::get_if<drivers::SquareChanged>(&sensor)) {
    placement_[change->square] = code_of(change->piece);
    placement_known_ = true;
    if (pending_dump_) {
      (*pending_dump_)[change->square] = code_of(change->piece);
      if (clock_known_) judge_dump(now, false);
    } else {
      tracker_->square(now, engine::Square(change->square), code_of(change->piece), out);
    }
  } else if (const auto* reading = std::get_if<drivers::ClockReading>(&sensor)) {
    clock_reading(*reading, now);
  } else if (const auto* lever = std::get_if<drivers::LeverPressed>(&sensor)) {
    const Color presser = sides_.is_white(lever->side) ? engine::kWhite : engine::kBlack;
    if (pending_dump_) {
      // The press says whose clock runs now; while the board is being judged the press
      // itself is not a move of its own (a move it completed is found by the judgement).
      clock_running_ = Color(1 - presser);
      clock_known_ = true;
      judge_dump(now, false);
    } else {
      tracker_->lever(now, presser, out);
    }
  } else if (const auto* flag = std::get_if<drivers::FlagShown>(&sensor)) {
    tracker_->flag(now, sides_.is_white(flag->side) ? engine::kWhite : engine::kBlack, out);
  } else if (std::holds_alternative<drivers::BothFlagsShown>(sensor)) {
    tracker_->both_flags(now, out);
  } else if (std::holds_alternative<drivers::ClockAbsent>(sensor)) {
    clock_known_ = true;
    clock_running_.reset();
    device_status(v1::DEVICE_ROLE_CLOCK, v1::DEVICE_STATE_ABSENT, "the board reports no clock",
                  now);
    clock_presence(engine::ClockPresence::kNone, now);
    if (pending_dump_) judge_dump(now, false);
  }
  emit(out);
}

void BoardSession::placement_seen(const drivers::Placement& placement, Millis now) {
  for (int s = 0; s < engine::kSquareCount; ++s) placement_[s] = code_of(placement[s]);
  placement_known_ = true;
  const bool game_running = resumed_ || (tracker_->started() && !tracker_->ended());
  if (awaiting_dump_ && game_running) {
    awaiting_dump_ = false;
    pending_dump_ = placement_;
    pending_dump_at_ = now;
    clock_known_ = false;  // wait for a report made after this dump
    return;
  }
  awaiting_dump_ = false;
  if (pending_dump_) {
    pending_dump_ = placement_;
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
  sides_.observe(reading);
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
  if (pending_dump_ && !judge_dump(now, false)) return;
  engine::GameEvents out;
  tracker_->clock_reading(now, r, out);
  emit(out);
}

bool BoardSession::judge_dump(Millis now, bool final) {
  const Codes board = *pending_dump_;
  const MissedMoves missed =
      find_missed_moves(tracker_->committed(), board, clock_known_ ? clock_running_ : std::nullopt);
  if (missed.verdict == MissedMoves::Verdict::kUnexplained && !final) return false;
  pending_dump_.reset();
  pending_dump_at_.reset();
  resumed_ = false;
  engine::GameEvents out;
  if (missed.verdict == MissedMoves::Verdict::kMoves) {
    engine::Position pos = tracker_->committed();
    recovering_ = true;
    for (const engine::Move m : missed.moves) {
      const Color mover = pos.side_to_move();
      pos.make(m);
      tracker_->placement(now, codes_of(pos), out);
      tracker_->lever(now, mover, out);
      emit(out);
    }
    recovering_ = false;
  } else if (missed.verdict == MissedMoves::Verdict::kUnexplained) {
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
  tracker_->placement(now, board, out);
  emit(out);
  return true;
}

void BoardSession::advance(Millis now) {
  if (!tracker_) return;
  if (pending_dump_ && pending_dump_at_ && now - *pending_dump_at_ >= kDumpJudgeWait) {
    judge_dump(now, true);
  }
  engine::GameEvents out;
  tracker_->advance(now, out);
  emit(out);
}

std::optional<Millis> BoardSession::next_deadline() const {
  std::optional<Millis> deadline = tracker_ ? tracker_->next_deadline() : std::nullopt;
  if (pending_dump_at_) {
    const Millis judge = *pending_dump_at_ + kDumpJudgeWait;
    if (!deadline || judge < *deadline) deadline = judge;
  }
  return deadline;
}

std::optional<Error> BoardSession::start_game(const GameSetup& setup, Millis now) {
  auto config = make_tracker_config(setup);
  if (!config) return Error{config.error()};
  rules_name_ = config->rules.name;
  new_tracker(std::move(config).value());
  sides_.reset();
  ply_offset_ = 0;
  suppress_started_ = false;
  resumed_ = false;
  pending_dump_.reset();
  pending_dump_at_.reset();
  if (placement_known_) {
    engine::GameEvents out;
    tracker_->placement(now, placement_, out);
    emit(out);
  }
  return std::nullopt;
}

}  // namespace eboard::daemon
