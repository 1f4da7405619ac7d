#include "drivers/clock_sides.h"

namespace eboard::drivers {

std::optional<WhiteSetting> parse_white_setting(std::string_view text) {
  if (text == "left") return WhiteSetting::kLeft;
  if (text == "right") return WhiteSetting::kRight;
  if (text == "auto") return WhiteSetting::kAuto;
  return std::nullopt;
}

void ClockSides::observe(const ClockReading& reading, Running running) {
  if (setting_ == WhiteSetting::kAuto && !decided_ && reading.running && reading.turn) {
    const ClockSide other =
        *reading.turn == ClockSide::kLeft ? ClockSide::kRight : ClockSide::kLeft;
    decided_ = running == Running::kWhite ? *reading.turn : other;
  }
}

ClockSide ClockSides::white_side() const {
  switch (setting_) {
    case WhiteSetting::kLeft: return ClockSide::kLeft;
    case WhiteSetting::kRight: return ClockSide::kRight;
    case WhiteSetting::kAuto: return decided_.value_or(ClockSide::kLeft);
  }
  return ClockSide::kLeft;
}

}  // namespace eboard::drivers
