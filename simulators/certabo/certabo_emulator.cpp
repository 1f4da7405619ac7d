#include "simulators/certabo/certabo_emulator.h"

namespace eboard::sim {
namespace {

namespace cb = drivers::certabo;
using drivers::Piece;
constexpr std::size_t kChunk = 64;
constexpr int kNoiseOneIn = 40;

std::size_t kind(Piece piece) { return static_cast<std::size_t>(piece); }

}  // namespace

CertaboEmulator::CertaboEmulator(CertaboOptions options)
    : options_(options), random_(options.seed) {
  pieces_.fill(Piece::kEmpty);
  for (const Piece spare :
       {Piece::kWhiteQueen, Piece::kWhiteRook, Piece::kWhiteBishop, Piece::kWhiteKnight,
        Piece::kBlackQueen, Piece::kBlackRook, Piece::kBlackBishop, Piece::kBlackKnight}) {
    spares_[kind(spare)].push_back(new_tag(spare));
  }
}

// Tags like the captured ones (`3 0 84 x y`), each distinct.
CertaboEmulator::Tag CertaboEmulator::new_tag(Piece piece) {
  const std::uint32_t n = ++next_tag_ * 7919u;
  const Tag tag = Tag{3} << 32 | Tag{84 + (n >> 16) % 2} << 16 | (n & 0xFFFF);
  known_[tag] = piece;
  return tag;
}

CertaboEmulator::Tag CertaboEmulator::take(Piece piece, From from) {
  for (auto* pile : {&off_[kind(piece)], from == From::kPlay ? &spares_[kind(piece)] : nullptr}) {
    if (!pile || pile->empty()) continue;
    const Tag tag = pile->back();
    pile->pop_back();
    return tag;
  }
  // In play: a piece no calibration has seen. In a set-up: one of the set.
  return new_tag(piece);
}

void CertaboEmulator::lift(int square) {
  if (pieces_[square] == Piece::kEmpty) return;
  off_[kind(pieces_[square])].push_back(tags_[square]);
  tags_[square] = 0;
  pieces_[square] = Piece::kEmpty;
}

void CertaboEmulator::put(int square, Piece piece, From from) {
  if (pieces_[square] == piece) return;
  lift(square);
  if (piece == Piece::kEmpty || kind(piece) > 12) return;
  tags_[square] = take(piece, from);
  pieces_[square] = piece;
}

void CertaboEmulator::set_placement(const script::Placement& placement) {
  for (int sq = 0; sq < 64; ++sq) {
    const Piece piece = drivers::piece_from_letter(placement.squares[sq]).value_or(Piece::kEmpty);
    if (pieces_[sq] != piece) lift(sq);
  }
  for (int sq = 0; sq < 64; ++sq) {
    put(sq, drivers::piece_from_letter(placement.squares[sq]).value_or(Piece::kEmpty),
        From::kSetUp);
  }
}

void CertaboEmulator::power_cycle() {
  pending_.clear();
  host_active_ = false;
  lit_ = 0;
}

std::string CertaboEmulator::calibration_text() const {
  cb::CalibrationMap map;
  for (const auto& [tag, piece] : known_) map.set(tag, piece);
  return map.to_text();
}

Message CertaboEmulator::reading() {
  std::string line;
  if (options_.occupancy_only) {
    cb::OccupancyReading r;
    for (std::size_t i = 0; i < 64; ++i) {
      if (pieces_[cb::square_of(i)] != Piece::kEmpty) r.ranks[i / 8] |= 0x80 >> (i % 8);
    }
    line = cb::format_occupancy(r, kChunk);
  } else {
    cb::TagReading r;
    for (std::size_t i = 0; i < 64; ++i) {
      r.tags[i] = tags_[cb::square_of(i)];
      if (r.tags[i] == 0 && options_.noise && random_() % kNoiseOneIn == 0) {
        r.tags[i] = (Tag{random_()} << 8 | (random_() & 0xFF)) & 0xFFFFFFFFFF;
      }
    }
    line = cb::format_tags(r, kChunk);
  }
  return Message(line.begin(), line.end());
}

Messages CertaboEmulator::readings(int count) {
  Messages out;
  for (int i = 0; i < count; ++i) out.push_back(reading());
  return out;
}

Messages CertaboEmulator::on_host_bytes(std::span<const std::uint8_t> bytes) {
  pending_.append(bytes.begin(), bytes.end());
  host_active_ = true;
  while (pending_.size() >= 8) {
    lit_ = 0;
    for (int row = 0; row < 8; ++row) {
      const auto byte = static_cast<std::uint8_t>(pending_[static_cast<std::size_t>(row)]);
      lit_ |= std::uint64_t{byte} << ((7 - row) * 8);
    }
    pending_.erase(0, 8);
  }
  return readings(3);
}

Messages CertaboEmulator::apply(const script::Statement& statement) {
  if (const auto* full = std::get_if<script::Placement>(&statement.body)) {
    set_placement(*full);
  } else if (const auto* l = std::get_if<script::Lift>(&statement.body)) {
    lift(l->square);
  } else if (const auto* p = std::get_if<script::Put>(&statement.body)) {
    put(p->square, drivers::piece_from_letter(p->piece).value_or(Piece::kEmpty));
  } else {
    return {};
  }
  return host_active_ ? readings(3) : Messages{};
}

Messages CertaboEmulator::advance(script::Millis at) {
  if (!host_active_ || at - last_reading_ < kPeriod) return {};
  last_reading_ = at;
  return readings(1);
}

}  // namespace eboard::sim
