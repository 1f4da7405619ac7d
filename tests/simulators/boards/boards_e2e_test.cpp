// The other families end to end: each emulator - ChessLink and Certabo on a real pty,
// Chessnut on the emulated USB bus - played through eboardd, the completed moves compared
// with `eboard-replay --no-clock` for the same clockless script (these boards report no
// clock, so eboardd completes their moves without presses, docs/clockless.md). Also:
// malformed frames give counted resyncs and no false move; the cable on the other side; a
// Certabo calibration from a set-up with the queens swapped is refused; a USB board
// attached and detached by its serial number. Waits are bounded and event-driven, never
// fixed sleeps.
#include "tests/simulators/boards/boards_e2e.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace testing_support;
using namespace boards_e2e;
using namespace std::chrono_literals;

struct PlayedGame {
  std::string daemon_out;
  std::string daemon_err;
  std::string sim_err;
};

// Plays `script` with `family`'s emulator (extra options `sim_extra`) through eboardd and
// returns once `moves` moves were completed (or the time is up). `speed` 0: as fast as the
// daemon reads.
PlayedGame play(const std::string& dir, const std::string& family, const std::string& script,
                std::size_t moves, std::vector<std::string> sim_extra = {},
                const std::string& speed = "0") {
  std::filesystem::create_directories(dir + "/journal");
  std::vector<std::string> sim_args = {kBin + "/eboard-sim", family, "--speed", speed};
  std::string board;
  std::vector<std::string> daemon_extra;
  if (family == "chessnut") {
    sim_args.insert(sim_args.end(), {"--usb-bus", dir + "/usb", "--serial", "C0FFEE"});
    board = "b1=chessnut:usb,serial=C0FFEE";
    daemon_extra = {"--usb-emulator", dir + "/usb"};
  } else {
    sim_args.insert(sim_args.end(), {"--link", dir + "/b1.pty"});
    board = "b1=" + family + ":" + dir + "/b1.pty";
  }
  if (family == "certabo") {
    // A board calibrated earlier with its spare pieces (eboardd keeps JOURNAL/BOARD.calibration).
    sim_args.insert(sim_args.end(), {"--calibration-out", dir + "/journal/b1.calibration"});
  }
  sim_args.insert(sim_args.end(), sim_extra.begin(), sim_extra.end());
  sim_args.push_back(script);
  Child sim(sim_args);
  EXPECT_TRUE(sim.wait_for_stderr(family == "chessnut" ? "plugged in" : "->", 10s)) << sim.err();
  std::vector<std::string> args = {kBin + "/eboardd",
                                   "--board",
                                   board,
                                   "--listen",
                                   "unix:" + dir + "/events.sock",
                                   "--journal",
                                   dir + "/journal",
                                   "--journal-fsync",
                                   "never",
                                   "--runtime-dir",
                                   dir,
                                   "--print",
                                   "json"};
  args.insert(args.end(), daemon_extra.begin(), daemon_extra.end());
  for (const auto& name : kNoTimers) {
    args.insert(args.end(), {"--param", name + "=" + kOutOfReach});
  }
  Child daemon(args);
  EXPECT_TRUE(daemon.wait_for_stderr("ready:", 15s)) << daemon.err();
  // Both are read in turns (a child whose output is not read stops). At --speed 0 the
  // emulator plays as fast as the daemon reads, so once the script is finished the last
  // reports are handled at once: a moment later nothing more will come.
  const auto done = [&](const std::string& out, const std::string&) {
    return moves_of(out).size() >= moves;
  };
  const auto end = std::chrono::steady_clock::now() + scaled(120s);
  while (!daemon.wait_for(done, 200ms) && std::chrono::steady_clock::now() < end) {
    if (sim.wait_for_stderr("script finished", 10ms)) {
      daemon.wait_for(done, 2s);
      break;
    }
  }
  PlayedGame run{daemon.out(), daemon.err(), sim.err()};
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  run.daemon_out = daemon.out();
  return run;
}

class BoardsE2e : public ::testing::TestWithParam<std::string> {};

TEST_P(BoardsE2e, CorpusGamesComeOutAsThroughEboardReplay) {
  for (const int k : {3, 42}) {
    const std::string dir = temp_dir("boards");
    const std::string script = clockless_script(dir, k, k % 2 ? "human" : "rough");
    const auto expected = replay_moves(script);
    ASSERT_GT(expected.size(), 20u);
    const PlayedGame run = play(dir, GetParam(), script, expected.size());
    const auto got = moves_of(run.daemon_out);
    EXPECT_EQ(got, expected) << GetParam() << " game " << k << ": " << difference(got, expected)
                             << "\n"
                             << run.daemon_err << run.sim_err;
    EXPECT_EQ(count_of(run.daemon_out, &v1::Event::has_illegal_move_completed), 0);
    // The clockless completion applies because the board says it has no clock: moves
    // complete as the opponent's lands, not at their player's next move (6.2.1.2).
    int no_clock = 0;
    int clockless = 0;
    for (const auto& e : parse_events(run.daemon_out)) {
      no_clock += e.has_device_status() && e.device_status().role() == v1::DEVICE_ROLE_CLOCK &&
                  e.device_status().state() == v1::DEVICE_STATE_ABSENT;
      clockless += e.has_move_completed() &&
                   e.move_completed().completion() == v1::COMPLETION_OPPONENT_BEGAN;
    }
    EXPECT_GT(no_clock, 0) << GetParam();
    EXPECT_EQ(clockless, static_cast<int>(got.size())) << GetParam();
    std::filesystem::remove_all(dir);
  }
}

// Game 42: a full status that came while a piece was in the hand (the queen lifted to
// answer Rd1) was read as moves nobody made (Re1 Qd1 Rxd1), and an illegal move followed.
TEST_P(BoardsE2e, MalformedFramesGiveCountedResyncsNeverAFalseMove) {
  for (const int k : {7, 42}) {
    const std::string dir = temp_dir("boards");
    const std::string script = clockless_script(dir, k, "human");
    const auto expected = replay_moves(script);
    const std::vector<std::string> faults =
        GetParam() == "chessnut"
            ? std::vector<std::string>{"--drop", "7", "--seed", "3"}
            : std::vector<std::string>{"--garbage", "7", "--drop", "11", "--seed", "3"};
    // 40 times the players' pace, a move every few hundred milliseconds: far faster than a
    // hall, slow enough that a lost report's full status comes back before the game is
    // several moves on (at --speed 0 it never does).
    const PlayedGame run = play(dir, GetParam(), script, expected.size(), faults, "40");
    const auto got = moves_of(run.daemon_out);
    // Lost reports may delay a move, never invent one, and the moves made behind them are
    // found in the next full status: every move completes.
    std::cout << GetParam() << " game " << k << " with faults: " << got.size() << " of "
              << expected.size() << " moves completed\n";
    EXPECT_EQ(got, expected) << "game " << k << ": " << difference(got, expected) << "\n"
                             << run.daemon_err;
    int resyncs = 0;
    for (const auto& e : parse_events(run.daemon_out)) {
      resyncs += e.has_device_status() && e.device_status().state() == v1::DEVICE_STATE_RESYNCING;
    }
    EXPECT_GT(resyncs, 0);
    EXPECT_EQ(count_of(run.daemon_out, &v1::Event::has_illegal_move_completed), 0);
    std::filesystem::remove_all(dir);
  }
}

INSTANTIATE_TEST_SUITE_P(Families, BoardsE2e,
                         ::testing::Values("chesslink", "certabo", "chessnut"));

TEST(BoardsE2eSingle, ChessLinkWithTheCableOnTheOtherSide) {
  const std::string dir = temp_dir("boards");
  const std::string script = clockless_script(dir, 11, "human");
  const auto expected = replay_moves(script);
  const PlayedGame run = play(dir, "chesslink", script, expected.size(), {"--cable", "other"});
  EXPECT_EQ(moves_of(run.daemon_out), expected) << run.daemon_err;
  EXPECT_NE(run.daemon_err.find("orientation status read a8 first"), std::string::npos)
      << run.daemon_err;
  std::filesystem::remove_all(dir);
}

TEST(BoardsE2eSingle, CertaboCalibrationWithSwappedQueensIsRefused) {
  const std::string dir = temp_dir("boards");
  const std::string script = clockless_script(dir, 5, "clean");
  std::filesystem::create_directories(dir + "/state");
  Child sim({kBin + "/eboard-sim", "certabo", "--link", dir + "/b1.pty", "--speed", "0", "--swap",
             "d1,d8", "--calibration-out", dir + "/state/dump.calibration", script});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  Child dump({kBin + "/eboard-dump", "certabo:" + dir + "/b1.pty", "--state-dir", dir + "/state",
              "--recalibrate", "--seconds", "20"});
  EXPECT_TRUE(
      dump.wait_for_stderr("calibration refused: d1 holds the black queen, not the white "
                           "queen; d8 holds the white queen, not the black queen",
                           20s))
      << dump.err();
  std::filesystem::remove_all(dir);
}

// Hot-plug through the seam below libusb: the board is attached when it is plugged in and
// detached when it is unplugged, by its serial number; another serial is not taken.
TEST(BoardsE2eSingle, UsbBoardIsAttachedAndDetachedBySerialNumber) {
  const std::string dir = temp_dir("boards");
  const std::string script = clockless_script(dir, 9, "clean");
  std::filesystem::create_directories(dir + "/usb");
  Child daemon({kBin + "/eboardd", "--board", "b1=chessnut:usb,serial=B1", "--usb-emulator",
                dir + "/usb", "--listen", "unix:" + dir + "/events.sock", "--journal",
                dir + "/journal", "--journal-fsync", "never", "--runtime-dir", dir, "--print",
                "json"});
  ASSERT_TRUE(daemon.wait_for_stderr("ready:", 15s)) << daemon.err();
  // Another board (serial B2) is plugged in: not this one.
  Child other({kBin + "/eboard-sim", "chessnut", "--usb-bus", dir + "/usb", "--serial", "B2",
               "--speed", "0", script});
  ASSERT_TRUE(other.wait_for_stderr("plugged in", 10s));
  // B1 arrives, plays until it is unplugged at 20 s of script time, and comes back.
  Child board({kBin + "/eboard-sim", "chessnut", "--usb-bus", dir + "/usb", "--serial", "B1",
               "--speed", "10", "--hangup-at", "20", "--hangup-for", "2", script});
  const auto connected = [](const std::string& out) {
    int n = 0;
    for (const auto& e : parse_events(out)) {
      n += e.has_device_status() && e.device_status().state() == v1::DEVICE_STATE_CONNECTED;
    }
    return n;
  };
  EXPECT_TRUE(daemon.wait_for(
      [&](const std::string& out, const std::string&) { return connected(out) >= 1; }, 15s))
      << daemon.err();
  EXPECT_TRUE(board.wait_for_stderr("unplugged at", 30s)) << board.err();
  EXPECT_TRUE(daemon.wait_for(
      [&](const std::string& out, const std::string&) { return connected(out) >= 2; }, 20s))
      << daemon.err();
  int lost = 0;
  for (const auto& e : parse_events(daemon.out())) {
    if (e.has_device_status() && e.device_status().state() == v1::DEVICE_STATE_DISCONNECTED &&
        e.device_status().detail().find("emulated:2d80-8001-B1.hid") != std::string::npos) {
      ++lost;
    }
    if (e.has_device_status()) {
      EXPECT_EQ(e.device_status().detail().find("B2"), std::string::npos)
          << e.device_status().detail();
    }
  }
  EXPECT_EQ(lost, 1);
  EXPECT_GT(moves_of(daemon.out()).size(), 3u);
  std::filesystem::remove_all(dir);
}

// A board with another serial number on a configured path is not taken; without serial=,
// another board showing up on the same port is taken with a warning naming both.
TEST(DgtSerialE2e, AnotherBoardOnTheSamePathIsRefusedOrWarnedAbout) {
  const std::string dir = temp_dir("boards");
  const std::string script = clockless_script(dir, 2, "clean");
  const std::string link = dir + "/b1.pty";
  auto first = std::make_unique<Child>(std::vector<std::string>{
      kBin + "/eboard-sim", "dgt", "--link", link, "--speed", "1", "--serial", "11111", script});
  ASSERT_TRUE(first->wait_for_stderr("->", 10s)) << first->err();
  {
    Child refused({kBin + "/eboardd", "--board", "b1=dgt:" + link + ",serial=22222", "--listen",
                   "unix:" + dir + "/r.sock", "--journal", dir + "/r", "--journal-fsync", "never",
                   "--runtime-dir", dir});
    EXPECT_TRUE(
        refused.wait_for_stderr("the board here has serial 11111, not 22222: not taken", 15s))
        << refused.err();
  }
  Child daemon({kBin + "/eboardd", "--board", "b1=dgt:" + link, "--listen",
                "unix:" + dir + "/events.sock", "--journal", dir + "/journal", "--journal-fsync",
                "never", "--runtime-dir", dir});
  ASSERT_TRUE(daemon.wait_for_stderr("serial 11111", 15s)) << daemon.err();
  first.reset();  // unplugged; another board on the same port
  Child second(
      {kBin + "/eboard-sim", "dgt", "--link", link, "--speed", "1", "--serial", "33333", script});
  EXPECT_TRUE(daemon.wait_for_stderr("now board 33333, not board 11111 as before", 20s))
      << daemon.err();
  std::filesystem::remove_all(dir);
}

// eboard-dump on a device that never worked: one line naming it, exit 2.
TEST(EboardDumpE2e, ADeviceThatNeverOpenedExitsTwoWithOneLine) {
  Child dump({kBin + "/eboard-dump", "chesslink:/nonexistent/tty"});
  EXPECT_EQ(dump.wait(10s), 2);
  EXPECT_EQ(dump.err(), "eboard-dump: /nonexistent/tty: cannot open: No such file or directory\n");
  EXPECT_EQ(dump.out(), "");
  Child usb({kBin + "/eboard-dump", "chessnut:usb,serial=X", "--usb-emulator",
             temp_dir("boards") + "/usb", "--seconds", "0.5"});
  EXPECT_EQ(usb.wait(10s), 2);
  EXPECT_NE(usb.err().find("eboard-dump: chessnut:usb: no board answered"), std::string::npos)
      << usb.err();
}

// The DGT emulator unplugs at --hangup-at even at a speed where its clock writes more
// often than the quiet time it waits for before the line goes dead.
TEST(DgtEmulatorE2e, HangupAtHighSpeedDoesNotStall) {
  const std::string dir = temp_dir("boards");
  const std::string script = clockless_script(dir, 2, "clean");
  Child sim({kBin + "/eboard-sim", "dgt", "--link", dir + "/b1.pty", "--speed", "50", "--hangup-at",
             "30", "--hangup-for", "1", script});
  ASSERT_TRUE(sim.wait_for_stderr("->", 10s)) << sim.err();
  Child dump({kBin + "/eboard-dump", "dgt:" + dir + "/b1.pty"});
  EXPECT_TRUE(sim.wait_for_stderr("plugged in again", 20s)) << sim.err();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::daemon
