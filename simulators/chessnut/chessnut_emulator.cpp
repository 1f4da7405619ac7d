#include "simulators/chessnut/chessnut_emulator.h"

namespace eboard::sim {
namespace {
namespace cn = drivers::chessnut;
constexpr std::size_t kUnusedBytes = cn::kLengthUsb - cn::kPositionBytes;
}  // namespace

void ChessnutEmulator::power_cycle() {
  realtime_ = false;
  pending_.clear();
  lit_ = 0;
}

void ChessnutEmulator::set_placement(const script::Placement& placement) {
  for (int sq = 0; sq < 64; ++sq) {
    placement_[sq] =
        drivers::piece_from_letter(placement.squares[sq]).value_or(drivers::Piece::kEmpty);
  }
}

Message ChessnutEmulator::position() const {
  Message report = {cn::kMsgPosition, cn::kLengthUsb};
  const auto bytes = cn::encode_position(placement_);
  report.insert(report.end(), bytes.begin(), bytes.end());
  report.insert(report.end(), kUnusedBytes, 0);
  return report;
}

Messages ChessnutEmulator::on_host_bytes(std::span<const std::uint8_t> bytes) {
  Messages out;
  pending_.insert(pending_.end(), bytes.begin(), bytes.end());
  while (pending_.size() >= 2 && pending_.size() >= std::size_t{pending_[1]} + 2) {
    const std::size_t length = std::size_t{pending_[1]} + 2;
    command(Message(pending_.begin(), pending_.begin() + static_cast<long>(length)), out);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<long>(length));
  }
  return out;
}

void ChessnutEmulator::command(const Message& m, Messages& out) {
  if (m == cn::kRealtimeMode) {
    realtime_ = true;
    out.push_back(position());
  } else if (m == cn::kBatteryRequest) {
    out.push_back({cn::kMsgBattery, 0x02, static_cast<std::uint8_t>(battery_percent), 0x00});
  } else if (m.size() == 10 && m[0] == cn::kCmdLeds) {
    lit_ = 0;
    for (int row = 0; row < 8; ++row) {
      for (int file = 0; file < 8; ++file) {
        if (m[2 + row] & (0x80 >> file)) lit_ |= std::uint64_t{1} << ((7 - row) * 8 + file);
      }
    }
  }
}

Messages ChessnutEmulator::apply(const script::Statement& statement) {
  const drivers::Placement before = placement_;
  if (const auto* full = std::get_if<script::Placement>(&statement.body)) {
    set_placement(*full);
  } else if (const auto* lift = std::get_if<script::Lift>(&statement.body)) {
    placement_[lift->square] = drivers::Piece::kEmpty;
  } else if (const auto* put = std::get_if<script::Put>(&statement.body)) {
    placement_[put->square] =
        drivers::piece_from_letter(put->piece).value_or(drivers::Piece::kEmpty);
  }
  if (!realtime_ || placement_ == before) return {};
  return {position()};
}

}  // namespace eboard::sim
