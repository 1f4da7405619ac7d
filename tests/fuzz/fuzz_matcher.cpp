// Random square changes, presses and time steps fed to a GameTracker (issue 4). Checks
// the recognizer's invariants after every input:
// - a moveCompleted comes only from a press, or from the game end (completion GAME_END);
// - the committed position is the one the completed moves reach from the start, each
//   of them legal where it was played.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "engine/board/fen.h"
#include "engine/game/game_tracker.h"
#include "engine/rules/rule_set.h"

namespace {

using namespace eboard::engine;

constexpr SquareCode kCodes[] = {kEmptyCode, kWhitePawn, kWhiteKnight, kWhiteBishop, kWhiteRook,
                                 kWhiteQueen, kWhiteKing, kBlackPawn, kBlackKnight, kBlackBishop,
                                 kBlackRook, kBlackQueen, kBlackKing, kEmptyCode, kEmptyCode,
                                 kResultDrawCode};

void check(const GameTracker& t, const GameEvents& events, bool pressed) {
  for (const GameEvent& e : events)
    if (e.kind == GameEventKind::kMoveCompleted && !pressed && e.completion != CompletionKind::kGameEnd)
      std::abort();
  Position p = t.config().start;
  for (const CompletedMove& m : t.moves()) {
    if (!p.is_legal(m.move)) std::abort();
    p.make(m.move);
  }
  if (p.key() != t.committed().key()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  TrackerConfig config;
  config.rules = rule_set_by_name("fide-blitz").value();
  config.time_control = parse_time_control("180+2").value();
  config.start = Position();
  GameTracker tracker(config);
  GameEvents events;
  long now = 0;
  for (std::size_t i = 0; i + 1 < size; i += 2) {
    const std::uint8_t op = data[i], arg = data[i + 1];
    now += (op >> 4) * 37;
    const Millis at(now);
    events.clear();
    bool pressed = false;
    switch (op & 7) {
      case 5: tracker.lever(at, kWhite, events); pressed = true; break;
      case 6: tracker.lever(at, kBlack, events); pressed = true; break;
      case 7: now += arg * 20; tracker.advance(Millis(now), events); break;
      default:
        tracker.square(at, Square(arg & 63), kCodes[((arg >> 6) | ((op & 3) << 2)) & 15], events);
        break;
    }
    check(tracker, events, pressed);
  }
  return 0;
}
