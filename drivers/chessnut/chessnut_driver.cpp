#include "drivers/chessnut/chessnut_driver.h"

#include <algorithm>

namespace eboard::drivers::chessnut {
namespace {

using std::chrono::milliseconds;
constexpr milliseconds kHandshakeTimeout(2000);
constexpr milliseconds kWriteInterval(200);
constexpr milliseconds kPartialTimeout(300);
constexpr milliseconds kBatteryInterval(60000);
constexpr milliseconds kSilenceLimit(150000);  // two battery answers missed and more

void earliest(std::optional<TimePoint>& best, std::optional<TimePoint> candidate) {
  if (candidate && (!best || *candidate < *best)) best = candidate;
}

// The length a known message id must carry; nullopt for an unknown id.
bool length_fits(std::uint8_t id, std::uint8_t length) {
  if (id == kMsgPosition) return length == kLengthBle || length == kLengthUsb;
  if (id == kMsgBattery) return length == 2;
  return false;
}

}  // namespace

void ChessnutDriver::on_connected(TimePoint now, DecoderOutput& out) {
  on_disconnected();
  connected_ = true;
  last_received_ = now;
  handshake_deadline_ = now + kHandshakeTimeout;
  last_write_ = now - kWriteInterval;
  last_battery_ = now;
  queue(kRealtimeMode, now, out);
  queue(kBatteryRequest, now, out);
}

void ChessnutDriver::on_disconnected() {
  buffer_.clear();
  commands_.clear();
  pending_lights_.reset();
  connected_ = confirmed_ = synced_ = handshake_resent_ = silent_reported_ = false;
  handshake_deadline_.reset();
  partial_since_.reset();
  mirror_.reset();
}

void ChessnutDriver::queue(Bytes command, TimePoint now, DecoderOutput& out) {
  commands_.push_back(std::move(command));
  flush(now, out);
}

void ChessnutDriver::flush(TimePoint now, DecoderOutput& out) {
  if (now - last_write_ < kWriteInterval) return;
  if (!commands_.empty()) {
    out.to_send.insert(out.to_send.end(), commands_.front().begin(), commands_.front().end());
    commands_.pop_front();
  } else if (pending_lights_) {
    out.to_send.insert(out.to_send.end(), pending_lights_->begin(), pending_lights_->end());
    pending_lights_.reset();
  } else {
    return;
  }
  last_write_ = now;
}

void ChessnutDriver::discard(std::size_t count, DecoderOutput& out) {
  if (count == 0) return;
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<long>(count));
  counters_.discarded_bytes += count;
  if (confirmed_ && synced_) {
    // The dropped bytes may have been a position: stale until the next one.
    synced_ = false;
    out.events.push_back(LinkStatus{LinkState::kResync, "bytes discarded"});
  }
}

void ChessnutDriver::on_bytes(std::span<const std::uint8_t> bytes, TimePoint now,
                              DecoderOutput& out) {
  if (!connected_) return;
  counters_.bytes_received += bytes.size();
  last_received_ = now;
  silent_reported_ = false;
  if (framing_ == Framing::kReports) {
    // One whole report: exactly one message, or nothing of it is used.
    buffer_.assign(bytes.begin(), bytes.end());
    const bool whole = buffer_.size() >= 2 && length_fits(buffer_[0], buffer_[1]) &&
                       buffer_.size() == std::size_t{buffer_[1]} + 2u;
    if (!whole || !next_message(out)) discard(buffer_.size(), out);
    buffer_.clear();
    return;
  }
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
  bool progressed = false;
  while (next_message(out)) progressed = true;
  if (buffer_.empty()) {
    partial_since_.reset();
  } else if (!partial_since_ || progressed) {
    partial_since_ = now;
  }
}

bool ChessnutDriver::next_message(DecoderOutput& out) {
  while (buffer_.size() >= 2 && !length_fits(buffer_[0], buffer_[1])) discard(1, out);
  if (buffer_.size() < 2) {
    if (buffer_.size() == 1 && buffer_[0] != kMsgPosition && buffer_[0] != kMsgBattery) {
      discard(1, out);
    }
    return false;
  }
  const std::size_t length = std::size_t{buffer_[1]} + 2;
  if (buffer_.size() < length) return false;
  const std::span<const std::uint8_t> body(buffer_.data() + 2, length - 2);
  const std::size_t before = counters_.messages;
  if (buffer_[0] == kMsgPosition) handle_position(body, out);
  if (buffer_[0] == kMsgBattery) handle_battery(body, out);
  if (counters_.messages == before) {
    // Not a message after all: rescan from the next byte (a report is dropped whole).
    discard(framing_ == Framing::kReports ? buffer_.size() : 1, out);
    return framing_ == Framing::kStream;
  }
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<long>(length));
  return true;
}

void ChessnutDriver::handle_position(std::span<const std::uint8_t> bytes, DecoderOutput& out) {
  const auto placement = decode_position(bytes.first(kPositionBytes));
  if (!placement) return;
  ++counters_.messages;
  if (!confirmed_) {
    confirmed_ = true;
    handshake_deadline_.reset();
    out.events.push_back(LinkStatus{LinkState::kConfirmed, "position reports on"});
    out.events.push_back(ClockAbsent{});
  }
  if (!mirror_ || !synced_) {
    mirror_ = *placement;
    synced_ = true;
    out.events.push_back(PlacementSeen{*placement});
    out.events.push_back(LinkStatus{LinkState::kInSync, "full position"});
    return;
  }
  for (int sq = 0; sq < 64; ++sq) {
    if ((*mirror_)[sq] == (*placement)[sq]) continue;
    (*mirror_)[sq] = (*placement)[sq];
    out.events.push_back(SquareChanged{sq, (*placement)[sq]});
  }
}

// `2A 02 level flags`: PicoChess reads the charging flag from the second byte (its
// fixture `2a026401` = 100 %, charging); §6 puts it in bit 7 of the first. Both read.
void ChessnutDriver::handle_battery(std::span<const std::uint8_t> bytes, DecoderOutput& out) {
  ++counters_.messages;
  const int percent = bytes[0] & 0x7F;
  const bool charging = (bytes[0] & 0x80) || (bytes[1] & 0x01);
  out.events.push_back(DeviceInfo{InfoKind::kBattery,
                                  std::to_string(percent) + "%" + (charging ? " charging" : "")});
}

void ChessnutDriver::on_timer(TimePoint now, DecoderOutput& out) {
  if (!connected_) return;
  if (handshake_deadline_ && now >= *handshake_deadline_) {
    if (!handshake_resent_) {
      handshake_resent_ = true;
      handshake_deadline_ = now + kHandshakeTimeout;
      queue(kRealtimeMode, now, out);
    } else {
      handshake_deadline_.reset();
      out.events.push_back(LinkStatus{LinkState::kNoAnswer, "no position report"});
    }
  }
  if (partial_since_ && now - *partial_since_ >= kPartialTimeout) {
    partial_since_.reset();
    discard(buffer_.size(), out);
  }
  if (confirmed_ && now - last_battery_ >= kBatteryInterval) {
    last_battery_ = now;
    queue(kBatteryRequest, now, out);
  }
  if (confirmed_ && !silent_reported_ && now - last_received_ >= kSilenceLimit) {
    silent_reported_ = true;
    out.events.push_back(LinkStatus{LinkState::kSilent, "nothing received for 150 s"});
  }
  flush(now, out);
}

std::optional<TimePoint> ChessnutDriver::next_deadline() const {
  if (!connected_) return std::nullopt;
  std::optional<TimePoint> best = handshake_deadline_;
  if (partial_since_) earliest(best, *partial_since_ + kPartialTimeout);
  if (!commands_.empty() || pending_lights_) earliest(best, last_write_ + kWriteInterval);
  if (confirmed_) earliest(best, last_battery_ + kBatteryInterval);
  if (confirmed_ && !silent_reported_) earliest(best, last_received_ + kSilenceLimit);
  return best;
}

bool ChessnutDriver::set_lights(const Lights& lights, TimePoint now, DecoderOutput& out) {
  if (!confirmed_) return false;
  pending_lights_ = encode_leds(lights.steady | lights.blink);
  flush(now, out);
  return true;
}

}  // namespace eboard::drivers::chessnut
