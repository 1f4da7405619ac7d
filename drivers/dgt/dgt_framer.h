// DGT message framing with resynchronisation (docs/protocols.md §1.4).
//
// The line can deliver anything: a board that was mid-message when we opened the port,
// bytes lost in a USB hub, noise. A message is accepted only when its id is one we know,
// its two length bytes have bit 7 clear and give a length within that id's bounds, and
// every payload byte has bit 7 clear. Anything else drops ONE byte and rescans, so a real
// message that starts inside rejected bytes is still found. Every dropped byte is counted.
// A message cut short by a lost byte is detected when the next message's id byte (the
// only kind with bit 7 set) arrives inside it; one cut short at the end of the stream
// stays partial until drop_partial() (the driver calls it after a quiet time).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace eboard::drivers::dgt {

struct RawMessage {
  std::uint8_t id = 0;
  std::vector<std::uint8_t> payload;  // the bytes after the 3-byte header
  // The framer's discarded_bytes() when the message was found: the bytes lost before it
  // in the stream, so a reader can tell what came before a loss from what came after.
  std::uint64_t discarded_before = 0;
};

class Framer {
 public:
  void feed(std::span<const std::uint8_t> bytes, std::vector<RawMessage>& out);
  bool has_partial() const { return !buffer_.empty(); }
  void drop_partial();
  void reset() { buffer_.clear(); }
  std::uint64_t discarded_bytes() const { return discarded_bytes_; }

 private:
  void scan(std::vector<RawMessage>& out);

  std::vector<std::uint8_t> buffer_;
  std::uint64_t discarded_bytes_ = 0;
};

}  // namespace eboard::drivers::dgt
