#include "drivers/sensor_event.h"

#include <string_view>

namespace eboard::drivers {
namespace {
// Index = Piece value.
constexpr std::string_view kLetters = ".PNBRQKpnbrqk?123";
}  // namespace

char piece_letter(Piece piece) { return kLetters[static_cast<std::size_t>(piece)]; }

std::optional<Piece> piece_from_letter(char letter) {
  const std::size_t index = kLetters.find(letter);
  if (index == std::string_view::npos) return std::nullopt;
  return static_cast<Piece>(index);
}

}  // namespace eboard::drivers
