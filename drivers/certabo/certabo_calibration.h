// Which RFID tag is which piece on a Certabo board (docs/protocols.md §7). Tags are per piece,
// not per kind, so the board is calibrated from the start position: the tag on each of
// the 32 start squares is that square's piece, and a tag on d3 / d6 at that moment is a
// spare white / black queen (PicoChess's CertaboCalibrator). A new calibration keeps the
// tags of the old one that it does not contradict (spare pieces learnt earlier stay,
// like haklein/certabo-lichess's `calibration()`), and refuses a set-up that contradicts
// it - a piece standing on another kind's square, e.g. the queens swapped - with a
// message naming the squares. The map is stored by the caller as text (one `TAG PIECE`
// line per tag, the tag as 10 hex digits).
// Not detectable: a first calibration from a wrong set-up (nothing to compare with).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>

#include "drivers/certabo/certabo_frames.h"
#include "drivers/sensor_event.h"

namespace eboard::drivers::certabo {

// The engine square of the board's index (0 = a8 ... 63 = h1, White at the near side); the
// mapping is its own inverse, so it also gives a square's index.
int square_of(std::size_t index);

class CalibrationMap {
 public:
  static std::optional<CalibrationMap> from_text(const std::string& text);
  std::string to_text() const;
  bool empty() const { return pieces_.empty(); }
  std::size_t size() const { return pieces_.size(); }
  // The piece of a tag; empty for no tag and for tags not calibrated (RFID noise on an
  // empty square reads as a tag no piece has, PicoChess and haklein both treat it so).
  Piece piece_of(Tag tag) const;
  void set(Tag tag, Piece piece) { pieces_[tag] = piece; }
  const std::map<Tag, Piece>& pieces() const { return pieces_; }

 private:
  std::map<Tag, Piece> pieces_;
};

struct CalibrationRefused {
  std::string reason;
};
// Calibrates from `reading` (already stable) on top of `previous`.
std::variant<CalibrationMap, CalibrationRefused> calibrate(const TagReading& reading,
                                                           const CalibrationMap& previous);
// Whether every start square holds a tag (the moment to try calibrating).
bool looks_like_start(const TagReading& reading);

}  // namespace eboard::drivers::certabo
