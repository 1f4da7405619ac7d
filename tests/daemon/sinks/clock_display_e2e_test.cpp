// DGT 3000 display messages end to end: eboardd with an emulated board
// (sim:, so eboard-sim dgt runs on a pty behind the real DGT driver) and --clock-display;
// the emulator reports on stderr (which the daemon's sim child shares) every text the
// host put on the clock's display. Every completed move's text and the result must reach
// the clock, in the order of the events, with the times shown again in between.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "daemon/sinks/clock_display.h"
#include "eboard/v1/json.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace eboard::daemon::broadcast_test {
namespace {

const std::string kMate = std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/mate_game.ebs";

// The texts the emulator said it showed, in order ("" for "shows the times").
std::vector<std::string> shown(const std::string& err) {
  std::vector<std::string> texts;
  std::istringstream in(err);
  std::string line;
  const std::string text_prefix = "eboard-sim dgt: clock shows '";
  while (std::getline(in, line)) {
    if (line.starts_with(text_prefix) && line.ends_with("'")) {
      texts.push_back(line.substr(text_prefix.size(), line.size() - text_prefix.size() - 1));
    } else if (line == "eboard-sim dgt: clock shows the times") {
      texts.emplace_back();
    }
  }
  return texts;
}

TEST(ClockDisplayE2e, EmulatedClockShowsEveryMoveAndTheResult) {
  const std::string dir = temp_dir("clock-display");
  Child daemon({kBin + "/eboardd", "--board", "cd=sim:" + kMate, "--clock-display", "cd",
                "--journal", dir + "/journal", "--journal-fsync", "never", "--runtime-dir", dir,
                "--listen", "unix:" + dir + "/events.sock", "--print", "json", "--sim-speed", "1"});
  ASSERT_TRUE(daemon.wait_for_stderr("clock shows '1-0", 60s)) << daemon.err();

  // What the clock should have shown, from the daemon's own events.
  std::vector<std::string> expected;
  std::istringstream out(daemon.out());
  std::string line;
  while (std::getline(out, line)) {
    if (line.empty() || line[0] != '{') continue;
    auto event = proto::event_from_json(line);
    ASSERT_TRUE(event.ok()) << line;
    if (const std::string text = clock_text_for(event.value()); !text.empty()) {
      expected.push_back(text);
    }
  }
  ASSERT_EQ(expected.size(), 8u) << daemon.out();  // seven moves and the result
  EXPECT_EQ(expected.front(), "1.e4    ");
  EXPECT_EQ(expected.back(), "1-0     ");

  std::vector<std::string> texts;
  for (const auto& text : shown(daemon.err())) {
    if (!text.empty()) texts.push_back(text);
  }
  EXPECT_EQ(texts, expected) << daemon.err();
  // A text stays ClockDisplay::kShowFor, then the clock shows its times again: Black
  // thinks 2.8 s over 3...Nf6; the result stays.
  const auto all = shown(daemon.err());
  EXPECT_GE(std::count(all.begin(), all.end(), ""), 1) << daemon.err();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.back(), "1-0     ");
}

}  // namespace
}  // namespace eboard::daemon::broadcast_test
