#include "simulators/dgt/dgt_emulator.h"

#include <algorithm>

#include "drivers/dgt/dgt_protocol.h"

namespace eboard::sim {
namespace {

using drivers::ClockSide;
using drivers::Piece;
namespace dgt = drivers::dgt;

ClockSide other(ClockSide side) {
  return side == ClockSide::kLeft ? ClockSide::kRight : ClockSide::kLeft;
}

void append(Bytes& out, const Bytes& more) { out.insert(out.end(), more.begin(), more.end()); }

Bytes text_message(std::uint8_t id, const std::string& text) {
  const Bytes payload(text.begin(), text.end());
  return dgt::frame_message(id, payload);
}

}  // namespace

DgtEmulator::DgtEmulator(DgtEmulatorOptions options)
    : options_(std::move(options)),
      left_(options_.initial_time),
      right_(options_.initial_time),
      turn_(options_.white_side),
      lever_high_(options_.white_side) {
  set_placement(script::start_placement());
}

void DgtEmulator::set_placement(const script::Placement& placement) {
  for (int sq = 0; sq < 64; ++sq) {
    const char c = placement.squares[sq];
    placement_[sq] = c == script::kEmptySquare
                         ? Piece::kEmpty
                         : drivers::piece_from_letter(c).value_or(Piece::kOccupied);
  }
}

void DgtEmulator::power_cycle() {
  mode_ = BoardMode::kIdle;
  dump_sent_ = false;
  pending_input_.clear();
  last_sent_.reset();
}

drivers::ClockSide DgtEmulator::side_of(script::Side side) const {
  return side == script::Side::kWhite ? options_.white_side : other(options_.white_side);
}

// §1.6: a board turned round reports square s at the field of the square 63 - s.
int DgtEmulator::field_of(int square) const {
  return dgt::square_to_field(options_.turned_round ? 63 - square : square);
}

drivers::ClockReading DgtEmulator::clock() const {
  drivers::ClockReading r;
  r.left = left_;
  r.right = right_;
  r.running = running_;
  r.turn = turn_;
  r.lever_high = lever_high_;
  r.left_flag = left_flag_;
  r.right_flag = right_flag_;
  return r;
}

Bytes DgtEmulator::clock_message() const {
  return dgt::encode_bwtime(clock(), !options_.clock_connected);
}

Bytes DgtEmulator::clock_changed() {
  if (mode_ != BoardMode::kUpdate && mode_ != BoardMode::kUpdateNice) return {};
  Bytes message = clock_message();
  if (last_sent_ && dgt::encode_bwtime(*last_sent_, !options_.clock_connected) == message) {
    return {};
  }
  last_sent_ = clock();
  return message;
}

Bytes DgtEmulator::on_host_bytes(std::span<const std::uint8_t> bytes) {
  Bytes out;
  pending_input_.insert(pending_input_.end(), bytes.begin(), bytes.end());
  std::size_t i = 0;
  while (i < pending_input_.size()) {
    const std::uint8_t command = pending_input_[i];
    if (command != dgt::kClockMessage) {
      append(out, handle_command(command));
      ++i;
      continue;
    }
    if (i + 2 > pending_input_.size()) break;
    const std::size_t total = 2u + pending_input_[i + 1];
    if (i + total > pending_input_.size()) break;
    append(out, handle_clock_command(std::span(pending_input_).subspan(i, total)));
    i += total;
  }
  pending_input_.erase(pending_input_.begin(), pending_input_.begin() + static_cast<long>(i));
  return out;
}

Bytes DgtEmulator::handle_command(std::uint8_t command) {
  switch (command) {
    case dgt::kSendReset: mode_ = BoardMode::kIdle; return {};
    case dgt::kSendClock: return clock_message();
    case dgt::kSendBoard: {
      dump_sent_ = true;
      Bytes payload(64);
      for (int sq = 0; sq < 64; ++sq) payload[field_of(sq)] = dgt::code_from_piece(placement_[sq]);
      return dgt::frame_message(dgt::kMsgBoardDump, payload);
    }
    case dgt::kSendUpdateBoard: mode_ = BoardMode::kUpdateBoard; return {};
    case dgt::kSendUpdate:
    case dgt::kSendUpdateNice:
      mode_ = command == dgt::kSendUpdate ? BoardMode::kUpdate : BoardMode::kUpdateNice;
      last_sent_.reset();
      return clock_changed();  // the host gets the clock's state at once
    case dgt::kReturnSerialNr: return text_message(dgt::kMsgSerialNr, options_.serial);
    case dgt::kReturnLongSerialNr:
      return text_message(dgt::kMsgLongSerialNr, "00000" + options_.serial);
    case dgt::kReturnBusAddress: return dgt::frame_message(dgt::kMsgBusAddress, Bytes{0x01, 0x02});
    case dgt::kSendTrademark: return text_message(dgt::kMsgTrademark, "eboard-sim DGT emulator");
    case dgt::kSendEeMoves: return dgt::frame_message(dgt::kMsgEeMoves, Bytes{0x6A, 0x6B});
    case dgt::kSendBatteryStatus:
      return dgt::frame_message(dgt::kMsgBatteryStatus,
                                Bytes{100, 0x7F, 0x7F, 0, 0, 0, 0, 0, 0x02});
    case dgt::kSendVersion: return dgt::frame_message(dgt::kMsgVersion, Bytes{0x03, 0x0A});
    default: return {};  // unknown commands are ignored, as the board does
  }
}

Bytes DgtEmulator::handle_clock_command(std::span<const std::uint8_t> message) {
  // Acks come only in UPDATE / UPDATE_NICE and only with a clock attached (§1.9).
  if ((mode_ != BoardMode::kUpdate && mode_ != BoardMode::kUpdateNice) ||
      !options_.clock_connected) {
    return {};
  }
  const auto command = dgt::decode_clock_command(message);
  if (!command)
    return dgt::encode_clock_ack(dgt::kAckError, message.size() > 3 ? message[3] : 0, 0, 0);
  Bytes out;
  std::uint8_t ack2 = 0;
  if (const auto* set = std::get_if<drivers::ClockSetAndRun>(&*command)) {
    left_ = set->left;
    right_ = set->right;
    running_ = set->run.has_value();
    if (set->run) turn_ = *set->run;
    left_flag_ = right_flag_ = false;
  }
  if (const auto* text = std::get_if<drivers::ClockText>(&*command))
    displayed_.push_back(text->text);
  if (std::holds_alternative<drivers::ClockEndText>(*command)) displayed_.emplace_back();
  if (std::holds_alternative<drivers::ClockVersionRequest>(*command)) ack2 = 0x20;  // "2.0"
  append(out, dgt::encode_clock_ack(dgt::kAckOk, dgt::clock_command_id(*command), ack2, 0));
  append(out, clock_changed());
  return out;
}

Bytes DgtEmulator::set_square(int square, Piece piece) {
  if (placement_[square] == piece) return {};
  placement_[square] = piece;
  if (mode_ == BoardMode::kIdle) return {};
  return dgt::encode_field_update(field_of(square), dgt::code_from_piece(piece));
}

Millis& DgtEmulator::time_of(ClockSide side) { return side == ClockSide::kLeft ? left_ : right_; }

const engine::Period* DgtEmulator::period_of(ClockSide side) const {
  if (!options_.time_control || options_.time_control->periods.empty()) return nullptr;
  const auto& periods = options_.time_control->periods;
  return &periods[std::min(timing_[side == ClockSide::kLeft ? 0 : 1].period, periods.size() - 1)];
}

// A turn starts: a simple delay is free time before the main time runs (D9).
void DgtEmulator::begin_turn(ClockSide side) {
  turn_used_ = Millis(0);
  flag_this_turn_ = false;
  const engine::Period* period = period_of(side);
  delay_left_ = period && period->adjustment == engine::Adjustment::kSimpleDelay
                    ? period->adjustment_amount
                    : Millis(0);
}

void DgtEmulator::run_clock(Millis span) {
  while (span > Millis(0)) {
    Millis& remaining = time_of(turn_);
    if (delay_left_ > Millis(0)) {
      const Millis used = std::min(span, delay_left_);
      delay_left_ -= used;
      turn_used_ += used;
      span -= used;
      continue;
    }
    if (remaining == Millis(0)) break;  // flag down: the display stays at zero
    const Millis used = std::min(span, remaining);
    remaining -= used;
    turn_used_ += used;
    span -= used;
    if (remaining == Millis(0)) reach_zero(turn_);
  }
}

// At zero: in an `on_zero` control both sides get the next period's time at once, and the
// flag shows only when the side had not made the period's moves; otherwise the flag falls.
void DgtEmulator::reach_zero(ClockSide side) {
  const auto& periods =
      options_.time_control ? options_.time_control->periods : std::vector<engine::Period>{};
  SideTiming& mine = timing_[side == ClockSide::kLeft ? 0 : 1];
  const bool final_period = mine.period + 1 >= periods.size();
  if (!final_period && options_.periods_on_zero) {
    int required = 0;
    for (std::size_t i = 0; i <= mine.period; ++i) required += periods[i].moves;
    if (mine.presses < required) (side == ClockSide::kLeft ? left_flag_ : right_flag_) = true;
    for (ClockSide each : {ClockSide::kLeft, ClockSide::kRight}) {
      SideTiming& t = timing_[each == ClockSide::kLeft ? 0 : 1];
      if (t.period + 1 >= periods.size()) continue;
      ++t.period;
      time_of(each) += periods[t.period].base;
    }
    return;
  }
  (side == ClockSide::kLeft ? left_flag_ : right_flag_) = true;
  flag_this_turn_ = true;
}

// The running side pressed: Bronstein add-back, the Fischer increment and a period change at
// the period's move count, in the order docs/rules.md D9 gives for the clock's crediting mode.
void DgtEmulator::credit_press(ClockSide side) {
  const engine::Period* period = period_of(side);
  if (!period) return;
  SideTiming& mine = timing_[side == ClockSide::kLeft ? 0 : 1];
  Millis& remaining = time_of(side);
  ++mine.presses;
  const bool credit = !flag_this_turn_ && remaining > Millis(0);
  const auto fischer = [&](const engine::Period& p) {
    if (credit && p.adjustment == engine::Adjustment::kFischer) remaining += p.adjustment_amount;
  };
  if (credit && period->adjustment == engine::Adjustment::kBronstein) {
    remaining += std::min(turn_used_, period->adjustment_amount);
  }
  if (!options_.increment_at_start) fischer(*period);
  const auto& periods = options_.time_control->periods;
  if (!options_.periods_on_zero) {
    int required = 0;
    for (std::size_t i = 0; i <= mine.period; ++i) required += periods[i].moves;
    while (mine.period + 1 < periods.size() && periods[mine.period].moves > 0 &&
           mine.presses >= required) {
      ++mine.period;
      remaining += periods[mine.period].base;
      required += periods[mine.period].moves;
    }
  }
  if (options_.increment_at_start) fischer(*period_of(side));
}

Bytes DgtEmulator::advance_clock(Millis at) {
  if (started_ && running_ && options_.clock_counts_down && at > clock_time_) {
    run_clock(at - clock_time_);
  }
  clock_time_ = std::max(clock_time_, at);
  if (mode_ == BoardMode::kUpdate && at - last_periodic_ >= Millis(1000)) {
    last_periodic_ = at;
    last_sent_.reset();  // UPDATE mode: at least once a second even unchanged (§1.2)
  }
  return clock_changed();
}

Bytes DgtEmulator::apply(const script::Statement& statement) {
  if (!statement.at || !script::is_sensor(statement.body)) return {};
  const Millis at = *statement.at;
  Bytes out;
  if (!started_) {
    // The game starts at the first timed line: White's clock runs (FIDE 6.6).
    started_ = true;
    running_ = true;
    turn_ = options_.white_side;
    clock_time_ = at;
    last_periodic_ = at;
    begin_turn(turn_);
  }
  append(out, advance_clock(at));
  if (const auto* p = std::get_if<script::Placement>(&statement.body)) {
    for (int sq = 0; sq < 64; ++sq) {
      const char c = p->squares[sq];
      append(out, set_square(sq, c == script::kEmptySquare
                                     ? Piece::kEmpty
                                     : drivers::piece_from_letter(c).value_or(Piece::kOccupied)));
    }
  } else if (const auto* lift = std::get_if<script::Lift>(&statement.body)) {
    append(out, set_square(lift->square, Piece::kEmpty));
  } else if (const auto* put = std::get_if<script::Put>(&statement.body)) {
    append(out, set_square(put->square,
                           drivers::piece_from_letter(put->piece).value_or(Piece::kOccupied)));
  } else if (const auto* lever = std::get_if<script::Lever>(&statement.body)) {
    const ClockSide pressed = side_of(lever->side);
    // Pressing lowers one's own side; the lever goes up on the other (§1.8, §11.3).
    const ClockSide high_after = dgt::kLeverHighRightMeansLeftPressed ? other(pressed) : pressed;
    if (lever_high_ != high_after) {
      if (running_ && turn_ == pressed && options_.clock_counts_down) {
        credit_press(pressed);
        begin_turn(other(pressed));
      }
      lever_high_ = high_after;
      turn_ = other(pressed);
      running_ = true;
    }
    append(out, clock_changed());
  } else if (const auto* time = std::get_if<script::ClockTime>(&statement.body)) {
    (options_.white_side == ClockSide::kLeft ? left_ : right_) = time->white;
    (options_.white_side == ClockSide::kLeft ? right_ : left_) = time->black;
    append(out, clock_changed());
  } else if (const auto* flag = std::get_if<script::Flag>(&statement.body)) {
    const bool white = flag->side != script::FlagSide::kBlack;
    const bool black = flag->side != script::FlagSide::kWhite;
    for (const auto& [fell, side] :
         {std::pair{white, script::Side::kWhite}, std::pair{black, script::Side::kBlack}}) {
      if (!fell) continue;
      const ClockSide clock_side = side_of(side);
      (clock_side == ClockSide::kLeft ? left_flag_ : right_flag_) = true;
      (clock_side == ClockSide::kLeft ? left_ : right_) = Millis(0);
    }
    append(out, clock_changed());
  }
  return out;
}

}  // namespace eboard::sim
