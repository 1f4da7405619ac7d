// The hub's group commit with the journal sync off the loop (event_hub.h, sync_worker.h):
// a batch under fsync `always` is published only after the worker thread synced it, in
// seq order, with when_published() callbacks (command acks) after the batch's events.
// The "loop" here is a task queue the test runs by hand; the only wait is for the worker
// thread's completion (a condition variable, bounded), never a sleep.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "daemon/core/event_hub.h"
#include "daemon/core/sync_worker.h"
#include "tests/daemon/core/hub_test_loop.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace hub_test;
using namespace std::chrono_literals;

v1::Event clock_event() {
  v1::Event event;
  event.mutable_clock()->set_white_ms(1000);
  return event;
}

class EventHubSyncTest : public testing::Test {
 protected:
  std::string dir_ = testing::TempDir() + "hub_sync_" + std::to_string(::getpid());
  Logger log_{std::cerr, "eboardd"};
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void attach(EventHub& hub, std::size_t board, FsyncPolicy policy) {
    std::string warning;
    auto journal = Journal::open(
        dir_ + "/" + std::to_string(board) + ".journal", policy, [](const v1::Event&) {}, warning);
    ASSERT_TRUE(journal.ok());
    hub.attach_journal(board, std::move(journal).value(), BoardState(hub.board_id(board)));
  }
};

TEST_F(EventHubSyncTest, AlwaysBatchIsPublishedAfterTheWorkerSyncedIt) {
  Loop loop;
  EventHub hub({"a", "b"}, log_);
  hub.set_group_commit([&loop](std::function<void()> task) { loop.post(std::move(task)); });
  attach(hub, 0, FsyncPolicy::kAlways);
  attach(hub, 1, FsyncPolicy::kAlways);
  Recorder recorder;
  hub.add_listener(&recorder);
  EXPECT_EQ(hub.publish(0, clock_event()), 1u);
  EXPECT_EQ(hub.publish(1, clock_event()), 1u);
  EXPECT_EQ(hub.publish(0, clock_event()), 2u);
  hub.when_published([&] { recorder.seen.push_back("ack"); });
  EXPECT_EQ(loop.run(), 1u);  // closes the batch, hands it to the worker
  EXPECT_TRUE(recorder.seen.empty()) << "published before its sync";
  // Meanwhile the loop goes on: another board's next event joins the next batch, which is
  // not published before its own sync (the first batch may be, if the worker is done).
  hub.publish(1, clock_event());
  loop.run();
  EXPECT_EQ(std::count(recorder.seen.begin(), recorder.seen.end(), "1:2"), 0);
  while (recorder.seen.size() < 5) ASSERT_GT(loop.run(true), 0u) << "the worker never finished";
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"0:1", "1:1", "0:2", "ack", "1:2"}));
  EXPECT_EQ(hub.replay(0, 1).size(), 2u);  // written to the journal, in order
}

// A batch that needs no sync of its own (fsync never) still waits behind one in flight.
TEST_F(EventHubSyncTest, BatchesStayInOrderBehindASync) {
  Loop loop;
  EventHub hub({"a", "b"}, log_);
  hub.set_group_commit([&loop](std::function<void()> task) { loop.post(std::move(task)); });
  attach(hub, 0, FsyncPolicy::kAlways);
  attach(hub, 1, FsyncPolicy::kNever);
  Recorder recorder;
  hub.add_listener(&recorder);
  hub.publish(0, clock_event());
  loop.run();
  EXPECT_TRUE(recorder.seen.empty());
  hub.publish(1, clock_event());  // whenever the worker is done, 1:1 comes after 0:1
  while (recorder.seen.size() < 2) ASSERT_GT(loop.run(true), 0u);
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"0:1", "1:1"}));
  // Nothing in flight, nothing to sync: published by the closing task itself.
  hub.publish(1, clock_event());
  hub.when_published([&] { recorder.seen.push_back("ack"); });
  EXPECT_EQ(loop.run(), 1u);
  EXPECT_EQ(recorder.seen.back(), "ack");
  EXPECT_EQ(recorder.seen[2], "1:2");
}

// The journal's zero tail (journal.h) is extended only once the batch that used it up is
// published, never in front of that batch's sync.
TEST_F(EventHubSyncTest, ZeroTailIsExtendedAfterTheBatchNotBeforeIt) {
  Loop loop;
  EventHub hub({"a"}, log_);
  hub.set_group_commit([&loop](std::function<void()> task) { loop.post(std::move(task)); });
  attach(hub, 0, FsyncPolicy::kAlways);
  const std::string path = dir_ + "/0.journal";
  const auto first = std::filesystem::file_size(path);
  ASSERT_EQ(first, Journal::kPreallocBytes);
  Recorder recorder;
  hub.add_listener(&recorder);
  v1::Event big;  // leaves less than kExtendBelowBytes of the tail
  big.mutable_device_status()->set_detail(
      std::string(Journal::kPreallocBytes - Journal::kExtendBelowBytes, 'x'));
  hub.publish(0, big);
  EXPECT_EQ(loop.run(), 1u);  // the batch goes to the worker
  EXPECT_EQ(std::filesystem::file_size(path), first) << "extended before the batch's sync";
  while (recorder.seen.empty()) ASSERT_GT(loop.run(true), 0u);
  EXPECT_EQ(std::filesystem::file_size(path), first + Journal::kPreallocBytes);
  // And the records go on at the logical end, found again on reopen.
  hub.publish(0, clock_event());
  while (recorder.seen.size() < 2) ASSERT_GT(loop.run(true), 0u);
  EXPECT_EQ(hub.replay(0, 1).size(), 2u);
}

// after-publish: the batch is handed to the listeners by the task that closes it, before
// its sync is even queued; no worker completion is needed (under always, the first test
// above, nothing is published by that task).
TEST_F(EventHubSyncTest, AfterPublishBatchIsPublishedBeforeItsSync) {
  Loop loop;
  EventHub hub({"a", "b"}, log_);
  hub.set_group_commit([&loop](std::function<void()> task) { loop.post(std::move(task)); });
  attach(hub, 0, FsyncPolicy::kAfterPublish);
  attach(hub, 1, FsyncPolicy::kAfterPublish);
  ASSERT_TRUE(hub.start_numbering(0, "boot", EventHub::Reserve::kAhead).ok());
  ASSERT_TRUE(hub.start_numbering(1, "boot", EventHub::Reserve::kAhead).ok());
  Recorder recorder;
  hub.add_listener(&recorder);
  hub.publish(0, clock_event());
  hub.publish(1, clock_event());
  hub.when_published([&] { recorder.seen.push_back("ack"); });
  EXPECT_EQ(loop.run(), 1u);  // only the closing task ran
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"0:1", "1:1", "ack"}));
  hub.publish(0, clock_event());
  EXPECT_EQ(loop.run(), 1u);
  EXPECT_EQ(recorder.seen.back(), "0:2");
  EXPECT_EQ(hub.reservation_waits(), 0u);
  EXPECT_EQ(hub.replay(0, 1).size(), 2u);
  hub.close();  // the queued syncs finish; then the clean mark
  EXPECT_TRUE(read_reservation(reservation_path(dir_ + "/0.journal")).reservation.clean);
}

// A seq above the durable reservation is not published until the worker has written the
// raised one: the whole reservation (kReserveAhead) used up inside one handler, before the
// loop could learn that any raise is on the disk.
TEST_F(EventHubSyncTest, AfterPublishEventAboveTheReservationWaitsForIt) {
  Loop loop;
  EventHub hub({"a"}, log_);
  hub.set_group_commit([&loop](std::function<void()> task) { loop.post(std::move(task)); });
  attach(hub, 0, FsyncPolicy::kAfterPublish);
  ASSERT_TRUE(hub.start_numbering(0, "boot", EventHub::Reserve::kAhead).ok());
  const std::string sidecar = reservation_path(dir_ + "/0.journal");
  const std::uint32_t first = read_reservation(sidecar).reservation.reserved;
  struct Checker final : EventListener {
    std::string path;
    std::uint32_t last = 0;
    int above = 0;
    void on_event(std::size_t, const v1::Event& e, const SharedBytes&) override {
      last = e.seq();
      if (e.seq() > read_reservation(path).reservation.reserved) ++above;
    }
  } checker;
  checker.path = sidecar;
  hub.add_listener(&checker);
  for (std::uint32_t i = 0; i < first + 10; ++i) hub.publish(0, clock_event());
  EXPECT_EQ(hub.reservation_waits(), 10u);
  // Closes the batch (it must wait for the worker); the worker may have posted a raise's
  // completion already, which runs after it. The batch's own completion cannot be queued
  // yet: its sync is handed over by the closing task.
  EXPECT_GE(loop.run(), 1u);
  EXPECT_EQ(checker.last, 0u) << "published above the durable reservation";
  while (checker.last < first + 10) ASSERT_GT(loop.run(true), 0u) << "the worker never finished";
  EXPECT_EQ(checker.above, 0) << "an event was out before its reservation was on the disk";
  EXPECT_GT(read_reservation(sidecar).reservation.reserved, first + 10);
}

TEST_F(EventHubSyncTest, WhenPublishedRunsAtOnceWithNothingWaiting) {
  EventHub hub({"a"}, log_);
  bool ran = false;
  hub.when_published([&] { ran = true; });
  EXPECT_TRUE(ran);
}

TEST(SyncWorker, RunsRequestsInOrderOnItsOwnThread) {
  std::mutex mutex;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  {
    SyncWorker worker;
    for (int i = 0; i < 3; ++i) {
      worker.submit({}, [&, i] {
        std::lock_guard lock(mutex);
        order.push_back(i);
        threads.push_back(std::this_thread::get_id());
      });
    }
  }  // the destructor finishes the queue before joining
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(threads.size(), 3u);
  EXPECT_NE(threads[0], std::this_thread::get_id());
}

}  // namespace
}  // namespace eboard::daemon
