#include "daemon/core/journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/core/journal_format.h"

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
  std::string path_ =
      testing::TempDir() + "journal_test_" + std::to_string(::getpid()) + ".journal";
  void TearDown() override { std::filesystem::remove(path_); }

  Journal open(std::vector<std::uint32_t>& seen, std::string& warning) {
    auto journal = Journal::open(
        path_, FsyncPolicy::kNever, [&](const eboard::v1::Event& e) { seen.push_back(e.seq()); },
        warning);
    EXPECT_TRUE(journal.ok()) << (journal.ok() ? "" : journal.error());
    return std::move(journal).value();
  }
  // The file's bytes, and a write of `bytes` at `offset` (what a power cut leaves).
  std::string contents() const {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }
  void write_at(std::uint64_t offset, const std::string& bytes) {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f << bytes;
  }
  // The logical end after records 1..count.
  static std::uint64_t records_size(std::uint32_t count) {
    std::uint64_t size = journal_format::kFileHeader.size();
    for (std::uint32_t seq = 1; seq <= count; ++seq)
      size += encode_journal_record(event_bytes(seq)).size();
    return size;
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

TEST_F(JournalTest, TornLastRecordBeforeTheZeroTailIsCutOff) {
  write(4);
  const auto allocated = std::filesystem::file_size(path_);
  ASSERT_GE(allocated, records_size(4) + Journal::kExtendBelowBytes);  // preallocated
  const std::string fifth = encode_journal_record(event_bytes(5));
  write_at(records_size(4),
           fifth.substr(0, fifth.size() - 3));  // the power went before the checksum
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(journal.last_seq(), 4u);
  EXPECT_NE(warning.find(" bytes after seq 4 cut off (they could hold seqs up to "),
            std::string::npos)
      << warning;
  // At most one record a kMinRecordBytes of the torn bytes: at least seq 5.
  EXPECT_EQ(journal.damage().tail_bound,
            4 + (fifth.size() - 3 + journal_format::kMinRecordBytes - 1) /
                    journal_format::kMinRecordBytes);
  // Zeroed, not truncated: the preallocated tail stays and reads as zeros.
  EXPECT_EQ(std::filesystem::file_size(path_), allocated);
  EXPECT_EQ(contents().find_last_not_of('\0') + 1, records_size(4));
  ASSERT_FALSE(journal.append(5, event_bytes(5)).has_value());  // and it goes on
  EXPECT_EQ(journal.read_range(5, 5), std::vector<std::string>{event_bytes(5)});
}

TEST_F(JournalTest, TornLengthAtTheEndOfTheFileIsCutOff) {
  write(2);
  const auto allocated = std::filesystem::file_size(path_);
  write_at(allocated, std::string("\x40\x01\x02", 3));  // past the tail, as daemon_e2e's KillNine
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2}));
  // Past a page of zeros: no record of this journal, so numbering need not skip for them.
  EXPECT_NE(warning.find("after seq 2 cut off (no record of this journal"), std::string::npos)
      << warning;
  EXPECT_EQ(journal.damage().tail_bound, 0u);
  EXPECT_EQ(contents().find_last_not_of('\0') + 1, records_size(2));
}

TEST_F(JournalTest, ChecksumMismatchIsCutOff) {
  write(3);
  {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(records_size(3) - 6));
    f.put('\x7f');  // a flipped byte inside the last record's event
  }
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_NE(warning.find("bytes after seq 2 cut off (they could hold seqs up to"),
            std::string::npos)
      << warning;
}

TEST_F(JournalTest, FlippedByteCostsThatRecordOnly) {
  write(6);
  {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(records_size(2) + 14));
    f.put('\x7f');  // inside seq 3's event
  }
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2, 4, 5, 6}));
  EXPECT_NE(warning.find("records lost: seq 3;"), std::string::npos) << warning;
  ASSERT_EQ(journal.damage().lost.size(), 1u);
  EXPECT_EQ(journal.damage().lost[0], std::make_pair(3u, 3u));
  EXPECT_EQ(journal.damage().tail_bound, 0u);
  EXPECT_EQ(journal.read_range(1, 6).size(), 5u);  // the damaged bytes are skipped
  EXPECT_EQ(journal.read_range(3, 4), std::vector<std::string>{event_bytes(4)});
  ASSERT_FALSE(journal.append(7, event_bytes(7)).has_value());
}

TEST_F(JournalTest, ReopenOfAPreallocatedJournalContinuesTheSeq) {
  write(3);
  {
    std::vector<std::uint32_t> seen;
    std::string warning;
    Journal journal = open(seen, warning);
    EXPECT_EQ(journal.logical_size(), records_size(3));
    EXPECT_GE(journal.allocated_size(), records_size(3) + Journal::kExtendBelowBytes);
    EXPECT_EQ(journal.allocated_size(), std::filesystem::file_size(path_));
    ASSERT_FALSE(journal.append(4, event_bytes(4)).has_value());
  }
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2, 3, 4}));
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(journal.logical_size(), records_size(4));  // appended at the logical end
  EXPECT_EQ(journal.read_range(1, 4).size(), 4u);
}

TEST_F(JournalTest, AllZeroFileIsAnEmptyJournal) {
  std::ofstream(path_, std::ios::binary) << std::string(5000, '\0');
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_TRUE(seen.empty());
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(journal.last_seq(), 0u);
  ASSERT_FALSE(journal.append(1, event_bytes(1)).has_value());
  EXPECT_EQ(contents().substr(0, records_size(1)),
            std::string(journal_format::kFileHeader) + encode_journal_record(event_bytes(1)));
}

TEST_F(JournalTest, RecordsCrossingChunkBoundariesExtendTheTail) {
  // Event bytes of ~1 KiB so a few hundred records cross two chunk boundaries.
  const auto big_event = [](std::uint32_t seq) {
    eboard::v1::Event event;
    event.set_seq(seq);
    event.mutable_device_status()->set_detail(std::string(1000, 'x'));
    return event.SerializeAsString();
  };
  std::vector<std::uint32_t> seen;
  std::string warning;
  std::uint32_t count = 0;
  {
    Journal journal = open(seen, warning);
    const std::uint64_t first = journal.allocated_size();
    while (journal.logical_size() < first + Journal::kPreallocBytes + 1) {
      ++count;
      ASSERT_FALSE(journal.append(count, big_event(count)).has_value());
      ASSERT_GE(journal.allocated_size(), journal.logical_size());
    }
    EXPECT_GE(journal.allocated_size(), journal.logical_size() + Journal::kExtendBelowBytes);
    EXPECT_EQ(journal.allocated_size() % Journal::kPreallocBytes, 0u);
  }
  Journal journal = open(seen, warning);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(journal.last_seq(), count);
  EXPECT_EQ(journal.read_range(count, count), std::vector<std::string>{big_event(count)});
}

TEST_F(JournalTest, JournalWithoutAZeroTailLoads) {
  // The format before preallocation: records up to the end of the file.
  std::string old(journal_format::kFileHeader);
  for (std::uint32_t seq = 1; seq <= 3; ++seq) old += encode_journal_record(event_bytes(seq));
  std::ofstream(path_, std::ios::binary) << old;
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2, 3}));
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(journal.logical_size(), old.size());
  EXPECT_GE(std::filesystem::file_size(path_),
            old.size() + Journal::kExtendBelowBytes);  // a tail now
  ASSERT_FALSE(journal.append(4, event_bytes(4)).has_value());
  EXPECT_EQ(journal.read_range(4, 4), std::vector<std::string>{event_bytes(4)});
}

TEST_F(JournalTest, GarbageOnlyFileLoadsEmpty) {
  std::ofstream(path_, std::ios::binary) << std::string("\xff\xff\xff\xff\xff\xff", 6);
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(journal.last_seq(), 0u);
  EXPECT_FALSE(warning.empty());
}

// The one seq jump a journal accepts: a seqsLost event naming exactly the seqs it skips
// (seq_reservation.h, after a power cut under --journal-fsync after-publish).
std::string gap_bytes(std::uint32_t first, std::uint32_t last) {
  eboard::v1::Event event;
  event.set_board_id("b1");
  event.set_seq(last + 1);
  event.mutable_seqs_lost()->set_first_seq(first);
  event.mutable_seqs_lost()->set_last_seq(last);
  return event.SerializeAsString();
}

TEST_F(JournalTest, SeqsLostGapLoadsAndReplaysFromInsideIt) {
  {
    std::vector<std::uint32_t> seen;
    std::string warning;
    Journal journal = open(seen, warning);
    for (std::uint32_t seq = 1; seq <= 3; ++seq)
      ASSERT_FALSE(journal.append(seq, event_bytes(seq)).has_value());
    EXPECT_TRUE(journal.append(2000, gap_bytes(4, 1999)).has_value())
        << "a jump needs SeqJump::kSeqsLost";
    ASSERT_FALSE(journal.append(2000, gap_bytes(4, 1999), Journal::SeqJump::kSeqsLost).has_value());
    ASSERT_FALSE(journal.append(2001, event_bytes(2001)).has_value());
    EXPECT_TRUE(journal.append(2003, event_bytes(2003)).has_value())
        << "only the gap event may jump";
  }
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_TRUE(warning.empty()) << warning;
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2, 3, 2000, 2001}));
  EXPECT_EQ(journal.last_seq(), 2001u);
  // From inside the gap: the gap event first (it says why), then what follows it.
  EXPECT_EQ(journal.read_range(4, 2001),
            (std::vector<std::string>{gap_bytes(4, 1999), event_bytes(2001)}));
  EXPECT_EQ(journal.read_range(1999, 2001).size(), 2u);
  EXPECT_EQ(journal.read_range(2001, 2001), std::vector<std::string>{event_bytes(2001)});
  EXPECT_EQ(journal.read_range(2, 3), (std::vector<std::string>{event_bytes(2), event_bytes(3)}));
  EXPECT_EQ(journal.read_range(3, 100).size(), 1u);  // the range ends inside the gap
  EXPECT_EQ(journal.read_range(1, 2001).size(), 5u);
  ASSERT_FALSE(journal.append(2002, event_bytes(2002)).has_value());
  EXPECT_EQ(journal.read_range(2002, 2002), std::vector<std::string>{event_bytes(2002)});
}

TEST_F(JournalTest, TornTailAfterAGapIsCutOff) {
  std::string bytes(journal_format::kFileHeader);
  for (std::uint32_t seq = 1; seq <= 2; ++seq) bytes += encode_journal_record(event_bytes(seq));
  bytes += encode_journal_record(gap_bytes(3, 500));
  const std::uint64_t good = bytes.size() + encode_journal_record(event_bytes(502)).size();
  bytes += encode_journal_record(event_bytes(502));
  const std::string torn = encode_journal_record(event_bytes(503));
  bytes += torn.substr(0, torn.size() - 2);
  std::ofstream(path_, std::ios::binary) << bytes;
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 2, 501, 502}));
  EXPECT_NE(warning.find("after seq 502"), std::string::npos) << warning;
  EXPECT_TRUE(journal.damage().lost.empty()) << "the declared gap is not a loss";
  EXPECT_EQ(contents().find_last_not_of('\0') + 1, good);
  ASSERT_FALSE(journal.append(503, event_bytes(503)).has_value());
}

TEST_F(JournalTest, JumpThatIsNotADeclaredGapNamesTheSeqsLost) {
  std::string bytes(journal_format::kFileHeader);
  bytes += encode_journal_record(event_bytes(1));
  bytes += encode_journal_record(gap_bytes(3, 9));  // claims 3..9, but 2 is missing too
  bytes += encode_journal_record(event_bytes(11));
  bytes += encode_journal_record(event_bytes(11));  // a seq again: not part of the chain
  bytes += encode_journal_record(event_bytes(12));
  std::ofstream(path_, std::ios::binary) << bytes;
  std::vector<std::uint32_t> seen;
  std::string warning;
  Journal journal = open(seen, warning);
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{1, 10, 11, 12}));
  EXPECT_NE(warning.find("records lost: seq 2..9"), std::string::npos) << warning;
  EXPECT_EQ(journal.last_seq(), 12u);
}

}  // namespace
}  // namespace eboard::daemon
