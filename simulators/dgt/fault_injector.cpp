#include "simulators/dgt/fault_injector.h"

#include "drivers/dgt/dgt_framer.h"
#include "drivers/dgt/dgt_protocol.h"

namespace eboard::sim {

drivers::dgt::Bytes FaultInjector::apply(const drivers::dgt::Bytes& messages) {
  if (options_.garbage_every <= 0 && options_.drop_every <= 0 && options_.corrupt_clock_every <= 0)
    return messages;
  // Our own output is well formed, so the driver's framer splits it into messages.
  drivers::dgt::Framer framer;
  std::vector<drivers::dgt::RawMessage> split;
  framer.feed(messages, split);
  drivers::dgt::Bytes out;
  for (const auto& message : split) {
    const auto bytes = apply_one(drivers::dgt::frame_message(message.id, message.payload));
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

drivers::dgt::Bytes FaultInjector::apply_one(drivers::dgt::Bytes bytes) {
  if (bytes.empty()) return bytes;
  ++message_count_;
  corrupt_clock(bytes);
  if (options_.drop_every > 0 && message_count_ % options_.drop_every == 0) {
    bytes.erase(bytes.begin() + static_cast<long>(random_() % bytes.size()));
    ++dropped_bytes_;
  }
  if (options_.garbage_every > 0 && message_count_ % options_.garbage_every == 0) {
    const int count = 1 + static_cast<int>(random_() % 3);
    for (int k = 0; k < count; ++k) bytes.push_back(static_cast<std::uint8_t>(random_() & 0xFF));
    garbage_bytes_ += count;
  }
  return bytes;
}

// A clock message is 10 bytes: the id, two length bytes and seven data bytes. Only a data
// byte is damaged, and only within 7 bits: a damaged id or length, or a byte with bit 7
// set, is a framing error, which --drop and --garbage already cover.
void FaultInjector::corrupt_clock(drivers::dgt::Bytes& bytes) {
  if (options_.corrupt_clock_every <= 0 || bytes.size() != 10 ||
      bytes[0] != drivers::dgt::kMsgBwTime)
    return;
  if (++clock_count_ % options_.corrupt_clock_every != 0) return;
  const std::size_t at = 3 + random_() % 7;
  const auto damaged = static_cast<std::uint8_t>((bytes[at] + 1 + random_() % 0x7F) & 0x7F);
  bytes[at] = damaged;
  ++corrupted_clock_;
}

}  // namespace eboard::sim
