// Clock commands through the board, one in flight at a time (docs/protocols.md §1.9 "Flow
// control"): a command is sent, and the next one only after its ack. No ack within
// kClockAckTimeoutMs, or an error ack: resend once; a second miss gives up on it with a
// ClockCommandFailed event and moves on. Time comes from the caller; nothing sleeps.
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "drivers/decoder.h"
#include "drivers/dgt/dgt_messages.h"

namespace eboard::drivers::dgt {

class ClockQueue {
 public:
  void push(const ClockCommand& command, TimePoint now, Bytes& to_send);
  // An ack (or unsolicited clock report) arrived. Only an ack for the command in flight
  // retires it.
  void on_ack(const ClockAck& ack, TimePoint now, Bytes& to_send, std::vector<SensorEvent>& events);
  void on_timer(TimePoint now, Bytes& to_send, std::vector<SensorEvent>& events);
  std::optional<TimePoint> deadline() const;
  void clear();  // the link went down: nothing in flight any more
  bool idle() const { return !in_flight_ && waiting_.empty(); }
  std::uint64_t resends() const { return resends_; }
  std::uint64_t failures() const { return failures_; }

 private:
  struct InFlight {
    Bytes bytes;
    std::uint8_t command = 0;
    TimePoint sent_at;
    bool resent = false;
  };
  void send_next(TimePoint now, Bytes& to_send);
  void retry_or_fail(TimePoint now, const char* reason, Bytes& to_send,
                     std::vector<SensorEvent>& events);

  std::deque<ClockCommand> waiting_;
  std::optional<InFlight> in_flight_;
  std::uint64_t resends_ = 0;
  std::uint64_t failures_ = 0;
};

}  // namespace eboard::drivers::dgt
