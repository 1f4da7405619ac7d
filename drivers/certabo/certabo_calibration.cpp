#include "drivers/certabo/certabo_calibration.h"

#include <cstdio>
#include <sstream>

namespace eboard::drivers::certabo {
namespace {

constexpr int kWhiteSpareQueen = 19;  // d3
constexpr int kBlackSpareQueen = 43;  // d6

std::string square_name(int sq) {
  return {static_cast<char>('a' + sq % 8), static_cast<char>('1' + sq / 8)};
}

std::string piece_name(Piece piece) {
  static constexpr const char* kNames[] = {
      "an empty square", "a white pawn",    "a white knight", "a white bishop", "a white rook",
      "the white queen", "the white king",  "a black pawn",   "a black knight", "a black bishop",
      "a black rook",    "the black queen", "the black king"};
  const auto i = static_cast<std::size_t>(piece);
  return i < std::size(kNames) ? kNames[i] : "a piece";
}

bool start_square(int sq) { return sq < 16 || sq >= 48; }

}  // namespace

int square_of(std::size_t index) {
  const int i = static_cast<int>(index);
  return (7 - i / 8) * 8 + i % 8;
}

Piece CalibrationMap::piece_of(Tag tag) const {
  if (tag == 0) return Piece::kEmpty;
  const auto it = pieces_.find(tag);
  return it == pieces_.end() ? Piece::kEmpty : it->second;
}

std::optional<CalibrationMap> CalibrationMap::from_text(const std::string& text) {
  CalibrationMap map;
  std::istringstream in(text);
  std::string tag_text;
  char letter = 0;
  while (in >> tag_text >> letter) {
    if (tag_text.size() != 10) return std::nullopt;
    Tag tag = 0;
    for (const char c : tag_text) {
      const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) return std::nullopt;
      tag = tag << 4 | static_cast<Tag>(digit);
    }
    const auto piece = piece_from_letter(letter);
    if (!piece || *piece == Piece::kEmpty || static_cast<int>(*piece) > 12) return std::nullopt;
    map.set(tag, *piece);
  }
  if (!in.eof()) return std::nullopt;
  return map;
}

std::string CalibrationMap::to_text() const {
  std::string text;
  for (const auto& [tag, piece] : pieces_) {
    char line[32];
    std::snprintf(line, sizeof line, "%010llX %c\n", static_cast<unsigned long long>(tag),
                  piece_letter(piece));
    text += line;
  }
  return text;
}

bool looks_like_start(const TagReading& reading) {
  for (std::size_t i = 0; i < 64; ++i) {
    if (start_square(square_of(i)) && reading.tags[i] == 0) return false;
  }
  return true;
}

std::variant<CalibrationMap, CalibrationRefused> calibrate(const TagReading& reading,
                                                           const CalibrationMap& previous) {
  const Placement start = start_placement();
  std::map<Tag, int> square_of_tag;
  CalibrationMap result;
  std::string conflicts;
  for (int sq = 0; sq < 64; ++sq) {  // by square, so that messages name a1 .. h8 in order
    const Tag tag = reading.tags[static_cast<std::size_t>(square_of(static_cast<std::size_t>(sq)))];
    Piece piece = start[sq];
    if (sq == kWhiteSpareQueen || sq == kBlackSpareQueen) {
      if (tag == 0) continue;
      piece = sq == kWhiteSpareQueen ? Piece::kWhiteQueen : Piece::kBlackQueen;
    } else if (!start_square(sq)) {
      continue;  // empty squares: their noise is no piece
    }
    if (tag == 0) return CalibrationRefused{"no piece on " + square_name(sq)};
    if (const auto [it, fresh] = square_of_tag.emplace(tag, sq); !fresh) {
      return CalibrationRefused{square_name(it->second) + " and " + square_name(sq) +
                                " read the same tag"};
    }
    const Piece known = previous.piece_of(tag);
    if (known != Piece::kEmpty && known != piece) {
      conflicts += (conflicts.empty() ? "" : "; ") + square_name(sq) + " holds " +
                   piece_name(known) + ", not " + piece_name(piece);
    }
    result.set(tag, piece);
  }
  if (!conflicts.empty()) {
    return CalibrationRefused{conflicts +
                              ": set the start position up with every piece on its own square "
                              "(or recalibrate a new set)"};
  }
  // Spare pieces learnt earlier stay known (haklein's calibration adds to the old map).
  for (const auto& [tag, piece] : previous.pieces()) {
    if (!square_of_tag.count(tag)) result.set(tag, piece);
  }
  return result;
}

}  // namespace eboard::drivers::certabo
