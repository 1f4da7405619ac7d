// Faults for tests: what cables, hubs and a tournament hall do to the byte
// stream. Applied per message on the way out of the emulator; seeded, so a run repeats.
//   garbage N   after every N-th message, 1-3 random bytes (never a whole valid message:
//               the shortest DGT message is 4 bytes)
//   drop N      every N-th message loses one byte
//   corrupt-clock N
//               every N-th clock message (DGT `8D`, docs/protocols.md §1.8) has one of its
//               seven data bytes replaced by another 7-bit value: the message still frames
//               and mostly decodes, as a byte damaged on the line does, so a time, a flag,
//               the lever or the status can come out wrong
#pragma once

#include <cstdint>
#include <random>

#include "drivers/dgt/dgt_messages.h"

namespace eboard::sim {

struct FaultOptions {
  int garbage_every = 0;
  int drop_every = 0;
  int corrupt_clock_every = 0;
  std::uint32_t seed = 1;
};

class FaultInjector {
 public:
  explicit FaultInjector(FaultOptions options) : options_(options), random_(options.seed) {}
  // Returns the bytes to put on the line for these (well-formed) DGT messages.
  drivers::dgt::Bytes apply(const drivers::dgt::Bytes& messages);
  // The same for one message of any family (the other emulators give one at a time).
  drivers::dgt::Bytes apply_one(drivers::dgt::Bytes message);
  std::uint64_t garbage_bytes() const { return garbage_bytes_; }
  std::uint64_t dropped_bytes() const { return dropped_bytes_; }
  std::uint64_t corrupted_clock_messages() const { return corrupted_clock_; }

 private:
  FaultOptions options_;
  std::mt19937 random_;
  std::uint64_t message_count_ = 0;
  std::uint64_t garbage_bytes_ = 0;
  std::uint64_t dropped_bytes_ = 0;
  std::uint64_t clock_count_ = 0;
  std::uint64_t corrupted_clock_ = 0;
  void corrupt_clock(drivers::dgt::Bytes& message);
};

}  // namespace eboard::sim
