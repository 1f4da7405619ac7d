// Which clock side is White's (docs/interfaces.md §2 `white=left|right|auto`).
//
// Only the board spec decides, never the board's orientation (docs/protocols.md §1.6). With
// `auto` the side whose clock runs when the game starts is White's (FIDE 6.6); until a
// running clock has been seen, left is assumed.
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
  // Feed every reading; in `auto` mode the first running one fixes White's side.
  void observe(const ClockReading& reading);
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
