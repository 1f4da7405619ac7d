#include "daemon/round/text_lines.h"

#include <gtest/gtest.h>

namespace eboard::daemon::round {
namespace {

TEST(TextLines, SplitsAtCrLfAndBareCrAndNumbersLines) {
  const auto lines = split_lines(
      "\xEF\xBB\xBF"
      "a\r\nb\rc\n\nd");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].text, "a");
  EXPECT_EQ(lines[1].text, "b");
  EXPECT_EQ(lines[2].text, "c");
  EXPECT_EQ(lines[3].text, "");
  EXPECT_EQ(lines[4].text, "d");
  EXPECT_EQ(lines[4].number, 5);
}

TEST(TextLines, WindowsCodePageBecomesUtf8) {
  EXPECT_EQ(utf8_field("M\xFCller"), "M\xC3\xBCller");
  EXPECT_EQ(utf8_field("\x80"), "\xE2\x82\xAC");              // the euro sign of Windows-1252
  EXPECT_EQ(utf8_field("Mu\xCC\x88ller"), "Mu\xCC\x88ller");  // valid UTF-8 stays
  EXPECT_FALSE(valid_utf8("\xC0\x80"));                       // an overlong form
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));                   // a surrogate
}

TEST(TextLines, ColumnsCountCharacters) {
  EXPECT_EQ(columns("001 Ж 2", 5, 5), "\xD0\x96");
  EXPECT_EQ(columns("001 Ж 2", 7, 7), "2");
  EXPECT_EQ(columns("abc", 2, 9), "bc");
  EXPECT_EQ(columns("abc", 4, 9), "");
  EXPECT_EQ(columns("a\xFF"
                    "c",
                    3, 3),
            "c");  // not UTF-8: one byte a column
}

}  // namespace
}  // namespace eboard::daemon::round
