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

}  // namespace

engine::SquareCode code_of_piece(drivers::Piece piece) {
  if (piece == drivers::Piece::kEmpty) return engine::kEmptyCode;
  const engine::SquareCode code = engine::square_code_from_char(drivers::piece_letter(piece));
  return code == engine::kNoCode ? engine::kOccupiedCode : code;
}

Result<engine::TrackerConfig> make_tracker_config(const GameSetup& setup) {
  auto rules =
      engine::rule_set_by_name(setup.rules.empty() ? engine::kDefaultRuleSetName : setup.rules);
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

// Each game gets a fresh arbiter (docs/rules.md D1-D14: ladders, windows and proposals belong to
// one game); the old tracker, which points at the old arbiter, goes first.
void BoardSession::new_tracker(engine::TrackerConfig config) {
  tracker_.reset();
  arbiter_.emplace();
  config.clock = presence_;
  tracker_.emplace(std::move(config), &*arbiter_);
}

void BoardSession::set_clock_setting(drivers::ClockSetting setting, Millis now) {
  input_at_ = std::max(input_at_, now);
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
  // A dump waiting for the clock's next report is judged without it.
  if (presence == engine::ClockPresence::kNone && pending_dump_ && !awaiting_dump_) {
    judge_dump(now, false);
  }
}

std::uint32_t BoardSession::publish_event(v1::Event event) {
  const std::uint32_t seq = publish_(std::move(event));
  if (first_seq_ == 0) first_seq_ = seq;
  return seq;
}

void BoardSession::emit(engine::GameEvents& events) {
  if (replay_) return replayed(events);  // the journal has them already
  std::optional<Millis> ended_at;
  for (const engine::GameEvent& e : events) {
    if (e.is<engine::events::GameStarted>()) {
      if (suppress_started_) {
        suppress_started_ = false;
        continue;
      }
      ++game_id_;
    }
    if (recovering_ &&
        (e.is<engine::events::MoveTentative>() || e.is<engine::events::MoveWithdrawn>())) {
      continue;
    }
    const std::uint32_t seq =
        publish_event(to_proto(e, EventEnvelope{board_id_, 0, game_id_, rules_name_}));
    // A ruling names a proposal by this seq (`Ruling.seq`): the arbiter learns it here.
    if (e.proposal() != 0) tracker_->published(e, seq);
    ended_at = game_over_at(e, ended_at);
  }
  events.clear();
  if (ended_at) arbiter_->game_over(*ended_at);
  publish_withdrawals();
}

// A final gameEnded, whichever part of the engine ended the game (the tracker's checkmate,
// the arbiter's set result): nothing is left open for the arbiter after it.
std::optional<Millis> BoardSession::game_over_at(const engine::GameEvent& e,
                                                 std::optional<Millis> before) {
  const auto* ended = e.get<engine::events::GameEnded>();
  if (ended && ended->finality == engine::Finality::kFinal) return e.at;
  return before;
}

// The clock speaks through the board (a DGT 3000 on the board's cable): its first reading
// says that it is there, and once the board's link is down it is not heard either.
void BoardSession::clock_heard(Millis now) {
  if (clock_state_ == v1::DEVICE_STATE_CONNECTED) return;
  clock_state_ = v1::DEVICE_STATE_CONNECTED;
  device_status(v1::DEVICE_ROLE_CLOCK, v1::DEVICE_STATE_CONNECTED, "the clock reports its times",
                now);
}

void BoardSession::side_learned(Millis now) {
  v1::Event event;
  event.set_at_ms(static_cast<std::int32_t>(now.count()));
  event.set_visibility(v1::VISIBILITY_PUBLIC);
  event.set_game_id(game_id_);
  event.set_rules(rules_name_);
  event.mutable_clock_side_learned()->set_white_side(
      sides_.white_side() == drivers::ClockSide::kLeft ? v1::CLOCK_SIDE_LEFT
                                                       : v1::CLOCK_SIDE_RIGHT);
  publish_event(std::move(event));
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
  const bool link_lost = role == v1::DEVICE_ROLE_BOARD && (state == v1::DEVICE_STATE_DISCONNECTED ||
                                                           state == v1::DEVICE_STATE_FAILED);
  if (link_lost && clock_state_ == v1::DEVICE_STATE_CONNECTED) {
    clock_state_ = v1::DEVICE_STATE_DISCONNECTED;
    device_status(v1::DEVICE_ROLE_CLOCK, v1::DEVICE_STATE_DISCONNECTED,
                  "not heard: the board's link is down", now);
  }
}

void BoardSession::on_sensor_read(const drivers::SensorEvent& sensor, Millis read_at, Millis now) {
  on_sensor(sensor, std::min(std::max({read_at, input_at_, resume_at_}), now));
}

void BoardSession::on_sensor(const drivers::SensorEvent& sensor, Millis now) {
  if (!tracker_) return;
  input_at_ = std::max(input_at_, now);
  // No clock reaches a clock=none board: what the device says of one is dropped.
  const bool clock_input = std::holds_alternative<drivers::ClockReading>(sensor) ||
                           std::holds_alternative<drivers::LeverPressed>(sensor) ||
                           std::holds_alternative<drivers::FlagShown>(sensor) ||
                           std::holds_alternative<drivers::BothFlagsShown>(sensor);
  if (clock_input && clock_setting_ == drivers::ClockSetting::kNone) return;
  if (const auto* status = std::get_if<drivers::LinkStatus>(&sensor)) {
    // Bytes were lost (device_link_events.cpp): the board is not known until its full
    // report comes (board_session_sync.cpp).
    if (status->state == drivers::LinkState::kResync) on_resync();
    return;
  }
  engine::GameEvents out;
  if (const auto* seen = std::get_if<drivers::PlacementSeen>(&sensor)) {
    placement_seen(seen->placement, now);
  } else if (const auto* change = std::get_if<drivers::SquareChanged>(&sensor)) {
    placement_[change->square] = code_of_piece(change->piece);
    placement_known_ = true;
    if (pending_dump_) {
      (*pending_dump_)[change->square] = code_of_piece(change->piece);
      if (judgeable()) judge_dump(now, false);
    } else if (!unsynced()) {
      tracker_->square(now, engine::Square(change->square), code_of_piece(change->piece), out);
    }
  } else if (const auto* reading = std::get_if<drivers::ClockReading>(&sensor)) {
    clock_heard(now);
    clock_reading(*reading, now);
  } else if (const auto* lever = std::get_if<drivers::LeverPressed>(&sensor)) {
    const Color presser = sides_.is_white(lever->side) ? engine::kWhite : engine::kBlack;
    if (unsynced()) {
      held_press(presser, now);
    } else {
      tracker_->lever(now, presser, out);
    }
  } else if (const auto* flag = std::get_if<drivers::FlagShown>(&sensor)) {
    flag_shown(sides_.is_white(flag->side) ? engine::kWhite : engine::kBlack);
  } else if (std::holds_alternative<drivers::BothFlagsShown>(sensor)) {
    flag_shown(std::nullopt);
  } else if (std::holds_alternative<drivers::ClockAbsent>(sensor)) {
    clock_known_ = true;
    clock_running_.reset();
    clock_state_ = v1::DEVICE_STATE_ABSENT;
    device_status(v1::DEVICE_ROLE_CLOCK, v1::DEVICE_STATE_ABSENT, "the board reports no clock",
                  now);
    clock_presence(engine::ClockPresence::kNone, now);
    if (pending_dump_) judge_dump(now, false);
  }
  emit(out);
}

void BoardSession::advance(Millis now) {
  if (!tracker_) return;
  input_at_ = std::max(input_at_, now);
  if (pending_dump_ && !awaiting_dump_ && pending_dump_at_ &&
      now - *pending_dump_at_ >= kDumpJudgeWait) {
    judge_dump(now, true);
  }
  // While unsynced the tracker's time stands still at its last input: what it would
  // decide on its own (debounces, the model's flag) concerns a board it no longer sees,
  // and the moves a held press completed are completed at that press (judge_dump).
  if (unsynced()) return;
  engine::GameEvents out;
  tracker_->advance(now, out);
  emit(out);
}

std::optional<Millis> BoardSession::next_deadline() const {
  std::optional<Millis> deadline =
      tracker_ && !unsynced() ? tracker_->next_deadline() : std::nullopt;
  // While a newer dump is awaited the pending one is not judged (judge_dump), so its wait
  // arms no timer; the newer dump, once it comes, is judged and the wait goes on from there.
  if (pending_dump_at_ && !awaiting_dump_) {
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
  suppress_started_ = false;
  resumed_ = false;
  pending_dump_.reset();
  pending_dump_at_.reset();
  press_held_ = restore_published_ = false;
  held_press_at_.reset();
  held_reading_.reset();
  if (placement_known_) {
    engine::GameEvents out;
    tracker_->placement(now, placement_, out);
    emit(out);
  }
  return std::nullopt;
}

}  // namespace eboard::daemon
