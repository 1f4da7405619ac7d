#include "drivers/dgt/dgt_framer.h"

#include <algorithm>

#include "drivers/dgt/dgt_protocol.h"

namespace eboard::drivers::dgt {

void Framer::feed(std::span<const std::uint8_t> bytes, std::vector<RawMessage>& out) {
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
  scan(out);
}

void Framer::drop_partial() {
  discarded_bytes_ += buffer_.size();
  buffer_.clear();
}

void Framer::scan(std::vector<RawMessage>& out) {
  std::size_t start = 0;
  const auto top = [](std::uint8_t b) { return (b & 0x80) != 0; };
  while (start < buffer_.size()) {
    const std::uint8_t* p = buffer_.data() + start;
    const std::size_t available = buffer_.size() - start;
    const LengthBounds bounds = length_bounds(p[0]);
    bool reject = bounds.max == 0;
    std::size_t length = 0;
    if (!reject && available >= 3) {
      reject = top(p[1]) || top(p[2]);
      length = (static_cast<std::size_t>(p[1]) << 7) | p[2];
      reject = reject || length < static_cast<std::size_t>(bounds.min) ||
               length > static_cast<std::size_t>(bounds.max);
    }
    if (!reject && available > 3) {
      const std::size_t checked = std::min(length, available);
      reject = std::any_of(p + 3, p + checked, top);
    }
    if (reject) {
      ++start;
      ++discarded_bytes_;
      continue;
    }
    if (available < 3 || available < length) break;  // wait for the rest
    out.push_back(RawMessage{p[0], std::vector<std::uint8_t>(p + 3, p + length), discarded_bytes_});
    start += length;
  }
  buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(start));
}

}  // namespace eboard::drivers::dgt
