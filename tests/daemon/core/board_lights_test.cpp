#include "daemon/core/board_lights.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

v1::Event illegal(std::vector<std::string> squares) {
  v1::Event e;
  for (auto& s : squares) e.mutable_illegal_move_pending()->add_squares(s);
  return e;
}

v1::Event completed(const std::string& uci) {
  v1::Event e;
  e.mutable_move_completed()->set_uci(uci);
  return e;
}

TEST(BoardLights, SquaresOfMoves) {
  EXPECT_EQ(square_bit("a1"), 1u);
  EXPECT_EQ(square_bit("h8"), std::uint64_t{1} << 63);
  EXPECT_EQ(move_squares("e2e4"), (std::uint64_t{1} << 12) | (std::uint64_t{1} << 28));
  EXPECT_EQ(move_squares("e7e8q"), (std::uint64_t{1} << 52) | (std::uint64_t{1} << 60));
  EXPECT_EQ(square_bit("i9"), 0u);
}

TEST(BoardLights, IllegalMoveFlashesThenTheCompletedMoveShowsForAMoment) {
  boost::asio::io_context io;
  ManualClock clock;
  std::vector<drivers::Lights> shown;
  BoardLights lights(io, clock, {true, false}, [&](std::size_t board, const drivers::Lights& l) {
    EXPECT_EQ(board, 0u);
    shown.push_back(l);
    return true;
  });
  const SharedBytes frame;
  lights.on_event(0, illegal({"e2", "e5"}), frame);
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].blink, square_bit("e2") | square_bit("e5"));
  EXPECT_EQ(shown[0].steady, 0u);
  lights.on_event(1, illegal({"a1"}), frame);  // board 1 shows no lights
  EXPECT_EQ(shown.size(), 1u);
  clock.advance(std::chrono::milliseconds(500));
  lights.on_event(0, completed("e2e4"), frame);
  ASSERT_EQ(shown.size(), 2u);
  EXPECT_EQ(shown[1].blink, 0u);
  EXPECT_EQ(shown[1].steady, move_squares("e2e4"));
  clock.advance(BoardLights::kLastMoveShown);
  EXPECT_EQ(lights.wanted(0), drivers::Lights{});
}

TEST(BoardLights, UpdatesCloserThanTheIntervalAreMerged) {
  boost::asio::io_context io;
  ManualClock clock;
  int sent = 0;
  BoardLights lights(io, clock, {true}, [&](std::size_t, const drivers::Lights&) {
    ++sent;
    return true;
  });
  const SharedBytes frame;
  lights.on_event(0, illegal({"e2"}), frame);
  lights.on_event(0, illegal({"e3"}), frame);
  lights.on_event(0, illegal({"e4"}), frame);
  EXPECT_EQ(sent, 1);  // the rest waits for the interval, then only the newest goes
  EXPECT_EQ(lights.wanted(0).blink, square_bit("e4"));
}

}  // namespace
}  // namespace eboard::daemon
