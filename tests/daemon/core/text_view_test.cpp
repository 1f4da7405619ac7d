// The text view's one-line event texts say what happened in words an arbiter reads at a
// glance.
#include "daemon/core/text_view.h"

#include <gtest/gtest.h>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

TEST(TextView, GameEndSaysWhoWonHowAndWhetherItIsFinal) {
  v1::Event e;
  e.set_board_id("b1");
  e.set_seq(7);
  auto* end = e.mutable_game_ended();
  end->set_result("0-1");
  end->set_termination(v1::TERMINATION_TIME_FORFEIT);
  EXPECT_EQ(event_line(e), "b1 #7 0:00.0 gameEnded 0-1: Black wins on time");
  end->set_result("1-0");
  end->set_termination(v1::TERMINATION_RESIGNATION);
  end->set_description("result gesture on the board: 1-0");
  end->set_proposed(true);
  EXPECT_EQ(event_line(e),
            "b1 #7 0:00.0 gameEnded 1-0: White wins by resignation (result gesture on the board: "
            "1-0); proposed: the game ends when the arbiter confirms it");
}

TEST(TextView, ClockMismatchShowsBothTimes) {
  v1::Event e;
  e.set_board_id("b1");
  e.set_seq(8);
  e.set_visibility(v1::VISIBILITY_ARBITER);
  auto* m = e.mutable_clock_mismatch();
  m->set_field(v1::CLOCK_FIELD_WHITE_MS);
  m->set_clock_value(300000);
  m->set_model_value(302000);
  EXPECT_EQ(
      event_line(e),
      "b1 #8 0:00.0 clockMismatch CLOCK_FIELD_WHITE_MS: clock 5:00.0, model 5:02.0  [arbiter]");
  m->set_field(v1::CLOCK_FIELD_WHITE_MOVES);
  m->set_clock_value(38);
  m->set_model_value(39);
  EXPECT_EQ(event_line(e),
            "b1 #8 0:00.0 clockMismatch CLOCK_FIELD_WHITE_MOVES: clock 38, model 39  [arbiter]");
}

TEST(TextView, SeqsLostNamesTheGap) {
  v1::Event e;
  e.set_board_id("b1");
  e.set_seq(1026);
  auto* lost = e.mutable_seqs_lost();
  lost->set_first_seq(44);
  lost->set_last_seq(1025);
  lost->set_reason("the kernel has restarted");
  EXPECT_EQ(event_line(e),
            "b1 #1026 0:00.0 seqsLost seqs 44..1025 may have been published and are lost (the "
            "kernel has restarted)");
}

TEST(TextView, StorageStatusSaysWhatWaits) {
  v1::Event e;
  e.set_board_id("b1");
  e.set_seq(7);
  auto* st = e.mutable_storage_status();
  st->set_state(v1::STORAGE_STATE_FAILING);
  st->set_detail("No space left on device");
  st->set_path("/var/lib/eboardd/b1.journal");
  st->set_waiting_records(2);
  st->set_first_waiting_seq(6);
  EXPECT_EQ(event_line(e),
            "b1 #7 0:00.0 storageStatus journal /var/lib/eboardd/b1.journal: cannot write (No "
            "space left on device), 2 record(s) waiting from seq 6");
}

}  // namespace
}  // namespace eboard::daemon
