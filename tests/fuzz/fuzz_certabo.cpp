// Fuzz the Certabo driver: the input's first byte says how many of the next bytes are a
// stored calibration's text (the map reader faces a file), the rest is the device's
// stream. A fixed calibration is used when the text is not one, so the tag path is
// reached too. Invariants: no crash, no sanitizer report, a SquareChanged only after a
// full picture, squares 0..63, pieces real codes or occupied.
#include <cstddef>
#include <cstdint>
#include <string>

#include "drivers/certabo/certabo_driver.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eboard::drivers;
  if (size == 0) return 0;
  const std::size_t text_size = std::min<std::size_t>(data[0], size - 1);
  std::string text(reinterpret_cast<const char*>(data + 1), text_size);
  if (!certabo::CalibrationMap::from_text(text)) {
    text = "0300540001 P\n0300540002 p\n0300550003 K\n0300550004 k\n";
  }
  certabo::CertaboDriver driver(text);
  DecoderOutput out;
  TimePoint now{};
  driver.on_connected(now, out);
  std::size_t i = 1 + text_size;
  while (i < size) {
    const std::size_t chunk = 1 + data[i] % 200;
    const std::size_t n = chunk < size - i ? chunk : size - i;
    driver.on_bytes(std::span(data + i, n), now, out);
    now += std::chrono::milliseconds(data[i] * 10);
    driver.on_timer(now, out);
    if (data[i] == '!') driver.recalibrate(now, out);
    i += n;
  }
  bool picture = false;
  for (const SensorEvent& event : out.events) {
    if (std::holds_alternative<PlacementSeen>(event)) picture = true;
    if (const auto* change = std::get_if<SquareChanged>(&event)) {
      if (!picture || change->square < 0 || change->square > 63 ||
          static_cast<int>(change->piece) > static_cast<int>(Piece::kOccupied)) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
