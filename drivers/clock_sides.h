// Which clock side is White's (docs/interfaces.md §2 `white=left|right|auto`).
//
// Only the board spec decides, never the board's orientation (docs/protocols.md §1.6). With
// `auto` the side whose clock runs when the game starts is White's (FIDE 6.6); until a
// running clock has been seen, left is assumed. The first running reading need not come
// at the start, though: after a connect the driver confirms its first reading before it
// reports it (drivers/dgt/clock_gate.h), and a player who moves at once has pressed by
// then, so Black's clock runs. The caller says whose clock should run (the side to move),
// and the side is learned from that.
#pragma once

#include <optional>
#include <string_view>

#include "drivers/sensor_event.h"

namespace eboard::drivers {

enum class WhiteSetting : std::uint8_t { kLeft, kRight, kAuto };
std::optional<WhiteSetting> parse_white_setting(std::string_view text);

class ClockSides {
 public:
  explicit ClockSides(WhiteSetting setting) : setting_(setting) {}
  // Whose clock a reading shows running: the side to move's.
  enum class Running : std::uint8_t { kWhite, kBlack };
  // Feed every reading; in `auto` mode the first running one fixes White's side: its
  // turn's side when White's clock is the one running, the other side when Black's is.
  void observe(const ClockReading& reading, Running running = Running::kWhite);
  // Forget an `auto` decision (a new game).
  void reset() { decided_.reset(); }
  // An `auto` decision made before (a restart: the journal's clockSideLearned).
  void learned(ClockSide white) {
    if (setting_ == WhiteSetting::kAuto) decided_ = white;
  }
  ClockSide white_side() const;
  bool is_white(ClockSide side) const { return side == white_side(); }
  bool decided() const { return setting_ != WhiteSetting::kAuto || decided_.has_value(); }

 private:
  WhiteSetting setting_;
  std::optional<ClockSide> decided_;
};

}  // namespace eboard::drivers
