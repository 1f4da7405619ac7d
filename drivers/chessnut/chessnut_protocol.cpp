#include "drivers/chessnut/chessnut_protocol.h"

namespace eboard::drivers::chessnut {
namespace {

// Nibble code -> piece (§6 table): 0 empty, 1 q, 2 k, 3 b, 4 p, 5 n, 6 R, 7 P, 8 r, 9 B,
// A N, B Q, C K.
constexpr Piece kPieces[13] = {Piece::kEmpty,       Piece::kBlackQueen,  Piece::kBlackKing,
                               Piece::kBlackBishop, Piece::kBlackPawn,   Piece::kBlackKnight,
                               Piece::kWhiteRook,   Piece::kWhitePawn,   Piece::kBlackRook,
                               Piece::kWhiteBishop, Piece::kWhiteKnight, Piece::kWhiteQueen,
                               Piece::kWhiteKing};

// The position's n-th square (0 = h8, 1 = g8, ..., 63 = a1) in engine numbering.
int square_at(std::size_t n) {
  const int i = static_cast<int>(n);
  return (7 - i / 8) * 8 + (7 - i % 8);
}

std::uint8_t code_of(Piece piece) {
  for (std::uint8_t code = 0; code < 13; ++code) {
    if (kPieces[code] == piece) return code;
  }
  return 0;
}

}  // namespace

std::optional<Placement> decode_position(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kPositionBytes) return std::nullopt;
  Placement placement{};
  for (std::size_t n = 0; n < 64; ++n) {
    const std::uint8_t byte = bytes[n / 2];
    const std::uint8_t code = n % 2 == 0 ? byte & 0x0F : byte >> 4;
    if (code > 12) return std::nullopt;
    placement[square_at(n)] = kPieces[code];
  }
  return placement;
}

Bytes encode_position(const Placement& placement) {
  Bytes bytes(kPositionBytes, 0);
  for (std::size_t n = 0; n < 64; ++n) {
    const std::uint8_t code = code_of(placement[square_at(n)]);
    bytes[n / 2] |= n % 2 == 0 ? code : static_cast<std::uint8_t>(code << 4);
  }
  return bytes;
}

Bytes encode_leds(std::uint64_t squares) {
  Bytes bytes = {kCmdLeds, 0x08};
  for (int rank = 7; rank >= 0; --rank) {
    std::uint8_t row = 0;
    for (int file = 0; file < 8; ++file) {
      if (squares >> (rank * 8 + file) & 1) row |= static_cast<std::uint8_t>(0x80 >> file);
    }
    bytes.push_back(row);
  }
  return bytes;
}

}  // namespace eboard::drivers::chessnut
