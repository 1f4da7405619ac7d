// Random square changes, presses and time steps fed to a GameTracker. Checks
// the recognizer's invariants after every input:
// - a moveCompleted comes only from a press, from the game end (completion GAME_END), from
//   the same player's next move on the board (NEXT_MOVE, 6.2.1.2: only on a square
//   change, and the completed move's side then has a move pending on top of the
//   opponent's), or from a press made earlier for it (CLOCK_PRESS outside a press: only
//   after a press of that side that completed nothing, 6.2.2);
// - the committed position is the one the completed moves reach from the start, each
//   of them legal where it was played.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "engine/board/fen.h"
#include "engine/game/game_tracker.h"
#include "engine/rules/rule_set.h"

namespace {

using namespace eboard::engine;

constexpr SquareCode kCodes[] = {kEmptyCode,   kWhitePawn,   kWhiteKnight, kWhiteBishop,
                                 kWhiteRook,   kWhiteQueen,  kWhiteKing,   kBlackPawn,
                                 kBlackKnight, kBlackBishop, kBlackRook,   kBlackQueen,
                                 kBlackKing,   kEmptyCode,   kEmptyCode,   kResultDrawCode};

enum class Input { kSquare, kPress, kTime };

void check(const GameTracker& t, const GameEvents& events, Input input, Color pressed_side,
           std::array<int, 2>& press_credit) {
  bool press_completed = false;
  for (const GameEvent& e : events) {
    if (e.is<events::ClockPressWithoutMove>() || e.is<events::IllegalMoveCompleted>())
      press_completed = true;
    const auto* m = e.get<events::MoveCompleted>();
    if (!m) continue;
    switch (m->completion) {
      case CompletionKind::kGameEnd: break;
      case CompletionKind::kNextMove:
        if (input != Input::kSquare) std::abort();
        if (!t.ended() &&
            (t.recognizer().pending_count() < 2 || t.committed().side_to_move() == m->side))
          std::abort();
        break;
      case CompletionKind::kClockPress:
        if (input == Input::kPress && m->side == pressed_side && !press_completed) {
          press_completed = true;
        } else if (press_credit[int(m->side)] > 0) {
          --press_credit[int(m->side)];
        } else {
          std::abort();
        }
        break;
      default: std::abort();
    }
  }
  if (input == Input::kPress && !press_completed) ++press_credit[int(pressed_side)];
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
  std::array<int, 2> press_credit{};
  long now = 0;
  for (std::size_t i = 0; i + 1 < size; i += 2) {
    const std::uint8_t op = data[i], arg = data[i + 1];
    now += (op >> 4) * 37;
    const Millis at(now);
    events.clear();
    Input input = Input::kSquare;
    Color side = kWhite;
    switch (op & 7) {
      case 5:
        tracker.lever(at, kWhite, events);
        input = Input::kPress;
        break;
      case 6:
        tracker.lever(at, kBlack, events);
        input = Input::kPress;
        side = kBlack;
        break;
      case 7:
        now += arg * 20;
        tracker.advance(Millis(now), events);
        input = Input::kTime;
        break;
      default:
        tracker.square(at, Square(arg & 63), kCodes[((arg >> 6) | ((op & 3) << 2)) & 15], events);
        break;
    }
    check(tracker, events, input, side, press_credit);
  }
  return 0;
}
