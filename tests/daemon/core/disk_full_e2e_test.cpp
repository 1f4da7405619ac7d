// A full disk under the real daemon (journal.h "A full disk"): the journal on a small
// tmpfs of its own, filled by the test while a game is played. The daemon starts with
// 200 KiB free (its preallocation adapts), says the disk is full (storageStatus FAILING,
// a warning), and once space returns writes every record that waited: the journal ends
// contiguous and complete, the finished game's PGN is written, and a restart reuses no
// seq. Mounting needs CAP_SYS_ADMIN; where it is refused the test is skipped and says so
// (the seam tests of journal_disk_full_test.cpp cover the same logic without a mount).
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "daemon/core/journal.h"
#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
namespace fs = std::filesystem;
using namespace testing_support;
using namespace std::chrono_literals;

// Grows `path` with zeros until the file system refuses (ENOSPC).
void fill(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  ASSERT_NE(f, nullptr);
  const std::string block(4096, '\0');
  while (std::fwrite(block.data(), 1, block.size(), f) == block.size() && std::fflush(f) == 0) {
  }
  std::fclose(f);
}

class DiskFullE2e : public testing::Test {
 protected:
  std::string dir_ = temp_dir("disk_full");
  std::string mnt_ = dir_ + "/mnt";
  bool mounted_ = false;
  void SetUp() override {
    fs::create_directories(mnt_);
    if (::mount("tmpfs", mnt_.c_str(), "tmpfs", 0, "size=1m") != 0) {
      GTEST_SKIP() << "NOT RUN: cannot mount a tmpfs at " << mnt_ << " (" << std::strerror(errno)
                   << "); the full-disk e2e needs CAP_SYS_ADMIN";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(mnt_.c_str(), MNT_DETACH);
    fs::remove_all(dir_);
  }
  std::vector<std::string> args(const std::string& fsync) {
    auto a = daemon_args(dir_, "e2e=sim:" + kScript);
    a[std::find(a.begin(), a.end(), "--journal") - a.begin() + 1] = mnt_ + "/journal";
    a[std::find(a.begin(), a.end(), "--journal-fsync") - a.begin() + 1] = fsync;
    a.insert(a.end(), {"--sim-speed", "1"});
    return a;
  }
  // Leaves `bytes` free on the tmpfs (in whole pages) with a filler file.
  void leave_free(std::uint64_t bytes) {
    fill(mnt_ + "/filler");
    const auto size = fs::file_size(mnt_ + "/filler");
    fs::resize_file(mnt_ + "/filler", size > bytes ? size - bytes : 0);
  }
};

std::size_t count_kind(const std::vector<v1::Event>& events, v1::StorageState state) {
  return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const auto& e) {
    return e.has_storage_status() && e.storage_status().state() == state;
  }));
}

void full_disk_game(DiskFullE2e& t, const std::string& fsync, const std::string& dir,
                    const std::string& mnt, std::vector<std::string> args) {
  Child daemon(args);
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  ASSERT_TRUE(daemon.wait_for_stdout("gameStarted", 30s)) << daemon.err();
  // The disk fills; commands make events until the journal's tail is used up.
  fill(mnt + "/filler2");
  Client control(dir + "/events.sock");
  ASSERT_TRUE(control.connected());
  const auto failing = [&] {
    return daemon.out().find("STORAGE_STATE_FAILING") != std::string::npos ||
           daemon.err().find("cannot write: No space left on device") != std::string::npos;
  };
  for (int i = 0; i < 20000 && !failing(); ++i) {
    if (i % 50 == 0)
      daemon.wait_for([](const std::string&, const std::string&) { return false; }, 1ms);
    v1::Frame frame;
    frame.mutable_command()->set_command_id(static_cast<std::uint32_t>(i + 1));
    frame.mutable_command()->set_board_id("e2e");
    frame.mutable_command()->mutable_add_time()->set_side(v1::SIDE_WHITE);
    frame.mutable_command()->mutable_add_time()->set_delta_ms(1000);
    control.send(frame);
    // Under always the ack waits with the events for the disk: do not wait long for it.
    control.next([](const v1::Frame& f) { return f.has_ack(); }, 200ms);
  }
  ASSERT_TRUE(
      daemon.wait_for([&](const std::string&, const std::string&) { return failing(); }, 20s))
      << "the disk never filled: " << daemon.err();
  EXPECT_TRUE(daemon.wait_for_stderr("<4>eboardd: board e2e: journal ", 5s)) << daemon.err();
  // Space returns: every waiting record is written, the game goes on to its end.
  fs::remove(mnt + "/filler2");
  fs::remove(mnt + "/filler");
  ASSERT_TRUE(daemon.wait_for_stdout("STORAGE_STATE_OK", 20s)) << daemon.err();
  ASSERT_TRUE(daemon.wait_for_stdout("gameEnded", 60s)) << daemon.err();
  ASSERT_TRUE(poll_until([&] { return fs::exists(mnt + "/journal/e2e-game1.pgn"); }, 40s))
      << daemon.err();
  daemon.kill(SIGTERM);
  ASSERT_EQ(daemon.wait(10s), 0) << daemon.err();
  const auto published = parse_events(daemon.out());
  ASSERT_FALSE(published.empty());
  EXPECT_GE(count_kind(published, v1::STORAGE_STATE_FAILING), 1u);
  EXPECT_GE(count_kind(published, v1::STORAGE_STATE_OK), 1u);
  expect_gap_free(published);

  // The journal: contiguous and complete, every published event in it.
  std::vector<std::uint32_t> journalled;
  std::string warning;
  {
    auto journal = Journal::open(
        mnt + "/journal/e2e.journal", FsyncPolicy::kNever,
        [&](const v1::Event& e) { journalled.push_back(e.seq()); }, warning);
    ASSERT_TRUE(journal.ok());
  }
  EXPECT_TRUE(warning.empty()) << warning;
  ASSERT_EQ(journalled.size(), published.size()) << fsync;
  for (std::size_t i = 0; i < journalled.size(); ++i) EXPECT_EQ(journalled[i], i + 1);
  std::ifstream pgn(mnt + "/journal/e2e-game1.pgn");
  std::string text((std::istreambuf_iterator<char>(pgn)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Qxf7#"), std::string::npos) << text;

  // A restart numbers above every seq published.
  Child again(args);
  ASSERT_TRUE(again.wait_for_stdout("\"seq\"", 30s)) << again.err();
  const auto next = parse_events(again.out());
  ASSERT_FALSE(next.empty());
  EXPECT_GT(next.front().seq(), published.back().seq());
  (void)t;
}

// The preallocation was 256 KiB and the daemon did not start with 200 KiB free.
TEST_F(DiskFullE2e, StartsWith200KiBFree) {
  leave_free(200 * 1024);
  Child daemon(args("after-publish"));
  ASSERT_TRUE(ready(daemon)) << daemon.err();
  EXPECT_LE(fs::file_size(mnt_ + "/journal/e2e.journal"), 100u * 1024) << "half the free space";
  daemon.kill(SIGTERM);
  EXPECT_EQ(daemon.wait(10s), 0) << daemon.err();
}

TEST_F(DiskFullE2e, AfterPublishJournalEndsCompleteOnceSpaceReturns) {
  leave_free(24 * 1024);
  full_disk_game(*this, "after-publish", dir_, mnt_, args("after-publish"));
}

TEST_F(DiskFullE2e, AlwaysJournalEndsCompleteOnceSpaceReturns) {
  leave_free(24 * 1024);
  full_disk_game(*this, "always", dir_, mnt_, args("always"));
}

}  // namespace
}  // namespace eboard::daemon
