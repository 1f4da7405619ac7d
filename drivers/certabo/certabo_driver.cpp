#include "drivers/certabo/certabo_driver.h"

namespace eboard::drivers::certabo {
namespace {

using std::chrono::milliseconds;
constexpr milliseconds kConfirmTimeout(3000);
// A line takes ~0.3 s at 38400 baud; one that stops in the middle lost its end.
constexpr milliseconds kPartialTimeout(1500);
constexpr milliseconds kSilenceLimit(5000);
constexpr std::size_t kVotes = 3;

void earliest(std::optional<TimePoint>& best, std::optional<TimePoint> candidate) {
  if (candidate && (!best || *candidate < *best)) best = candidate;
}

}  // namespace

CertaboDriver::CertaboDriver(const std::string& calibration) {
  if (const auto map = CalibrationMap::from_text(calibration); map && !map->empty()) {
    map_ = *map;
    calibrating_ = false;
  }
}

DecoderTraits CertaboDriver::traits() const {
  return {false, reader_.leds() != LedKind::kRgb,
          occupancy_only_ ? Sensing::kOccupancy : Sensing::kIdentity};
}

void CertaboDriver::on_connected(TimePoint now, DecoderOutput& out) {
  on_disconnected();
  connected_ = true;
  last_received_ = now;
  confirm_deadline_ = now + kConfirmTimeout;
  // All LEDs off: a known state, as PicoChess does on connecting (and the first bytes the
  // board sees from this host).
  out.to_send.insert(out.to_send.end(), 8, 0);
}

void CertaboDriver::on_disconnected() {
  reader_.reset();
  connected_ = confirmed_ = synced_ = silent_reported_ = false;
  confirm_deadline_.reset();
  partial_since_.reset();
  recent_tags_.clear();
  recent_.clear();
  mirror_.reset();
}

void CertaboDriver::on_bytes(std::span<const std::uint8_t> bytes, TimePoint now,
                             DecoderOutput& out) {
  if (!connected_) return;
  counters_.bytes_received += bytes.size();
  last_received_ = now;
  silent_reported_ = false;
  const std::uint64_t discarded_before = reader_.discarded_bytes();
  std::vector<Reading> readings;
  reader_.feed(bytes, readings);
  const std::uint64_t discarded = reader_.discarded_bytes() - discarded_before;
  if (discarded > 0 && confirmed_ && synced_) {
    // A dropped line may have been the one that showed a change: the picture is stale
    // until the next decided one (a stream of full readings, nothing to ask for).
    synced_ = false;
    out.events.push_back(
        LinkStatus{LinkState::kResync, std::to_string(discarded) + " bytes discarded"});
  }
  for (const Reading& reading : readings) handle(reading, out);
  if (!reader_.has_partial()) {
    partial_since_.reset();
  } else if (!partial_since_ || !readings.empty()) {
    partial_since_ = now;
  }
}

void CertaboDriver::handle(const Reading& reading, DecoderOutput& out) {
  ++counters_.messages;
  if (!confirmed_) {
    confirmed_ = true;
    confirm_deadline_.reset();
    occupancy_only_ = std::holds_alternative<OccupancyReading>(reading);
    out.events.push_back(LinkStatus{
        LinkState::kConfirmed, occupancy_only_ ? "occupancy-only board (Sentio)" : "RFID board"});
    out.events.push_back(
        DeviceInfo{InfoKind::kModel, occupancy_only_ ? "Tabutronic Sentio" : "Certabo RFID"});
    out.events.push_back(ClockAbsent{});
  }
  if (const auto* tags = std::get_if<TagReading>(&reading)) {
    recent_tags_.push_back(*tags);
    if (recent_tags_.size() > kVotes) recent_tags_.pop_front();
    if (calibrating_) {
      try_calibration(out);
      if (calibrating_) return;
    }
  }
  const auto pieces = pieces_of(reading);
  if (!pieces) return;
  recent_.push_back(*pieces);
  if (recent_.size() > kVotes) recent_.pop_front();
  report(out);
}

std::optional<Placement> CertaboDriver::pieces_of(const Reading& reading) const {
  Placement placement{};
  if (const auto* tags = std::get_if<TagReading>(&reading)) {
    if (occupancy_only_) return std::nullopt;  // the other kind of board? not ours now
    for (std::size_t i = 0; i < 64; ++i) placement[square_of(i)] = map_.piece_of(tags->tags[i]);
    return placement;
  }
  if (!occupancy_only_) return std::nullopt;
  const auto& ranks = std::get<OccupancyReading>(reading).ranks;
  for (std::size_t i = 0; i < 64; ++i) {
    const bool occupied = ranks[i / 8] & (0x80 >> (i % 8));
    placement[square_of(i)] = occupied ? Piece::kOccupied : Piece::kEmpty;
  }
  return placement;
}

void CertaboDriver::report(DecoderOutput& out) {
  if (recent_.size() < 2) return;
  Placement decided = mirror_.value_or(recent_.back());
  for (int sq = 0; sq < 64; ++sq) {
    for (std::size_t a = 0; a < recent_.size(); ++a) {
      int votes = 0;
      for (const Placement& p : recent_) votes += p[sq] == recent_[a][sq];
      if (votes >= 2) {
        decided[sq] = recent_[a][sq];
        break;
      }
    }
  }
  if (!mirror_ || !synced_) {
    mirror_ = decided;
    synced_ = true;
    out.events.push_back(PlacementSeen{decided});
    out.events.push_back(LinkStatus{LinkState::kInSync, "full reading"});
    return;
  }
  for (int sq = 0; sq < 64; ++sq) {
    if ((*mirror_)[sq] == decided[sq]) continue;
    (*mirror_)[sq] = decided[sq];
    out.events.push_back(SquareChanged{sq, decided[sq]});
  }
}

void CertaboDriver::try_calibration(DecoderOutput& out) {
  if (recent_tags_.size() < kVotes) return;
  const TagReading& last = recent_tags_.back();
  for (const TagReading& r : recent_tags_) {
    for (std::size_t i = 0; i < 64; ++i) {
      const int sq = square_of(i);
      if ((sq < 16 || sq >= 48 || sq == 19 || sq == 43) && r.tags[i] != last.tags[i]) return;
    }
  }
  if (!looks_like_start(last)) {
    refuse("not calibrated: set up the start position (spare queens on d3 and d6 if wanted)", out);
    return;
  }
  auto result = calibrate(last, map_);
  if (const auto* refused = std::get_if<CalibrationRefused>(&result)) {
    refuse("calibration refused: " + refused->reason, out);
    return;
  }
  map_ = std::get<CalibrationMap>(result);
  calibrating_ = false;
  last_refusal_.clear();
  recent_.clear();
  mirror_.reset();
  out.events.push_back(Calibration{map_.to_text()});
  out.events.push_back(
      DeviceInfo{InfoKind::kModel, "calibrated: " + std::to_string(map_.size()) + " pieces known"});
}

void CertaboDriver::refuse(const std::string& reason, DecoderOutput& out) {
  if (reason == last_refusal_) return;
  last_refusal_ = reason;
  out.events.push_back(LinkStatus{LinkState::kRefused, reason});
}

bool CertaboDriver::recalibrate(TimePoint, DecoderOutput&) {
  calibrating_ = true;
  synced_ = false;
  last_refusal_.clear();
  return true;
}

void CertaboDriver::on_timer(TimePoint now, DecoderOutput& out) {
  if (!connected_) return;
  if (confirm_deadline_ && now >= *confirm_deadline_) {
    confirm_deadline_.reset();
    out.events.push_back(LinkStatus{LinkState::kNoAnswer, "no reading within 3 s"});
    return;
  }
  if (partial_since_ && now - *partial_since_ >= kPartialTimeout) {
    partial_since_.reset();
    reader_.drop_partial();
    if (confirmed_ && synced_) {
      synced_ = false;
      out.events.push_back(LinkStatus{LinkState::kResync, "a line cut short"});
    }
  }
  if (confirmed_ && !silent_reported_ && now - last_received_ >= kSilenceLimit) {
    silent_reported_ = true;
    out.events.push_back(LinkStatus{LinkState::kSilent, "no reading for 5 s"});
  }
}

std::optional<TimePoint> CertaboDriver::next_deadline() const {
  if (!connected_) return std::nullopt;
  std::optional<TimePoint> best = confirm_deadline_;
  if (partial_since_) earliest(best, *partial_since_ + kPartialTimeout);
  if (confirmed_ && !silent_reported_) earliest(best, last_received_ + kSilenceLimit);
  return best;
}

bool CertaboDriver::set_lights(const Lights& lights, TimePoint, DecoderOutput& out) {
  if (!confirmed_ || reader_.leds() == LedKind::kRgb) return false;
  const std::uint64_t on = lights.steady | lights.blink;
  for (int rank = 7; rank >= 0; --rank) {
    out.to_send.push_back(static_cast<std::uint8_t>((on >> (rank * 8)) & 0xFF));
  }
  return true;
}

DecoderCounters CertaboDriver::counters() const {
  DecoderCounters counters = counters_;
  counters.discarded_bytes = reader_.discarded_bytes();
  return counters;
}

}  // namespace eboard::drivers::certabo
