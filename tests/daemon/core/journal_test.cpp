#include "daemon/core/journal.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace eboard::daemon {
namespace {

std::string event_bytes(std::uint32_t seq) {
  eboard::v1::Event event;
  event.set_board_id("b1");
  event.set_seq(seq);
  event.set_at_ms(static_cast<std::int32_t>(seq * 100));
  event.mutable_move_withdrawn()->set_uci("e2e4");
  return event.SerializeAsString();
}

class JournalTest : public testing::Test {
 protected:
  std::string path_ = testing::TempDir() + "journal_test_" + std::to_string(::getpid()) + ".journal";
  void TearDown() override { std::filesystem::remove(path_); }

  Journal open(std::vector<std::uint32_t>& seen, std::string& warning) {
    auto journal = Journal::open(path_, FsyncPolicy::kNever,
                                 [&](const eboard::v1::Event& e) { seen.push_back(e.seq()); }, warning);
    EXPECT_TRUE(journal.ok()) << (journal.ok() ? "" : journal.error());
    return std::move(journal).value();
  }
  void write(std::uint32_t count) {
    std::vector<std::uint32_t> seen;
    std::string warning;
    Journal journal = open(seen, warning);
    for (std::uint32_t seq = journal.last_seq() + 1; seq <= count; ++seq) {
      ASSERT_FALSE(journal.append(seq, event_bytes(seq)).has_value());
    }
  }
};

TEST_F(JournalTest, ReopensWithEveryRecord) {
  write(5);
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2, 3, 4, 5}));
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(journal.last_seq(), 5u);
  const auto range = journal.read_range(3, 5);
  ASSERT_EQ(range.size(), 3u);
  EXPECT_EQ(range[0], event_bytes(3));
  EXPECT_EQ(range[2], event_bytes(5));
  EXPECT_TRUE(journal.read_range(6, 9).empty());
  EXPECT_TRUE(journal.append(7, event_bytes(7)).has_value());  // seq must follow
}

TEST_F(JournalTest, TornLastRecordIsCutOff) {
  write(4);
  const auto full = std::filesystem::file_size(path_);
  const std::string fifth = encode_journal_record(event_bytes(5));
  {
    std::ofstream out(path_, std::ios::app | std::ios::binary);
    out << fifth.substr(0, fifth.size() - 3);  // the power went before the checksum
  }
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(journal.last_seq(), 4u);
  EXPECT_NE(warning.find("incomplete record"), std::string::npos) << warning;
  EXPECT_EQ(std::filesystem::file_size(path_), full);
  ASSERT_FALSE(journal.append(5, event_bytes(5)).has_value());  // and it goes on
}

TEST_F(JournalTest, ChecksumMismatchIsCutOff) {
  write(3);
  {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-6, std::ios::end);
    f.put('\x7f');  // a flipped byte inside the last record's event
  }
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_NE(warning.find("checksum mismatch"), std::string::npos) << warning;
}

TEST_F(JournalTest, GarbageOnlyFileLoadsEmpty) {
  std::ofstream(path_, std::ios::binary) << std::string("\xff\xff\xff\xff\xff\xff", 6);
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(journal.last_seq(), 0u);
  EXPECT_FALSE(warning.empty());
}

}  // namespace
}  // namespace eboard::daemon
