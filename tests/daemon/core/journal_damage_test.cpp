// A damaged record costs that record only (journal.h, journal_format.h): the fixture
// cases under data/journals/ (one damaged journal a file, made by make_fixtures.py there),
// then damage at random offsets, seeded: bit flips and truncations of a journal of 200
// records. Every intact record is kept, the lost ones are named, and numbering continues
// above every seq the file held.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "daemon/core/journal.h"
#include "daemon/core/journal_format.h"
#include "daemon/core/seq_reservation.h"

namespace eboard::daemon {
namespace {

namespace fs = std::filesystem;

// The events of the fixtures (make_fixtures.py event()).
std::string event_bytes(std::uint32_t seq) {
  eboard::v1::Event event;
  event.set_board_id("b1");
  event.set_seq(seq);
  event.set_at_ms(static_cast<std::int32_t>(seq * 100));
  event.mutable_move_withdrawn()->set_uci("e2e4");
  return event.SerializeAsString();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class JournalDamageTest : public testing::Test {
 protected:
  std::string path_ = testing::TempDir() + "journal_damage_" + std::to_string(::getpid());
  void TearDown() override { fs::remove(path_); }

  struct Loaded {
    std::vector<std::uint32_t> seen;
    std::string warning;
    Journal::Damage damage;
    std::uint32_t last = 0;
  };
  Loaded load(FsyncPolicy policy = FsyncPolicy::kNever) {
    Loaded loaded;
    auto journal = Journal::open(
        path_, policy, [&](const eboard::v1::Event& e) { loaded.seen.push_back(e.seq()); },
        loaded.warning);
    EXPECT_TRUE(journal.ok()) << (journal.ok() ? "" : journal.error());
    if (!journal.ok()) return loaded;
    Journal& j = journal.value();
    loaded.damage = j.damage();
    loaded.last = j.last_seq();
    // Every kept record reads back as written, and the journal takes the next one.
    for (const std::uint32_t seq : loaded.seen) {
      EXPECT_EQ(j.read_range(seq, seq), std::vector<std::string>{event_bytes(seq)}) << seq;
    }
    EXPECT_FALSE(j.append(loaded.last + 1, event_bytes(loaded.last + 1)).has_value());
    return loaded;
  }
  static std::vector<std::uint32_t> seqs(std::uint32_t from, std::uint32_t to,
                                         std::set<std::uint32_t> without = {}) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t s = from; s <= to; ++s) {
      if (!without.count(s)) out.push_back(s);
    }
    return out;
  }
};

struct Fixture {
  const char* file;
  std::vector<std::uint32_t> kept;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> lost;
  std::uint32_t tail_bound;  // 0: no damaged tail
  const char* warning;       // part of the warning ("" : none)
};

TEST_F(JournalDamageTest, EachFixtureKeepsEveryIntactRecord) {
  using S = JournalDamageTest;
  const Fixture fixtures[] = {
      {"v1_intact.journal", S::seqs(1, 5), {}, 0, ""},
      {"v1_flipped_byte.journal", S::seqs(1, 20, {8}), {{8, 8}}, 0, "records lost: seq 8;"},
      {"v2_flipped_byte.journal", S::seqs(1, 20, {8}), {{8, 8}}, 0, "records lost: seq 8;"},
      {"v2_two_damaged_records.journal",
       S::seqs(1, 20, {5, 13}),
       {{5, 5}, {13, 13}},
       0,
       "records lost: seq 5, 13;"},
      {"v2_torn_tail.journal",
       S::seqs(1, 9),
       {},
       10,
       "9 bytes after seq 9 cut off (they could hold seqs up to 10)"},
      // 20 bytes of seq 7 left: at most two records of kMinRecordBytes.
      {"v2_truncated_mid_record.journal", S::seqs(1, 6), {}, 8, "20 bytes after seq 6 cut off"},
      {"v2_damaged_header.journal", S::seqs(1, 6), {}, 0, ""},
  };
  for (const Fixture& f : fixtures) {
    SCOPED_TRACE(f.file);
    fs::copy_file(std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/journals/" + f.file,
                  path_, fs::copy_options::overwrite_existing);
    const Loaded first = load();
    EXPECT_EQ(first.seen, f.kept);
    EXPECT_EQ(first.damage.lost, f.lost);
    EXPECT_EQ(first.damage.tail_bound, f.tail_bound);
    if (*f.warning) {
      EXPECT_NE(first.warning.find(f.warning), std::string::npos) << first.warning;
    } else {
      EXPECT_TRUE(first.warning.empty()) << first.warning;
    }
    // Whatever the format read, the current one is written; a second start finds the
    // same records (and the one appended), and no new damage.
    EXPECT_TRUE(read_file(path_).starts_with(journal_format::kFileHeader));
    const Loaded second = load();
    std::vector<std::uint32_t> again = f.kept;
    again.push_back(first.last + 1);
    EXPECT_EQ(second.seen, again);
    EXPECT_EQ(second.damage.tail_bound, 0u) << "the tail was cut off the first time";
    // Numbering continues above every seq the damaged file may have held.
    const SeqStart start =
        decide_seq_start(first.last, first.damage.tail_bound, ReservationRead{}, "boot");
    EXPECT_GT(start.next_seq, std::max(first.last, f.tail_bound));
  }
}

TEST_F(JournalDamageTest, OldFormatIsRewrittenInTheCurrentOne) {
  fs::copy_file(
      std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/journals/" + "v1_intact.journal",
      path_, fs::copy_options::overwrite_existing);
  std::string warning;
  auto journal = Journal::open(
      path_, FsyncPolicy::kNever, [](const eboard::v1::Event&) {}, warning);
  ASSERT_TRUE(journal.ok());
  EXPECT_TRUE(journal->damage().upgraded);
  EXPECT_FALSE(fs::exists(path_ + ".upgrade"));
  std::string expected(journal_format::kFileHeader);
  for (std::uint32_t seq = 1; seq <= 5; ++seq) expected += encode_journal_record(event_bytes(seq));
  EXPECT_EQ(read_file(path_).substr(0, expected.size()), expected);
}

// A journal of 200 records damaged at seeded random offsets, as a disk or a power cut
// would: each record whose bytes were not touched must be kept; each touched one is
// named lost, or lies in the damaged tail whose seqs numbering skips.
TEST_F(JournalDamageTest, RandomFlipsAndTruncationsCostOnlyTheRecordsHit) {
  constexpr std::uint32_t kRecords = 200;
  std::string intact(journal_format::kFileHeader);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> extent(kRecords + 1);
  for (std::uint32_t seq = 1; seq <= kRecords; ++seq) {
    extent[seq].first = intact.size();
    intact += encode_journal_record(event_bytes(seq));
    extent[seq].second = intact.size();
  }
  intact += std::string(4096, '\0');
  for (std::uint32_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    std::string bytes = intact;
    std::set<std::uint64_t> hit;
    const int flips = 1 + static_cast<int>(random() % 6);
    for (int i = 0; i < flips; ++i) {
      const std::uint64_t at = journal_format::kFileHeader.size() + random() % (bytes.size() - 18);
      bytes[at] = static_cast<char>(bytes[at] ^ (1 << (random() % 8)));
      hit.insert(at);
    }
    std::uint64_t cut = bytes.size();
    if (seed % 3 == 0)
      cut = journal_format::kFileHeader.size() + random() % (extent[kRecords].second - 18);
    bytes.resize(cut);
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;

    const Loaded loaded = load();
    const std::set<std::uint32_t> seen(loaded.seen.begin(), loaded.seen.end());
    for (std::uint32_t seq = 1; seq <= kRecords; ++seq) {
      // Copied: clang 14 lacks the C++20 rule that lets a lambda capture a structured binding.
      const auto [begin, end] = extent[seq];
      const bool touched = end > cut || std::any_of(hit.begin(), hit.end(),
                                                    [begin = begin, end = end](std::uint64_t at) {
                                                      return at >= begin && at < end;
                                                    });
      if (!touched) {
        EXPECT_TRUE(seen.count(seq)) << "intact seq " << seq << " lost";
        continue;
      }
      EXPECT_FALSE(seen.count(seq)) << "damaged seq " << seq << " kept";
      const bool named =
          std::any_of(loaded.damage.lost.begin(), loaded.damage.lost.end(),
                      [&](const auto& r) { return seq >= r.first && seq <= r.second; });
      const bool in_tail = seq > loaded.last && seq <= loaded.damage.tail_bound;
      const bool cut_away = begin >= cut;  // no byte of it left: only a reservation knows it
      EXPECT_TRUE(named || in_tail || cut_away) << "seq " << seq << " lost without a word";
    }
    // What a clean close recorded (the reservation at kRecords): numbering continues
    // above it whatever the damage; without one, above what the damaged bytes could hold.
    const ReservationRead clean{ReservationRead::Status::kValid,
                                SeqReservation{kRecords, "boot", true}, ""};
    EXPECT_GT(decide_seq_start(loaded.last, loaded.damage.tail_bound, clean, "boot").next_seq,
              kRecords);
    const std::uint32_t highest_left =
        cut >= extent[kRecords].second
            ? kRecords
            : static_cast<std::uint32_t>(std::count_if(
                  extent.begin() + 1, extent.end(), [&](const auto& e) { return e.first < cut; }));
    EXPECT_GT(
        decide_seq_start(loaded.last, loaded.damage.tail_bound, ReservationRead{}, "boot").next_seq,
        highest_left);
  }
}

}  // namespace
}  // namespace eboard::daemon
