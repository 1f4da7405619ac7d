// Arbitrary bytes into the FEN reader: never a crash or undefined behaviour; whatever it
// accepts writes back to a FEN that reads again as the same position, and move
// generation from it is well defined.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"

using namespace eboard::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (FenMode mode : {FenMode::kStrict, FenMode::kAllowIrregular}) {
    auto pos = parse_fen(text, mode);
    if (!pos) {
      if (pos.error().empty()) std::abort();
      continue;
    }
    auto again = parse_fen(to_fen(*pos), mode);
    if (!again || again->key() != pos->key() || to_fen(*again) != to_fen(*pos)) std::abort();
    Position p = pos.value();
    MoveList moves;
    generate_legal(p, moves);
    if (count_legal(p) != moves.size()) std::abort();
    for (Move m : moves) {
      p.make(m);
      if (p.key() != p.compute_key()) std::abort();
      p.unmake(m);
    }
    if (p.key() != pos->key()) std::abort();
  }
  return 0;
}
