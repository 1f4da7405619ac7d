// Cuts the ChessLink byte stream into replies (docs/protocols.md §5). Each byte is masked to
// 7 bits (the parity bit arrives on an 8N1 line, or a port that keeps it). A reply starts
// with a known lower-case letter, has that letter's fixed length (parse by length, never
// by pattern: a status can end in "BB", §5 practical notes), printable characters only,
// and a matching block parity. Anything else is dropped one byte at a time and rescanned
// (style.md "Decoders resync on garbage"), so a cut or corrupted reply costs only itself.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace eboard::drivers::chesslink {

struct Reply {
  char letter = 0;
  std::string data;  // the characters between the letter and the checksum
};

class Framer {
 public:
  void feed(std::span<const std::uint8_t> bytes, std::vector<Reply>& out);
  void reset() { buffer_.clear(); }
  bool has_partial() const { return !buffer_.empty(); }
  // Drops a reply stuck half-received (its rest was lost).
  void drop_partial();
  std::uint64_t discarded_bytes() const { return discarded_; }
  std::uint64_t checksum_errors() const { return checksum_errors_; }

 private:
  std::string buffer_;
  std::uint64_t discarded_ = 0;
  std::uint64_t checksum_errors_ = 0;
};

}  // namespace eboard::drivers::chesslink
