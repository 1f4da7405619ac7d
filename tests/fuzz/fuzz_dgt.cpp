// Fuzz the DGT driver with arbitrary device bytes: framing, resync, message decoding,
// the clock queue. Invariants: no crash, no sanitizer report, and every SquareChanged
// names a square 0..63.
#include <cstddef>
#include <cstdint>

#include "drivers/dgt/dgt_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eboard::drivers;
  dgt::DgtDriver driver;
  DecoderOutput out;
  TimePoint now{};
  driver.on_connected(now, out);
  // Deliver the input in chunks whose sizes come from the input itself, with time moving.
  std::size_t i = 0;
  while (i < size) {
    const std::size_t chunk = 1 + data[i] % 32;
    const std::size_t n = chunk < size - i ? chunk : size - i;
    driver.on_bytes(std::span(data + i, n), now, out);
    now += std::chrono::milliseconds(data[i] * 10);
    driver.on_timer(now, out);
    i += n;
  }
  for (const SensorEvent& event : out.events) {
    if (const auto* change = std::get_if<SquareChanged>(&event)) {
      if (change->square < 0 || change->square > 63) __builtin_trap();
    }
  }
  return 0;
}
