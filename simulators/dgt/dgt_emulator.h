// A DGT board with a DGT 3000 clock on its cable, as a state machine (docs/protocols.md §1).
//
// Bytes from the host go in, the board's answers come out; sensor statements of a script
// (docs/interfaces.md §3) change the board and clock, and come out as the messages the real
// board would send in its current mode (field updates, clock messages). No I/O and no
// clock reads: the caller passes script time, so a test can drive it byte by byte.
// What it deliberately does not do: bus mode, draughts dumps, the EEPROM log's content
// (it answers 0x49 with a log holding only "power-up, end").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "drivers/dgt/dgt_messages.h"
#include "engine/clock/time_control.h"
#include "simulators/script/statement.h"

namespace eboard::sim {

using drivers::dgt::Bytes;
using script::Millis;

struct DgtEmulatorOptions {
  drivers::ClockSide white_side = drivers::ClockSide::kLeft;  // where White sits at the clock
  bool turned_round = false;      // board set up with the connector on White's right
  std::string serial = "24680";   // 5 digits (0x45); the long serial adds "00000" in front
  Millis initial_time{0};         // both clocks before the first clocktime line
  bool clock_counts_down = true;  // false when the script's clocktime lines are the truth
  bool clock_connected = true;
  // How the arbiter set the DGT 3000 for the game (docs/rules.md D9): its periods with their
  // increment or delay, whether the first Fischer increment is on the clock at the start
  // (`start_and_press`; it is then already in initial_time), and whether a period ends
  // for both sides when a clock reaches zero (`on_zero`) rather than at the side's move
  // count (the clock counts presses). Empty: the clock only counts down.
  std::optional<engine::TimeControl> time_control;
  bool increment_at_start = true;
  bool periods_on_zero = false;
};

enum class BoardMode : std::uint8_t { kIdle, kUpdateBoard, kUpdate, kUpdateNice };

class DgtEmulator {
 public:
  explicit DgtEmulator(DgtEmulatorOptions options);

  // Host -> board bytes; returns the board's replies (may be empty).
  Bytes on_host_bytes(std::span<const std::uint8_t> bytes);
  // A sensor statement at script time `at`; returns the unsolicited messages it causes.
  // Operator lines are ignored (not board data).
  Bytes apply(const script::Statement& statement);
  // Runs the clock up to script time `at`; returns a clock message when the display changed
  // (UPDATE_NICE) or once a second (UPDATE).
  Bytes advance_clock(Millis at);
  // USB unplugged and plugged in again: back to power-up state (idle), board unchanged.
  void power_cycle();

  void set_placement(const script::Placement& placement);
  bool host_active() const { return mode_ != BoardMode::kIdle; }
  // The host has asked for the whole board since power-up: it knows the starting point.
  bool host_has_board() const { return host_active() && dump_sent_; }
  BoardMode mode() const { return mode_; }
  const drivers::Placement& placement() const { return placement_; }
  drivers::ClockReading clock() const;
  // Every text the host put on the clock's display (DISPLAY / ASCII commands, §1.9), in
  // order, and "" for each END (back to the times): what the players were shown.
  const std::vector<std::string>& displayed() const { return displayed_; }

 private:
  Bytes handle_command(std::uint8_t command);
  Bytes handle_clock_command(std::span<const std::uint8_t> message);
  Bytes clock_message() const;
  Bytes set_square(int square, drivers::Piece piece);
  Bytes clock_changed();
  drivers::ClockSide side_of(script::Side side) const;
  int field_of(int square) const;
  // DGT 3000 time keeping (docs/rules.md D9), only with options_.time_control.
  const engine::Period* period_of(drivers::ClockSide side) const;
  void begin_turn(drivers::ClockSide side);
  void run_clock(Millis span);
  void reach_zero(drivers::ClockSide side);
  void credit_press(drivers::ClockSide side);
  Millis& time_of(drivers::ClockSide side);

  DgtEmulatorOptions options_;
  BoardMode mode_ = BoardMode::kIdle;
  bool dump_sent_ = false;
  Bytes pending_input_;
  std::vector<std::string> displayed_;
  drivers::Placement placement_{};
  // Clock state.
  Millis left_{0};
  Millis right_{0};
  bool running_ = false;
  bool started_ = false;
  drivers::ClockSide turn_;
  drivers::ClockSide lever_high_;
  bool left_flag_ = false;
  bool right_flag_ = false;
  Millis clock_time_{0};  // script time the clock was last advanced to
  std::optional<drivers::ClockReading> last_sent_;
  Millis last_periodic_{0};
  // Per clock side (index 0 left, 1 right): the period it is in and the presses counted.
  struct SideTiming {
    std::size_t period = 0;
    int presses = 0;
  };
  std::array<SideTiming, 2> timing_{};
  Millis delay_left_{0};  // simple delay still free in the running side's turn
  Millis turn_used_{0};   // time the running side has used in this turn (Bronstein)
  bool flag_this_turn_ = false;
};

}  // namespace eboard::sim
