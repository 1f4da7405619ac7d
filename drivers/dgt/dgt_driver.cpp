#include "drivers/dgt/dgt_driver.h"

#include <algorithm>
#include <cstdio>

#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers::dgt {
namespace {

using std::chrono::milliseconds;
constexpr milliseconds kHandshakeTimeout(kHandshakeTimeoutMs);
constexpr milliseconds kKeepAlive(kKeepAliveIntervalMs);
constexpr milliseconds kSilenceLimit(kSilenceLimitMs);
constexpr milliseconds kPartialTimeout(kPartialTimeoutMs);
// A dump request whose answer did not come (lost bytes) is repeated after this.
constexpr milliseconds kDumpRetry(2000);
// A held clock reading's confirmation that did not come (lost bytes) is asked for again.
constexpr milliseconds kConfirmRetry(300);
// Discards close together need one dump, not one each.
constexpr milliseconds kDumpMinInterval(250);

std::string ascii(Payload payload) {
  std::string text;
  for (std::uint8_t b : payload) text += (b >= 0x20 && b < 0x7F) ? static_cast<char>(b) : '?';
  return text;
}

void earliest(std::optional<TimePoint>& best, std::optional<TimePoint> candidate) {
  if (candidate && (!best || *candidate < *best)) best = candidate;
}

}  // namespace

void DgtDriver::send(std::uint8_t command, TimePoint now, DecoderOutput& out) {
  out.to_send.push_back(command);
  last_sent_ = now;
}

void DgtDriver::on_connected(TimePoint now, DecoderOutput& out) {
  on_disconnected();
  connected_ = true;
  last_received_ = now;
  handshake_deadline_ = now + kHandshakeTimeout;
  send(kSendUpdateNice, now, out);  // also ends bus mode (§1.12)
  send(kSendVersion, now, out);
}

void DgtDriver::on_disconnected() {
  framer_.reset();
  clock_queue_.clear();
  connected_ = confirmed_ = handshake_resent_ = silent_reported_ = clock_absent_ = false;
  handshake_deadline_.reset();
  dump_requested_at_.reset();
  partial_since_.reset();
  last_reading_.reset();
  clock_gate_.reset();
  confirm_requested_at_.reset();
  behind_clock_.clear();
}

void DgtDriver::request_dump(TimePoint now, DecoderOutput& out) {
  behind_clock_.clear();  // the dump shows them
  if (dump_requested_at_ && now - *dump_requested_at_ < kDumpMinInterval) return;
  dump_requested_at_ = now;
  ++counters_.dumps_requested;
  send(kSendBoard, now, out);
}

void DgtDriver::resync(TimePoint now, DecoderOutput& out) {
  const bool requested_before = dump_requested_at_ && now - *dump_requested_at_ < kDumpMinInterval;
  request_dump(now, out);
  // The discarded bytes may have held a clock message with a press: the clock's state as
  // it stands shows the lever, so the press is not lost (§1.3 DGT_SEND_CLK).
  if (!requested_before && !clock_absent_) send(kSendClock, now, out);
}

void DgtDriver::on_bytes(std::span<const std::uint8_t> bytes, TimePoint now, DecoderOutput& out) {
  if (!connected_) return;
  counters_.bytes_received += bytes.size();
  last_received_ = now;
  silent_reported_ = false;
  std::uint64_t reported = framer_.discarded_bytes();
  std::vector<RawMessage> messages;
  framer_.feed(bytes, messages);
  // A loss is reported where it was in the stream, after the messages before it: a dump
  // sent before the lost bytes shows the board before them and must not end the resync
  // they start (the lost bytes may have held a press or a field update).
  const auto report_loss = [&](std::uint64_t discarded) {
    if (discarded > reported && confirmed_) {
      out.events.push_back(LinkStatus{LinkState::kResync,
                                      std::to_string(discarded - reported) + " bytes discarded"});
      resync(now, out);
    }
    reported = std::max(reported, discarded);
  };
  for (const RawMessage& message : messages) {
    report_loss(message.discarded_before);
    handle(message, now, out);
  }
  report_loss(framer_.discarded_bytes());
  if (!framer_.has_partial()) {
    partial_since_.reset();
  } else if (!partial_since_ || !messages.empty()) {
    partial_since_ = now;
  }
}

void DgtDriver::handle(const RawMessage& m, TimePoint now, DecoderOutput& out) {
  ++counters_.messages;
  const Payload p = m.payload;
  if (m.id == kMsgVersion) {
    char text[16];
    std::snprintf(text, sizeof text, "%d.%02d", p[0], p[1]);
    out.events.push_back(DeviceInfo{InfoKind::kVersion, text});
    if (!confirmed_) {
      confirmed_ = true;
      handshake_deadline_.reset();
      out.events.push_back(LinkStatus{LinkState::kConfirmed, std::string("version ") + text});
      request_dump(now, out);
      send(kSendClock, now, out);  // the lever's reference reading (see the header)
      send(kReturnSerialNr, now, out);
      clock_queue_.push(ClockVersionRequest{}, now, out.to_send);
    }
    return;
  }
  if (!confirmed_) return;  // stale bytes from before our handshake
  switch (m.id) {
    case kMsgBoardDump:
      if (const auto placement = decode_board_dump(p)) {
        mirror_ = *placement;
        dump_requested_at_.reset();
        out.events.push_back(PlacementSeen{*placement});
        out.events.push_back(LinkStatus{LinkState::kInSync, "full dump"});
      }
      break;
    case kMsgFieldUpdate: handle_field_update(p, out); break;
    case kMsgBwTime: handle_clock(p, now, out); break;
    case kMsgSerialNr: out.events.push_back(DeviceInfo{InfoKind::kSerial, ascii(p)}); break;
    case kMsgLongSerialNr: out.events.push_back(DeviceInfo{InfoKind::kLongSerial, ascii(p)}); break;
    case kMsgTrademark: out.events.push_back(DeviceInfo{InfoKind::kTrademark, ascii(p)}); break;
    case kMsgBusAddress:
      out.events.push_back(DeviceInfo{InfoKind::kBusAddress, std::to_string((p[0] << 7) | p[1])});
      break;
    case kMsgBatteryStatus: {
      std::string text = std::to_string(p[0]) + "%";
      if (p.size() >= 9 && (p[8] & 0x01)) text += " charging";
      out.events.push_back(DeviceInfo{InfoKind::kBattery, text});
      break;
    }
    case kMsgEeMoves: out.events.push_back(ChangeLog{m.payload}); break;
    default: break;  // draughts dumps: not ours
  }
}

void DgtDriver::handle_field_update(Payload payload, DecoderOutput& out) {
  const auto change = decode_field_update(payload);
  // Until the awaited dump arrives the mirror is stale; the dump will include this change.
  if (!change || !mirror_ || dump_requested_at_) return;
  Piece& square = (*mirror_)[change->square];
  if (square == change->piece) return;  // not a change: nothing to report
  square = change->piece;
  // Behind a held clock reading: a press it shows comes first (clock_gate.h).
  if (clock_gate_.holding()) {
    behind_clock_.push_back(*change);
  } else {
    out.events.push_back(*change);
  }
}

void DgtDriver::release_behind_clock(DecoderOutput& out, std::size_t count) {
  count = std::min(count, behind_clock_.size());
  for (std::size_t i = 0; i < count; ++i) out.events.push_back(behind_clock_[i]);
  behind_clock_.erase(behind_clock_.begin(), behind_clock_.begin() + static_cast<long>(count));
}

void DgtDriver::handle_clock(Payload payload, TimePoint now, DecoderOutput& out) {
  const BwTime decoded = decode_bwtime(payload);
  if (const auto* ack = std::get_if<ClockAck>(&decoded)) {
    if (ack->command == kClockVersion && !ack->error) {
      char text[8];
      std::snprintf(text, sizeof text, "%d.%d", ack->raw[2] >> 4, ack->raw[2] & 0x0F);
      out.events.push_back(DeviceInfo{InfoKind::kClockVersion, text});
    }
    // The clock took times the host set: presses are not read from the change (clock_gate.h).
    if (ack->command == kClockSetNRun) clock_gate_.times_set();
    out.events.push_back(*ack);
    clock_queue_.on_ack(*ack, now, out.to_send, out.events);
    return;
  }
  const bool was_holding = clock_gate_.holding();
  if (std::holds_alternative<ClockAbsent>(decoded)) {
    if (clock_gate_.offer_absent()) {
      release_behind_clock(out, behind_clock_.size());
      if (!clock_absent_) out.events.push_back(ClockAbsent{});
      clock_absent_ = true;
      last_reading_.reset();
    }
  } else if (const auto* reading = std::get_if<ClockReading>(&decoded)) {
    clock_absent_ = false;
    const GateRelease release =
        clock_gate_.offer(GatedReading{*reading, payload[6], now, behind_clock_.size()});
    // What came before each reading released goes out before it (clock_gate.h).
    std::size_t sent = 0;  // of behind_clock_ as it was
    const auto send_up_to = [&](std::size_t behind) {
      if (behind > sent) release_behind_clock(out, behind - sent);
      sent = std::max(sent, behind);
    };
    for (const GatedReading& press : release.earlier) {
      send_up_to(press.behind);
      clock_changes(press.reading, out, press.at);
    }
    if (release.confirmed) {
      send_up_to(release.confirmed->behind);
      clock_changes(release.confirmed->reading, out, release.confirmed->at);
    }
    if (release.resolved) release_behind_clock(out, behind_clock_.size());
    if (release.passed) clock_changes(*release.passed, out);
  }
  // A held reading waits for the clock's next report: ask for it now.
  if (clock_gate_.holding() && !was_holding) {
    confirm_requested_at_ = now;
    send(kSendClock, now, out);
  }
  if (!clock_gate_.holding()) confirm_requested_at_.reset();
}

void DgtDriver::clock_changes(const ClockReading& r, DecoderOutput& out,
                              std::optional<TimePoint> read_at) {
  if (last_reading_ && last_reading_->lever_high != r.lever_high) {
    // §1.8 / §11.3: the lever goes up on the side opposite to the player who pressed.
    const bool left_pressed =
        (r.lever_high == ClockSide::kRight) == kLeverHighRightMeansLeftPressed;
    out.events.push_back(
        LeverPressed{left_pressed ? ClockSide::kLeft : ClockSide::kRight, read_at});
  }
  const bool left_new = r.left_flag && !(last_reading_ && last_reading_->left_flag);
  const bool right_new = r.right_flag && !(last_reading_ && last_reading_->right_flag);
  // Only one clock runs at a time, so two flags that appear together fell while nobody was
  // reading the clock: reporting them left first would invent an order.
  if (left_new && right_new) {
    out.events.push_back(BothFlagsShown{});
  } else if (left_new) {
    out.events.push_back(FlagShown{ClockSide::kLeft});
  } else if (right_new) {
    out.events.push_back(FlagShown{ClockSide::kRight});
  }
  ClockReading dated = r;
  dated.read_at = read_at;
  out.events.push_back(dated);
  last_reading_ = r;
}

void DgtDriver::on_timer(TimePoint now, DecoderOutput& out) {
  if (!connected_) return;
  if (handshake_deadline_ && now >= *handshake_deadline_) {
    if (!handshake_resent_) {
      handshake_resent_ = true;
      handshake_deadline_ = now + kHandshakeTimeout;
      send(kSendUpdateNice, now, out);
      send(kSendVersion, now, out);
    } else {
      handshake_deadline_.reset();
      out.events.push_back(LinkStatus{LinkState::kNoAnswer, "no answer to the version request"});
    }
  }
  if (partial_since_ && now - *partial_since_ >= kPartialTimeout) {
    partial_since_.reset();
    const std::uint64_t before = framer_.discarded_bytes();
    framer_.drop_partial();
    if (confirmed_) {
      out.events.push_back(LinkStatus{
          LinkState::kResync,
          std::to_string(framer_.discarded_bytes() - before) + " bytes of a cut message"});
      resync(now, out);
    }
  }
  if (!confirmed_) return;
  if (dump_requested_at_ && now - *dump_requested_at_ >= kDumpRetry) {
    dump_requested_at_.reset();
    request_dump(now, out);
  }
  if (confirm_requested_at_ && now - *confirm_requested_at_ >= kConfirmRetry) {
    confirm_requested_at_ = now;  // the answer was lost: ask again
    send(kSendClock, now, out);
  }
  if (now - last_received_ >= kSilenceLimit && !silent_reported_) {
    silent_reported_ = true;
    out.events.push_back(LinkStatus{LinkState::kSilent, "nothing received for 10 s"});
  }
  if (now - std::max(last_sent_, last_received_) >= kKeepAlive) {
    send(kReturnSerialNr, now, out);
  }
  clock_queue_.on_timer(now, out.to_send, out.events);
  counters_.clock_resends = clock_queue_.resends();
  counters_.clock_failures = clock_queue_.failures();
}

std::optional<TimePoint> DgtDriver::next_deadline() const {
  if (!connected_) return std::nullopt;
  std::optional<TimePoint> best = handshake_deadline_;
  if (partial_since_) earliest(best, *partial_since_ + kPartialTimeout);
  if (!confirmed_) return best;
  if (dump_requested_at_) earliest(best, *dump_requested_at_ + kDumpRetry);
  if (confirm_requested_at_) earliest(best, *confirm_requested_at_ + kConfirmRetry);
  if (!silent_reported_) earliest(best, last_received_ + kSilenceLimit);
  earliest(best, std::max(last_sent_, last_received_) + kKeepAlive);
  earliest(best, clock_queue_.deadline());
  return best;
}

bool DgtDriver::send_clock(const ClockCommand& command, TimePoint now, DecoderOutput& out) {
  if (clock_absent_ || !connected_) return false;
  if (std::holds_alternative<ClockSetAndRun>(command)) clock_gate_.times_set();
  clock_queue_.push(command, now, out.to_send);
  return true;
}

DecoderCounters DgtDriver::counters() const {
  DecoderCounters counters = counters_;
  counters.discarded_bytes = framer_.discarded_bytes();
  counters.clock_resends = clock_queue_.resends();
  counters.clock_failures = clock_queue_.failures();
  return counters;
}

}  // namespace eboard::drivers::dgt
