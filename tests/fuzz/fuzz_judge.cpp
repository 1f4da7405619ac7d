// Arbitrary bytes as a FEN into the static "cannot checkmate" proofs (material rules,
// blocked structures, stalemate traps, the kings' dance; engine/rules/unwinnability*.h):
// never a crash or undefined behaviour, and never a proof that is wrong. Whenever the
// static reasoning calls a side unable to mate, a small helpmate search from the same
// position must not find a mate for it (a found line is replayed to make sure it is one).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/rules/mate_search.h"
#include "engine/rules/unwinnability.h"

using namespace eboard::engine;

namespace {

constexpr std::uint64_t kSearchNodes = 3000;

bool is_real_mate(const Position& start, const std::vector<Move>& line, Color winner) {
  Position p = start;
  for (Move m : line) {
    if (!p.is_legal(m)) return false;
    p.make(m);
  }
  return p.side_to_move() == ~winner && is_checkmate(p);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto pos = parse_fen(text, FenMode::kAllowIrregular);
  if (!pos) return 0;
  HelpmateSearch search;
  for (Color winner : {kWhite, kBlack}) {
    const Analysis quick = analyse_winnability(*pos, winner, AnalysisMode::kQuick, 0);
    if (quick.verdict != Verdict::kUnwinnable) continue;
    const SearchResult r = search.find_helpmate(*pos, winner, kSearchNodes);
    if (r.outcome == SearchOutcome::kMateFound && is_real_mate(*pos, r.line, winner)) std::abort();
  }
  return 0;
}
