#include "engine/recognize/result_gesture.h"

namespace eboard::engine {
namespace {

bool kings_on(const SensedBoard& b, Square white_king, Square black_king) {
  return b.at(white_king) == kWhiteKing && b.at(black_king) == kBlackKing;
}

bool pair_on(const SensedBoard& b, Square x, Square y) {
  return kings_on(b, x, y) || kings_on(b, y, x);
}

}  // namespace

GestureResult detect_result_gesture(const SensedBoard& sensed) {
  if (sensed.result_pieces()) {
    const bool draw = sensed.count(kResultDrawCode) > 0;
    const bool white = sensed.count(kResultWhiteCode) > 0;
    const bool black = sensed.count(kResultBlackCode) > 0;
    if (draw + white + black != 1) return GestureResult::kNone;  // contradictory pieces
    return draw    ? GestureResult::kDraw
           : white ? GestureResult::kWhiteWins
                   : GestureResult::kBlackWins;
  }
  // Only a board with exactly one king of each colour can show a king gesture.
  if (sensed.count(kWhiteKing) != 1 || sensed.count(kBlackKing) != 1) return GestureResult::kNone;
  if (pair_on(sensed, kE4, kD5)) return GestureResult::kWhiteWins;
  if (pair_on(sensed, kE5, kD4)) return GestureResult::kBlackWins;
  if (pair_on(sensed, kD5, kE5) || pair_on(sensed, kD4, kE4)) return GestureResult::kDraw;
  return GestureResult::kNone;
}

}  // namespace eboard::engine
