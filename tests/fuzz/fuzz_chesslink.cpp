// Fuzz the ChessLink driver with arbitrary device bytes after a confirmed handshake:
// framing by letter and length, block parity, status decoding, orientation switches,
// resyncs. Invariants: no crash, no sanitizer report, a SquareChanged only after a full
// picture, and every square 0..63 with a real piece code.
#include <cstddef>
#include <cstdint>

#include "drivers/chesslink/chesslink_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eboard::drivers;
  chesslink::ChessLinkDriver driver;
  DecoderOutput out;
  TimePoint now{};
  driver.on_connected(now, out);
  const auto version = chesslink::encode('v', "0104");
  driver.on_bytes(version, now, out);
  std::size_t i = 0;
  while (i < size) {
    const std::size_t chunk = 1 + data[i] % 64;
    const std::size_t n = chunk < size - i ? chunk : size - i;
    driver.on_bytes(std::span(data + i, n), now, out);
    now += std::chrono::milliseconds(data[i] * 10);
    driver.on_timer(now, out);
    if (data[i] == 0xA5) driver.set_lights(Lights{data[i], 0}, now, out);
    i += n;
  }
  bool picture = false;
  for (const SensorEvent& event : out.events) {
    if (std::holds_alternative<PlacementSeen>(event)) picture = true;
    if (const auto* change = std::get_if<SquareChanged>(&event)) {
      if (!picture || change->square < 0 || change->square > 63 ||
          static_cast<int>(change->piece) > 12) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
