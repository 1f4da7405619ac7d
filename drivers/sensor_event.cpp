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

namespace eboard::drivers {

Placement start_placement() {
  static constexpr char kBackRank[] = "RNBQKBNR";
  Placement p{};
  p.fill(Piece::kEmpty);
  for (int file = 0; file < 8; ++file) {
    p[file] = *piece_from_letter(kBackRank[file]);
    p[8 + file] = Piece::kWhitePawn;
    p[48 + file] = Piece::kBlackPawn;
    p[56 + file] = *piece_from_letter(static_cast<char>(kBackRank[file] - 'A' + 'a'));
  }
  return p;
}

Placement rotated(const Placement& placement) {
  Placement turned{};
  for (int sq = 0; sq < 64; ++sq) turned[63 - sq] = placement[sq];
  return turned;
}

}  // namespace eboard::drivers
