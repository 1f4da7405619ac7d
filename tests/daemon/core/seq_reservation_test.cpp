// Seqs reserved ahead for --journal-fsync after-publish (seq_reservation.h): the sidecar
// file, the start decision, and the hub's restarts with the same or another boot id, with
// and without a clean close. The hub runs without group commit here (journal syncs and
// reservation writes inline), so every step is deterministic; the worker-thread side is in
// event_hub_sync_test.cpp. "Rebooted" is a different boot id string, not a reboot.
#include "daemon/core/seq_reservation.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "daemon/core/event_hub.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

constexpr const char* kBootA = "5f1c1a8e-0000-4000-8000-00000000000a";
constexpr const char* kBootB = "5f1c1a8e-0000-4000-8000-00000000000b";

class SeqReservationTest : public testing::Test {
 protected:
  std::string dir_ = testing::TempDir() + "seq_reservation_" + std::to_string(::getpid());
  Logger log_{std::cerr, "eboardd"};
  std::string journal_path_ = dir_ + "/b1.journal";
  std::string sidecar_ = reservation_path(journal_path_);
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // One daemon run: opens the journal, reserves under `boot`, publishes `events` clock
  // events; `clean` closes the hub as a clean shutdown does. Returns every seq published.
  std::vector<std::uint32_t> run(const std::string& boot, int events, bool clean,
                                 std::vector<v1::Event>* published = nullptr) {
    std::string warning;
    BoardState state("b1");
    // kNever: the reservation is the hub's, whatever the journal syncs; without group
    // commit an after-publish journal would fdatasync every record inline (slow here).
    auto journal = Journal::open(
        journal_path_, FsyncPolicy::kNever, [&](const v1::Event& e) { state.apply(e); }, warning);
    EXPECT_TRUE(journal.ok());
    EventHub hub({"b1"}, log_);
    hub.attach_journal(0, std::move(journal).value(), state);
    struct Seqs final : EventListener {
      std::vector<std::uint32_t> seqs;
      std::vector<v1::Event>* events = nullptr;
      void on_event(std::size_t, const v1::Event& e, const SharedBytes&) override {
        seqs.push_back(e.seq());
        if (events) events->push_back(e);
      }
    } seqs;
    seqs.events = published;
    hub.add_listener(&seqs);
    auto start = hub.start_numbering(0, boot, EventHub::Reserve::kAhead);
    EXPECT_TRUE(start.ok()) << (start.ok() ? "" : start.error());
    for (int i = 0; i < events; ++i) {
      v1::Event e;
      e.mutable_clock()->set_white_ms(i);
      hub.publish(0, e);
      // Never published above what the disk already says may be in use.
      EXPECT_LE(seqs.seqs.back(), read_reservation(sidecar_).reservation.reserved);
    }
    if (clean) hub.close();
    return seqs.seqs;
  }
  std::vector<std::string> replay(std::uint32_t from) {
    std::string warning;
    auto journal = Journal::open(
        journal_path_, FsyncPolicy::kNever, [](const v1::Event&) {}, warning);
    EXPECT_TRUE(journal.ok());
    return journal->read_range(from, journal->last_seq());
  }
};

TEST_F(SeqReservationTest, SidecarRoundTripsAndRejectsDamage) {
  ASSERT_FALSE(write_reservation(sidecar_, SeqReservation{4242, kBootA, false}).has_value());
  ReservationRead read = read_reservation(sidecar_);
  ASSERT_EQ(read.status, ReservationRead::Status::kValid) << read.problem;
  EXPECT_EQ(read.reservation.reserved, 4242u);
  EXPECT_EQ(read.reservation.boot_id, kBootA);
  EXPECT_FALSE(read.reservation.clean);
  EXPECT_FALSE(std::filesystem::exists(sidecar_ + ".tmp"));

  const std::string line = encode_reservation(SeqReservation{4242, kBootA, true});
  const auto damaged = [&](const std::string& bytes, const std::string& why) {
    std::ofstream(sidecar_, std::ios::binary | std::ios::trunc) << bytes;
    const ReservationRead r = read_reservation(sidecar_);
    EXPECT_EQ(r.status, ReservationRead::Status::kDamaged) << bytes;
    EXPECT_NE(r.problem.find(why), std::string::npos) << r.problem;
    EXPECT_NE(r.problem.find(sidecar_), std::string::npos) << "names the file";
  };
  damaged(line.substr(0, line.size() - 7), "incomplete");
  damaged(std::string(40, '\0'), "incomplete");
  damaged("\x13\x37garbage\n", "bad header");
  std::string flipped = line;
  flipped[line.find("reserved=") + 9] = '9';
  damaged(flipped, "checksum mismatch");
  damaged(std::string(2000, 'x'), "longer");
  std::filesystem::remove(sidecar_);
  EXPECT_EQ(read_reservation(sidecar_).status, ReservationRead::Status::kMissing);
}

TEST_F(SeqReservationTest, DecideSeqStart) {
  ReservationRead read;  // missing: the journal is the truth
  EXPECT_EQ(decide_seq_start(10, 0, read, kBootA).next_seq, 11u);
  read.status = ReservationRead::Status::kValid;
  read.reservation = SeqReservation{1034, kBootA, false};
  EXPECT_EQ(decide_seq_start(10, 0, read, kBootA).next_seq, 11u);  // same boot: page cache kept it
  const SeqStart rebooted = decide_seq_start(10, 0, read, kBootB);
  EXPECT_EQ(rebooted.next_seq, 1035u);
  ASSERT_TRUE(rebooted.lost.has_value());
  EXPECT_EQ(*rebooted.lost, std::make_pair(11u, 1034u));
  EXPECT_FALSE(rebooted.reason.empty());
  EXPECT_EQ(decide_seq_start(10, 0, read, "").next_seq, 1035u);  // unknown boot: the safe side
  read.reservation.clean = true;  // a clean close at 1034: the journal lost its end since
  const SeqStart shortened = decide_seq_start(10, 0, read, kBootB);
  EXPECT_EQ(shortened.next_seq, 1035u);
  EXPECT_NE(shortened.reason.find("clean close"), std::string::npos) << shortened.reason;
  read.reservation = SeqReservation{1034, "", false};  // records waited for a full disk
  const SeqStart waited = decide_seq_start(10, 0, read, kBootA);
  EXPECT_EQ(waited.next_seq, 1035u) << "the same boot does not help: they were never written";
  EXPECT_NE(waited.reason.find("waited for the disk"), std::string::npos) << waited.reason;
  read.reservation = SeqReservation{10, kBootA, false};  // nothing promised beyond the journal
  EXPECT_FALSE(decide_seq_start(10, 0, read, kBootB).lost.has_value());
  // A damaged journal tail: above every seq it could have held, whatever the sidecar.
  const SeqStart torn = decide_seq_start(10, 14, ReservationRead{}, kBootA);
  EXPECT_EQ(torn.next_seq, 15u);
  EXPECT_EQ(*torn.lost, std::make_pair(11u, 14u));
  read.reservation = SeqReservation{1034, kBootA, false};
  EXPECT_EQ(decide_seq_start(10, 14, read, kBootA).next_seq, 15u) << "same boot: the tail bound";
  EXPECT_EQ(decide_seq_start(10, 14, read, kBootB).next_seq, 1035u) << "rebooted: the reservation";
  read.status = ReservationRead::Status::kDamaged;
  const SeqStart unknown = decide_seq_start(10, 0, read, kBootA);
  EXPECT_EQ(unknown.next_seq, 10 + kUnknownJump + 1);
  EXPECT_TRUE(unknown.lost.has_value());
}

TEST_F(SeqReservationTest, ReservationStaysAheadAndIsOnDiskBeforeSeqsPassIt) {
  const auto seqs = run(kBootA, 2000, false);  // run() checks every seq against the file
  ASSERT_EQ(seqs.size(), 2000u);
  EXPECT_EQ(seqs.back(), 2000u);
  const ReservationRead read = read_reservation(sidecar_);
  EXPECT_GE(read.reservation.reserved, 2000u + kRaiseMargin);
  EXPECT_EQ(read.reservation.boot_id, kBootA);
}

TEST_F(SeqReservationTest, RestartOnTheSameBootContinuesAtLastPlusOne) {
  run(kBootA, 5, false);  // a kill -9: no clean close
  const auto seqs = run(kBootA, 2, false);
  EXPECT_EQ(seqs, (std::vector<std::uint32_t>{6, 7}));
}

TEST_F(SeqReservationTest, RebootWithoutCleanCloseContinuesAboveTheReservation) {
  run(kBootA, 5, false);
  const std::uint32_t reserved = read_reservation(sidecar_).reservation.reserved;
  ASSERT_GT(reserved, 5u);
  std::vector<v1::Event> events;
  const auto seqs = run(kBootB, 2, false, &events);
  ASSERT_EQ(seqs.size(), 3u);  // the seqsLost event first, then the two new ones
  EXPECT_EQ(seqs, (std::vector<std::uint32_t>{reserved + 1, reserved + 2, reserved + 3}));
  ASSERT_TRUE(events[0].has_seqs_lost());
  EXPECT_EQ(events[0].seqs_lost().first_seq(), 6u);
  EXPECT_EQ(events[0].seqs_lost().last_seq(), reserved);
  EXPECT_EQ(events[0].visibility(), v1::VISIBILITY_PUBLIC);
  // The journal keeps the gap: a consumer resuming from a lost seq gets the gap event.
  const auto from_lost = replay(7);
  ASSERT_EQ(from_lost.size(), 3u);
  v1::Event first;
  ASSERT_TRUE(first.ParseFromString(from_lost[0]));
  EXPECT_TRUE(first.has_seqs_lost());
  EXPECT_EQ(replay(1).size(), 8u);
  // And the next restart on the new boot continues after it, no second gap.
  EXPECT_EQ(run(kBootB, 1, false), std::vector<std::uint32_t>{reserved + 4});
}

TEST_F(SeqReservationTest, CleanCloseThenRebootContinuesAtLastPlusOne) {
  run(kBootA, 5, true);
  EXPECT_TRUE(read_reservation(sidecar_).reservation.clean);
  EXPECT_EQ(run(kBootB, 1, false), std::vector<std::uint32_t>{6});
  EXPECT_FALSE(read_reservation(sidecar_).reservation.clean) << "running again: not clean";
}

TEST_F(SeqReservationTest, GarbageSidecarJumpsConservativelyWithAWarning) {
  run(kBootA, 3, false);
  std::ofstream(sidecar_, std::ios::binary | std::ios::trunc) << "eboardd-seq-reservation 1 reser";
  std::vector<v1::Event> events;
  const auto seqs = run(kBootA, 1, false, &events);
  ASSERT_EQ(seqs.size(), 2u);
  EXPECT_EQ(seqs[0], 3 + kUnknownJump + 1);
  ASSERT_TRUE(events[0].has_seqs_lost());
  EXPECT_NE(events[0].seqs_lost().reason().find("unreadable"), std::string::npos);
  EXPECT_EQ(read_reservation(sidecar_).status, ReservationRead::Status::kValid) << "rewritten";
}

TEST_F(SeqReservationTest, OldJournalWithoutSidecarContinues) {
  {
    std::string warning;
    auto journal = Journal::open(
        journal_path_, FsyncPolicy::kAlways, [](const v1::Event&) {}, warning);
    ASSERT_TRUE(journal.ok());
    EventHub hub({"b1"}, log_);
    hub.attach_journal(0, std::move(journal).value(), BoardState("b1"));
    for (int i = 0; i < 4; ++i) hub.publish(0, v1::Event());
  }
  ASSERT_FALSE(std::filesystem::exists(sidecar_));
  EXPECT_EQ(run(kBootB, 1, false), std::vector<std::uint32_t>{5});
}

}  // namespace
}  // namespace eboard::daemon
