// The text view of the event stream (docs/interfaces.md §2 eboard-events --format text; the
// demo's output): one readable line per event, and for each board a drawing of the
// position in Unicode pieces with both clocks and the last moves - what an arbiter keeps
// open on a laptop. On a terminal the screen is redrawn in place; into a pipe or file
// the lines are written one after another, with the board drawn after each move.
#pragma once

#include <deque>
#include <map>
#include <ostream>
#include <string>

#include "daemon/core/board_state.h"

namespace eboard::daemon {

class TextView {
 public:
  enum class Mode : std::uint8_t { kScreen, kLines };
  TextView(std::ostream& out, Mode mode) : out_(out), mode_(mode) {}

  void snapshot(const eboard::v1::Snapshot& snapshot);
  void event(const eboard::v1::Event& event);

 private:
  void redraw();

  std::ostream& out_;
  Mode mode_;
  std::map<std::string, BoardState> boards_;  // ordered: same input, same output
  std::deque<std::string> recent_;
};

// One line for an event, e.g. `demo #57 00:41.3 moveCompleted 12...Qb6 white 4:31.0
// black 4:20.2`.
std::string event_line(const eboard::v1::Event& event);
// The board's drawing: 8 ranks of Unicode pieces, clocks, the last moves, the state.
std::string board_panel(const eboard::v1::Snapshot& snapshot);

}  // namespace eboard::daemon
