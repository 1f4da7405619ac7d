#include "drivers/board_spec.h"

namespace eboard::drivers {

std::variant<BoardSpec, SpecError> parse_board_spec(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) {
    return SpecError{"bad board spec '" + std::string(text) + "' (expected DRIVER:DEVICE)"};
  }
  BoardSpec spec;
  spec.driver = std::string(text.substr(0, colon));
  std::string_view rest = text.substr(colon + 1);
  std::size_t comma = rest.find(',');
  spec.device = std::string(rest.substr(0, comma));
  if (spec.device.empty()) return SpecError{"board spec '" + std::string(text) + "' has no device"};
  while (comma != std::string_view::npos) {
    rest = rest.substr(comma + 1);
    comma = rest.find(',');
    const std::string_view option = rest.substr(0, comma);
    const std::size_t equals = option.find('=');
    const std::string_view key = option.substr(0, equals);
    const std::string_view value =
        equals == std::string_view::npos ? std::string_view() : option.substr(equals + 1);
    if (equals == std::string_view::npos || value.empty()) {
      return SpecError{"board spec option '" + std::string(option) + "' needs KEY=VALUE"};
    }
    if (key == "serial") {
      spec.serial = std::string(value);
    } else if (key == "white") {
      const auto white = parse_white_setting(value);
      if (!white)
        return SpecError{"white= takes left, right or auto, not '" + std::string(value) + "'"};
      spec.white = *white;
    } else if (key == "clock") {
      if (value != "none" && value != "auto")
        return SpecError{"clock= takes none or auto, not '" + std::string(value) + "'"};
      spec.clock = value == "none" ? ClockSetting::kNone : ClockSetting::kAuto;
    } else {
      return SpecError{"unknown board spec option '" + std::string(key) + "'"};
    }
  }
  return spec;
}

}  // namespace eboard::drivers
