// One move played on a BoardSession the way a player makes it on a DGT board, for tests
// that drive a session directly: lift the piece, put it down, let the recogniser's timers
// run, press the clock, run them again. `t` is the test's clock in ms (it advances 3.2 s).
#pragma once

#include <chrono>

#include "daemon/core/board_session.h"

namespace eboard::daemon::testing_support {

inline void play_move(BoardSession& s, int from, int to, drivers::Piece piece,
                      drivers::ClockSide mover, int& t) {
  using std::chrono::milliseconds;
  s.on_sensor(drivers::SquareChanged{from, drivers::Piece::kEmpty}, milliseconds(t += 500));
  s.on_sensor(drivers::SquareChanged{to, piece}, milliseconds(t += 500));
  s.advance(milliseconds(t += 1000));
  s.on_sensor(drivers::LeverPressed{mover}, milliseconds(t += 200));
  s.advance(milliseconds(t += 1000));
}

}  // namespace eboard::daemon::testing_support
