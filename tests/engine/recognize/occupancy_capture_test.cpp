// Captures on boards that sense occupancy only (protocols.md §10): every capture by one
// piece shows the same occupancy (its square empties, the victim's stays occupied), so
// the victim's square is the one lifted last. Found by the occupancy corpus test
// (candidates 1950-2022 game 104, rough seed 1): a flicker on another capturable square
// while the player thought made the recognizer pick Rxe5 for Rxd8.
#include <gtest/gtest.h>

#include "tests/engine/recognize/board_driver.h"

namespace eboard::engine::testing {
namespace {

using Strings = std::vector<std::string>;
// The rook on d5 can take on d8 or on e5: both leave d5 empty and nothing else changed.
constexpr const char* kTwoVictimsFen = "3rk3/8/8/3Rp3/8/8/8/4K3 w - - 0 1";

BoardDriver occupancy_board() {
  return BoardDriver(config_for(kTwoVictimsFen, "fide-standard", SensingMode::kOccupancy));
}

TEST(OccupancyCapture, EarlierFlickerOnAnotherVictimDoesNotChooseTheCapture) {
  for (const bool victim_first : {false, true}) {
    BoardDriver b = occupancy_board();
    b.lift("e5", 500);  // a sensor flicker while White thinks
    b.put("e5", '?', 540);
    if (victim_first) b.lift("d8", 1000);
    b.lift("d5", 1100);
    if (!victim_first) b.lift("d8", 1200);
    b.put("d8", '?', 1300);
    b.press(kWhite, 1600);
    EXPECT_EQ(b.completed_ucis(), (Strings{"d5d8"})) << "victim first: " << victim_first;
  }
}

}  // namespace
}  // namespace eboard::engine::testing
