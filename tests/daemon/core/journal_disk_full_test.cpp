// The journal survives the disk (journal.h "A full disk", event_hub.h set_retry_schedule):
// through the writer seam below every journal write, a disk that refuses writes (ENOSPC)
// and later takes them again. The record is never skipped (the file ends contiguous and
// complete), the stream waits under `always` and goes on under `after-publish`, where
// the reservation then trusts no restart (no seq reused), and the log says it once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "daemon/core/event_hub.h"
#include "daemon/core/journal.h"
#include "tests/daemon/core/hub_test_loop.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace hub_test;

// The disk: full or not; counts the writes it refused.
struct Disk {
  bool full = false;
  int refused = 0;
  Journal::Writer writer() {
    return [this](int fd, const void* data, std::size_t size, off_t offset) -> ssize_t {
      if (full) {
        ++refused;
        errno = ENOSPC;
        return -1;
      }
      return ::pwrite(fd, data, size, offset);
    };
  }
};

v1::Event clock_event(int ms) {
  v1::Event event;
  event.mutable_clock()->set_white_ms(ms);
  return event;
}

struct Seen final : EventListener {
  std::vector<v1::Event> events;
  void on_event(std::size_t, const v1::Event& e, const SharedBytes&) override {
    events.push_back(e);
  }
  std::vector<std::uint32_t> seqs() const {
    std::vector<std::uint32_t> out;
    for (const auto& e : events) out.push_back(e.seq());
    return out;
  }
};

class JournalDiskFullTest : public testing::Test {
 protected:
  std::string dir_ = testing::TempDir() + "disk_full_" + std::to_string(::getpid());
  std::string path_ = dir_ + "/b1.journal";
  std::ostringstream log_text_;
  Logger log_{log_text_, "eboardd"};
  Disk disk_;
  std::vector<std::chrono::milliseconds> retries_;  // delays the hub asked for
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void attach(EventHub& hub, FsyncPolicy policy) {
    std::string warning;
    auto journal = Journal::open(
        path_, policy, [](const v1::Event&) {}, warning, disk_.writer());
    ASSERT_TRUE(journal.ok());
    hub.attach_journal(0, std::move(journal).value(), BoardState("b1"));
    hub.set_retry_schedule([this](std::chrono::milliseconds delay, std::function<void()>) {
      retries_.push_back(delay);
    });
  }
  // The seqs of the journal file as a restart reads them.
  std::vector<std::uint32_t> journal_seqs(std::vector<v1::Event>* events = nullptr) {
    std::vector<std::uint32_t> seqs;
    std::string warning;
    auto journal = Journal::open(
        path_, FsyncPolicy::kNever,
        [&](const v1::Event& e) {
          seqs.push_back(e.seq());
          if (events) events->push_back(e);
        },
        warning);
    EXPECT_TRUE(warning.empty()) << warning;
    return seqs;
  }
  static std::vector<std::uint32_t> range(std::uint32_t from, std::uint32_t to) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t s = from; s <= to; ++s) out.push_back(s);
    return out;
  }
};

TEST_F(JournalDiskFullTest, RefusedRecordsWaitInOrderAndAreWrittenOnRetry) {
  std::string warning;
  auto opened = Journal::open(
      path_, FsyncPolicy::kNever, [](const v1::Event&) {}, warning, disk_.writer());
  ASSERT_TRUE(opened.ok());
  Journal journal = std::move(opened).value();
  const auto bytes = [](std::uint32_t seq) {
    v1::Event e;
    e.set_seq(seq);
    e.set_board_id("b1");
    return e.SerializeAsString();
  };
  for (std::uint32_t seq = 1; seq <= 3; ++seq)
    ASSERT_FALSE(journal.append(seq, bytes(seq)).has_value());
  disk_.full = true;
  for (std::uint32_t seq = 4; seq <= 6; ++seq)
    ASSERT_FALSE(journal.append(seq, bytes(seq)).has_value());
  EXPECT_EQ(journal.waiting_records(), 3u);
  EXPECT_EQ(journal.first_waiting_seq(), 4u);
  EXPECT_EQ(journal.last_seq(), 6u);
  EXPECT_EQ(journal.write_error(), std::strerror(ENOSPC));
  EXPECT_EQ(journal.read_range(1, 6).size(), 6u) << "waiting records replay (not under always)";
  EXPECT_FALSE(journal.retry());
  disk_.full = false;
  EXPECT_TRUE(journal.retry());
  EXPECT_FALSE(journal.waiting());
  ASSERT_FALSE(journal.append(7, bytes(7)).has_value());
  EXPECT_EQ(journal_seqs(), range(1, 7));
}

TEST_F(JournalDiskFullTest, AlwaysStreamWaitsForTheJournalThenGoesOnInOrder) {
  Loop loop;
  EventHub hub({"b1"}, log_);
  hub.set_group_commit([&loop](std::function<void()> task) { loop.post(std::move(task)); });
  attach(hub, FsyncPolicy::kAlways);
  Seen seen;
  hub.add_listener(&seen);
  hub.publish(0, clock_event(1));
  while (seen.events.size() < 1) ASSERT_GT(loop.run(true), 0u);

  disk_.full = true;
  // Seq 2 is refused; 3 says so (FAILING, right after the record it is about); 4, 5 wait.
  for (int i = 2; i <= 4; ++i) hub.publish(0, clock_event(i));
  bool acked = false;
  hub.when_published([&] { acked = true; });
  loop.run();
  EXPECT_EQ(seen.seqs(), range(1, 1)) << "nothing is published that is not on the disk";
  EXPECT_FALSE(acked);
  EXPECT_EQ(hub.waiting_records(), 4u);
  ASSERT_EQ(retries_.size(), 1u);
  EXPECT_EQ(retries_[0], EventHub::kFirstRetry);
  EXPECT_TRUE(hub.replay(0, 2).empty()) << "no replay of what was not published";

  for (int i = 0; i < 5; ++i) hub.retry_journals();  // still full: backoff, one line
  using std::chrono::milliseconds;
  EXPECT_EQ(retries_,
            (std::vector<milliseconds>{milliseconds(100), milliseconds(200), milliseconds(400),
                                       milliseconds(800), milliseconds(1600), milliseconds(3200)}));
  EXPECT_EQ(seen.seqs(), range(1, 1));

  disk_.full = false;
  hub.retry_journals();
  while (seen.events.size() < 6) ASSERT_GT(loop.run(true), 0u) << "never released";
  EXPECT_TRUE(acked);
  EXPECT_EQ(seen.seqs(), range(1, 6));
  ASSERT_TRUE(seen.events[2].has_storage_status());
  EXPECT_EQ(seen.events[2].storage_status().state(), v1::STORAGE_STATE_FAILING);
  EXPECT_EQ(seen.events[2].storage_status().first_waiting_seq(), 2u);
  EXPECT_EQ(seen.events[2].storage_status().waiting_records(), 1u);
  EXPECT_EQ(seen.events[2].storage_status().detail(), std::strerror(ENOSPC));
  EXPECT_EQ(seen.events[2].storage_status().path(), path_);
  ASSERT_TRUE(seen.events[5].has_storage_status());
  EXPECT_EQ(seen.events[5].storage_status().state(), v1::STORAGE_STATE_OK);
  EXPECT_EQ(seen.events[5].storage_status().waiting_records(), 4u);
  hub.close();
  EXPECT_EQ(journal_seqs(), range(1, 6)) << "contiguous and complete";

  const std::string log = log_text_.str();
  EXPECT_NE(log.find("<4>eboardd: board b1: journal " + path_ + ": cannot write: "),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("the stream waits for them"), std::string::npos) << log;
  // Five failed retries: one line, and the others counted, not five lines.
  const std::string still = "still cannot write";
  EXPECT_EQ(log.find(still), log.rfind(still)) << log;
  EXPECT_NE(log.find("<6>eboardd: board b1: journal " + path_ + ": written again; 4 record(s)"),
            std::string::npos)
      << log;
  log_.report_repeats();
  EXPECT_NE(log_text_.str().find("(repeated 4 more times)"), std::string::npos) << log_text_.str();
}

// Under after-publish the stream goes on while the disk is full, and the sidecar stops
// trusting a restart on the same boot: a process killed before the records are written
// restarts above every seq it published, with a seqsLost event naming them.
TEST_F(JournalDiskFullTest, AfterPublishStreamGoesOnAndAStopNeverReusesASeq) {
  std::vector<std::uint32_t> published;
  {
    EventHub hub({"b1"}, log_);
    attach(hub, FsyncPolicy::kAfterPublish);
    ASSERT_TRUE(hub.start_numbering(0, "boot-a", EventHub::Reserve::kAhead).ok());
    Seen seen;
    hub.add_listener(&seen);
    hub.publish(0, clock_event(1));
    disk_.full = true;
    hub.publish(0, clock_event(2));  // 2, then 3: FAILING
    hub.publish(0, clock_event(4));
    EXPECT_EQ(seen.seqs(), range(1, 4)) << "published at once";
    const ReservationRead sidecar = read_reservation(reservation_path(path_));
    ASSERT_EQ(sidecar.status, ReservationRead::Status::kValid);
    EXPECT_EQ(sidecar.reservation.boot_id, "") << "trusts no restart while records wait";
    published = seen.seqs();
    // Killed here: no close, the waiting records are never written.
    disk_.full = false;  // (the next run's disk)
  }
  EXPECT_EQ(journal_seqs(), range(1, 1));
  EventHub hub({"b1"}, log_);
  attach(hub, FsyncPolicy::kAfterPublish);
  auto start = hub.start_numbering(0, "boot-a", EventHub::Reserve::kAhead);  // the same boot
  ASSERT_TRUE(start.ok());
  ASSERT_TRUE(start->lost.has_value());
  EXPECT_EQ(start->lost->first, 2u);
  EXPECT_GT(start->next_seq, published.back());
  EXPECT_NE(start->reason.find("waited for the disk"), std::string::npos) << start->reason;
}

TEST_F(JournalDiskFullTest, AfterPublishRecoveryTrustsTheBootAgain) {
  EventHub hub({"b1"}, log_);
  attach(hub, FsyncPolicy::kAfterPublish);
  ASSERT_TRUE(hub.start_numbering(0, "boot-a", EventHub::Reserve::kAhead).ok());
  disk_.full = true;
  hub.publish(0, clock_event(1));
  disk_.full = false;
  hub.retry_journals();
  EXPECT_EQ(read_reservation(reservation_path(path_)).reservation.boot_id, "boot-a");
  hub.close();
  std::vector<v1::Event> events;
  EXPECT_EQ(journal_seqs(&events), range(1, 3));  // the event, FAILING, OK
  EXPECT_EQ(events[2].storage_status().state(), v1::STORAGE_STATE_OK);
  const ReservationRead closed = read_reservation(reservation_path(path_));
  EXPECT_TRUE(closed.reservation.clean);
}

TEST_F(JournalDiskFullTest, StopWhileFullSaysWhatIsLostAndIsNotClean) {
  EventHub hub({"b1"}, log_);
  attach(hub, FsyncPolicy::kAfterPublish);
  ASSERT_TRUE(hub.start_numbering(0, "boot-a", EventHub::Reserve::kAhead).ok());
  disk_.full = true;
  hub.publish(0, clock_event(1));
  hub.close();
  EXPECT_NE(log_text_.str().find("<3>eboardd: board b1: journal " + path_ +
                                 ": 2 record(s) could not be written before the stop"),
            std::string::npos)
      << log_text_.str();
  EXPECT_FALSE(read_reservation(reservation_path(path_)).reservation.clean);
}

}  // namespace
}  // namespace eboard::daemon
