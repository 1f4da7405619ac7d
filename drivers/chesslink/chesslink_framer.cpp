#include "drivers/chesslink/chesslink_framer.h"

#include "drivers/chesslink/chesslink_protocol.h"

namespace eboard::drivers::chesslink {
namespace {

bool printable(char c) { return c >= 0x20 && c < 0x7F; }

}  // namespace

void Framer::drop_partial() {
  discarded_ += buffer_.size();
  buffer_.clear();
}

void Framer::feed(std::span<const std::uint8_t> bytes, std::vector<Reply>& out) {
  for (const std::uint8_t b : bytes) buffer_ += static_cast<char>(b & 0x7F);
  std::size_t start = 0;
  while (start < buffer_.size()) {
    const std::size_t length = reply_length(buffer_[start]);
    if (length == 0) {
      ++start;
      ++discarded_;
      continue;
    }
    if (buffer_.size() - start < length) break;  // wait for the rest
    const std::string_view reply(buffer_.data() + start, length);
    bool ok = true;
    for (const char c : reply) ok = ok && printable(c);
    const auto check = block_parity(reply.substr(0, length - 2));
    if (ok && (check[0] != reply[length - 2] || check[1] != reply[length - 1])) {
      ++checksum_errors_;
      ok = false;
    }
    if (!ok) {
      ++start;
      ++discarded_;
      continue;
    }
    out.push_back(Reply{reply[0], std::string(reply.substr(1, length - 3))});
    start += length;
  }
  buffer_.erase(0, start);
}

}  // namespace eboard::drivers::chesslink
