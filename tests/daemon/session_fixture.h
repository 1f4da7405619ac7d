// The head the tests that drive a BoardSession directly share: square numbers as the
// drivers count them, the standard game they set up, and a fixture that keeps what the
// session publishes (numbered as the hub numbers it, folded into a BoardState as the
// journal folds it) and runs commands the way eboardd does.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"
#include "daemon/core/command_journal.h"
#include "tests/daemon/published_events.h"

namespace eboard::daemon::testing_support {

// The drivers' square number of `file` `rank`: a1 = 0, b1 = 1, ..., h8 = 63.
constexpr int sq(char file, int rank) { return (rank - 1) * 8 + (file - 'a'); }

// A classical game as most of these tests play it: fide-standard, 90 min + 30 s a move.
inline GameSetup standard_setup() {
  GameSetup s;
  s.rules = "fide-standard";
  s.clock = "5400+30";
  return s;
}

class SessionFixture : public testing::Test {
 protected:
  // As eboardd runs a command (daemon.cpp): the session's answer at the next 100 ms of the
  // test's clock, then its commandApplied record.
  eboard::v1::Ack run(BoardSession& s, eboard::v1::Command c) {
    c.set_board_id("b1");
    const std::chrono::milliseconds now(t_ += 100);
    const eboard::v1::Ack ack = s.command(c, now);
    published_.publish()(command_applied(c, "test", ack, published_.seq(), state_.snapshot(),
                                         static_cast<std::int32_t>(now.count()), s.ruled_seqs()));
    return ack;
  }
  // The published events of one kind, e.g. of(&v1::Event::has_game_ended).
  std::vector<const eboard::v1::Event*> of(bool (eboard::v1::Event::*has)() const) const {
    std::vector<const eboard::v1::Event*> out;
    for (const auto& e : published_.events) {
      if ((e.*has)()) out.push_back(&e);
    }
    return out;
  }
  int count(bool (eboard::v1::Event::*has)() const) const {
    return static_cast<int>(of(has).size());
  }

  BoardState state_{"b1"};
  PublishedEvents published_{"b1", &state_};
  int t_ = 0;  // the test's clock in ms
};

}  // namespace eboard::daemon::testing_support
