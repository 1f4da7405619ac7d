#include "drivers/dgt/clock_queue.h"

#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers::dgt {
namespace {
constexpr std::chrono::milliseconds kAckTimeout(kClockAckTimeoutMs);
}

void ClockQueue::push(const ClockCommand& command, TimePoint now, Bytes& to_send) {
  waiting_.push_back(command);
  if (!in_flight_) send_next(now, to_send);
}

void ClockQueue::send_next(TimePoint now, Bytes& to_send) {
  if (waiting_.empty()) return;
  InFlight flight;
  flight.bytes = encode_clock_command(waiting_.front());
  flight.command = flight.bytes[3];
  flight.sent_at = now;
  waiting_.pop_front();
  to_send.insert(to_send.end(), flight.bytes.begin(), flight.bytes.end());
  in_flight_ = std::move(flight);
}

void ClockQueue::retry_or_fail(TimePoint now, const char* reason, Bytes& to_send,
                               std::vector<SensorEvent>& events) {
  if (!in_flight_->resent) {
    in_flight_->resent = true;
    in_flight_->sent_at = now;
    ++resends_;
    to_send.insert(to_send.end(), in_flight_->bytes.begin(), in_flight_->bytes.end());
    return;
  }
  ++failures_;
  events.push_back(ClockCommandFailed{in_flight_->command, reason});
  in_flight_.reset();
  send_next(now, to_send);
}

void ClockQueue::on_ack(const ClockAck& ack, TimePoint now, Bytes& to_send,
                        std::vector<SensorEvent>& events) {
  if (!in_flight_) return;
  // An error ack may not name the command (ack1 = 0x90 "not in the required mode").
  if (ack.error || ack.command == kAckNotInMode) {
    retry_or_fail(now, "the clock answered with an error", to_send, events);
    return;
  }
  if (ack.command != in_flight_->command) return;
  in_flight_.reset();
  send_next(now, to_send);
}

void ClockQueue::on_timer(TimePoint now, Bytes& to_send, std::vector<SensorEvent>& events) {
  if (in_flight_ && now - in_flight_->sent_at >= kAckTimeout) {
    retry_or_fail(now, "no ack from the clock", to_send, events);
  }
}

std::optional<TimePoint> ClockQueue::deadline() const {
  if (!in_flight_) return std::nullopt;
  return in_flight_->sent_at + kAckTimeout;
}

void ClockQueue::clear() {
  in_flight_.reset();
  waiting_.clear();
}

}  // namespace eboard::drivers::dgt
