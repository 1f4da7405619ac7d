#include "daemon/core/log.h"

#include <gtest/gtest.h>

#include <sstream>

namespace eboard::daemon {
namespace {

TEST(Logger, PrefixesEachLineWithItsPriority) {
  std::ostringstream out;
  Logger log(out, "eboardd");
  log.error("e");
  log.warning("w");
  log.notice("n");
  log.info("i");
  log.debug("d");
  EXPECT_EQ(out.str(),
            "<3>eboardd: e\n<4>eboardd: w\n<5>eboardd: n\n<6>eboardd: i\n<7>eboardd: d\n");
}

TEST(Logger, RepeatedErrorIsPrintedOnceThenWithItsCount) {
  std::ostringstream out;
  Logger log(out, "eboardd");
  for (int i = 0; i < 5; ++i) log.error("board a: journal: No space left on device");
  log.warning("other");
  EXPECT_EQ(out.str(),
            "<3>eboardd: board a: journal: No space left on device\n<4>eboardd: other\n");
  log.report_repeats();
  EXPECT_EQ(out.str(),
            "<3>eboardd: board a: journal: No space left on device\n<4>eboardd: other\n"
            "<3>eboardd: board a: journal: No space left on device (repeated 4 more times)\n");
}

TEST(Logger, AFaultThatLastsCostsOneLineAWindow) {
  std::ostringstream out;
  Logger log(out, "x");
  log.warning("full");
  log.report_repeats();  // not repeated: nothing to report, forgotten
  EXPECT_EQ(out.str(), "<4>x: full\n");
  log.warning("full");  // a new window: printed again
  log.warning("full");
  log.report_repeats();
  log.warning("full");  // still held: its repeat is counted, not printed
  log.report_repeats();
  EXPECT_EQ(out.str(),
            "<4>x: full\n<4>x: full\n<4>x: full (repeated 1 more time)\n"
            "<4>x: full (repeated 1 more time)\n");
}

TEST(Logger, SameTextAtAnotherLevelIsAnotherLine) {
  std::ostringstream out;
  Logger log(out, "x");
  log.error("a");
  log.warning("a");
  EXPECT_EQ(out.str(), "<3>x: a\n<4>x: a\n");
}

TEST(Logger, InfoLinesAreNeverHeldBack) {
  std::ostringstream out;
  Logger log(out, "x");
  log.info("board a: connected");
  log.info("board a: connected");
  EXPECT_EQ(out.str(), "<6>x: board a: connected\n<6>x: board a: connected\n");
}

TEST(Logger, ManyDistinctLinesStayBounded) {
  std::ostringstream out;
  Logger log(out, "x");
  for (std::size_t i = 0; i < Logger::kMaxTracked + 10; ++i) {
    log.error("e" + std::to_string(i));
    log.error("e" + std::to_string(i));
  }
  // Every distinct line printed once; those counted before the window filled are
  // reported with their count when it restarts.
  const std::string text = out.str();
  EXPECT_NE(text.find("<3>x: e0\n"), std::string::npos);
  EXPECT_NE(text.find("<3>x: e0 (repeated 1 more time)\n"), std::string::npos);
  EXPECT_NE(text.find("<3>x: e265\n"), std::string::npos);
}

TEST(Logger, AtGivesAPlainCallback) {
  std::ostringstream out;
  Logger log(out, "x");
  log.at(LogLevel::kNotice)("hello");
  EXPECT_EQ(out.str(), "<5>x: hello\n");
}

}  // namespace
}  // namespace eboard::daemon
