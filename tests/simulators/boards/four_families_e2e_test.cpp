// One event on four kinds of board, found the way a user's are: the command line
//   eboardd --board b1=chesslink:auto --board b2=chessnut:usb --board b3=certabo:PTY
//           --board b4=dgt:auto,serial=N
// with the emulator seams' options added (--usb-emulator for the Chessnut's USB bus,
// --serial-emulator for the USB-serial ports `auto` enumerates), each board played by its
// family's emulator at the same time, and every board's game compared move for move with
// `eboard-replay` of its script. And `dgt:auto,serial=N` by hot-plug: a DGT board with
// another serial number is passed over, the right one taken when it is plugged in, and
// let go when it is unplugged; a move made while it is unplugged is taken up when it is
// plugged in again. Waits are bounded and event-driven, never fixed sleeps.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "tests/simulators/boards/boards_e2e.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace testing_support;
using namespace boards_e2e;
using namespace std::chrono_literals;

// The DGT board plays with its DGT 3000: the game is set up as the fault soak sets it
// (tests/daemon/soak/fault_soak.h), a control no corpus game comes near a flag in, at 20
// times a player's pace, where the emulated clock's readings stay within the clock gate's
// tolerance (docs/protocols.md §1.8). The clockless boards play as fast as the daemon reads.
const std::vector<std::string> kDgtGame = {"--rules", "fide-standard", "--clock", "5400+30"};
constexpr const char* kDgtSpeed = "20";
constexpr const char* kDgtSerial = "13579";  // the command line's N

// The board's deviceStatus details in `state`, in order.
std::vector<std::string> statuses(const std::string& json, const std::string& board,
                                  v1::DeviceState state) {
  std::vector<std::string> details;
  for (const auto& e : parse_events(json)) {
    if (e.board_id() == board && e.has_device_status() &&
        e.device_status().role() == v1::DEVICE_ROLE_BOARD && e.device_status().state() == state)
      details.push_back(e.device_status().detail());
  }
  return details;
}

std::vector<std::string> daemon_args(const std::string& dir) {
  std::vector<std::string> args = {kBin + "/eboardd",
                                   "--usb-emulator",
                                   dir + "/usb",
                                   "--serial-emulator",
                                   dir + "/serial",
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
  args.insert(args.end(), kDgtGame.begin(), kDgtGame.end());
  for (const auto& name : kNoTimers) args.insert(args.end(), {"--param", name + "=" + kOutOfReach});
  return args;
}

// The pty an emulator linked ("eboard-sim certabo: LINK -> /dev/pts/N"), once its line is
// whole; "" if it does not come.
std::string pty_of(Child& sim) {
  const auto whole = [](const std::string&, const std::string& err) {
    const auto arrow = err.find(" -> ");
    return arrow != std::string::npos && err.find('\n', arrow) != std::string::npos;
  };
  if (!sim.wait_for(whole, 10s)) return "";
  const auto arrow = sim.err().find(" -> ");
  const auto end = sim.err().find('\n', arrow);
  return sim.err().substr(arrow + 4, end - arrow - 4);
}

TEST(FourFamiliesE2e, OneEventOnFourKindsOfBoardFoundAsAUsersAre) {
  const std::string dir = temp_dir("four");
  std::filesystem::create_directories(dir + "/journal");
  // Four games of the corpus, one a board.
  const std::map<std::string, std::string> scripts = {
      {"b1", clockless_script(dir, 3, "human", "b1")},
      {"b2", clockless_script(dir, 42, "rough", "b2")},
      {"b3", clockless_script(dir, 5, "human", "b3")},
      {"b4", dir + "/b4.ebs"}};
  std::ofstream(scripts.at("b4")) << corpus_script_text(9, "human");
  // What eboard-replay completes for each; a clockless game's last move completes only by
  // settling, which the daemon may or may not have done when the boards are compared.
  std::map<std::string, std::vector<std::string>> expected;
  std::map<std::string, std::vector<std::string>> settled;
  for (const auto& [board, script] : scripts) {
    const std::vector<std::string> game =
        board == "b4" ? kDgtGame : std::vector<std::string>{"--no-clock"};
    expected[board] = replay_moves(script, game);
    settled[board] = replay_moves(script, game, SettledLast::kKept);
    ASSERT_GT(expected[board].size(), 20u) << board;
  }

  Child chesslink({kBin + "/eboard-sim", "chesslink", "--serial-bus", dir + "/serial", "--speed",
                   "0", scripts.at("b1")});
  Child chessnut({kBin + "/eboard-sim", "chessnut", "--usb-bus", dir + "/usb", "--speed", "0",
                  scripts.at("b2")});
  Child certabo({kBin + "/eboard-sim", "certabo", "--link", dir + "/b3.pty", "--calibration-out",
                 dir + "/journal/b3.calibration", "--speed", "0", scripts.at("b3")});
  std::vector<std::string> dgt_args = {
      kBin + "/eboard-sim", "dgt",      "--serial-bus", dir + "/serial",
      "--serial",           kDgtSerial, "--speed",      kDgtSpeed};
  dgt_args.insert(dgt_args.end(), kDgtGame.begin(), kDgtGame.end());
  dgt_args.push_back(scripts.at("b4"));
  Child dgt(dgt_args);
  for (Child* sim : {&chesslink, &certabo, &dgt}) ASSERT_NE(pty_of(*sim), "") << sim->err();
  ASSERT_TRUE(chessnut.wait_for_stderr("plugged in", 10s)) << chessnut.err();
  // The Certabo board by its tty's own path, as /dev/ttyUSB0 would be given.
  const std::string certabo_tty = pty_of(certabo);
  ASSERT_EQ(certabo_tty.rfind("/dev/pts/", 0), 0u) << certabo.err();

  // The command line, the seams' options aside.
  std::vector<std::string> args = {
      kBin + "/eboardd",         "--board", "b1=chesslink:auto",         "--board",
      "b2=chessnut:usb",         "--board", "b3=certabo:" + certabo_tty, "--board",
      "b4=dgt:auto,serial=13579"};
  const auto seams = daemon_args(dir);
  args.insert(args.end(), seams.begin() + 1, seams.end());
  Child daemon(args);
  ASSERT_TRUE(daemon.wait_for_stderr("ready:", 15s)) << daemon.err();
  const auto all_done = [&](const std::string& out, const std::string&) {
    for (const auto& [board, moves] : expected) {
      if (moves_of(out, board).size() < moves.size()) return false;
    }
    return true;
  };
  // The DGT game runs the longest (a real pace); the others are done well before it.
  EXPECT_TRUE(daemon.wait_for(all_done, 240s));
  const std::string out = daemon.out();
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  const std::string sims = chesslink.err() + chessnut.err() + certabo.err() + dgt.err();
  for (const auto& [board, moves] : expected) {
    const auto got = moves_of(out, board);
    EXPECT_TRUE(got == moves || got == settled[board])
        << board << ": " << difference(got, settled[board]) << "\n"
        << daemon.err() << sims;
    EXPECT_FALSE(statuses(out, board, v1::DEVICE_STATE_CONNECTED).empty()) << board;
  }
  EXPECT_EQ(count_of(out, &v1::Event::has_illegal_move_completed), 0);
  // The auto boards were found on the emulated USB-serial ports: each on its own.
  const auto b1 = statuses(out, "b1", v1::DEVICE_STATE_CONNECTED);
  const auto b4 = statuses(out, "b4", v1::DEVICE_STATE_CONNECTED);
  ASSERT_FALSE(b1.empty());
  ASSERT_FALSE(b4.empty());
  EXPECT_EQ(b1.back().rfind(pty_of(chesslink) + ":", 0), 0u) << b1.back();
  EXPECT_EQ(b4.back().rfind(pty_of(dgt) + ":", 0), 0u) << b4.back();
  EXPECT_NE(daemon.err().find("board b4: serial " + std::string(kDgtSerial)), std::string::npos)
      << daemon.err();
  std::filesystem::remove_all(dir);
}

// `dgt:auto,serial=N` on hot-plug: another serial is passed over, the right board is taken
// when it arrives (at once, not at the 30 s safety rescan: the arrival is seen) and plays,
// is let go when it is unplugged and taken again when it is plugged back in; the other is
// never taken.
TEST(FourFamiliesE2e, DgtAutoBySerialIgnoresAnotherAndFollowsThePlugs) {
  const std::string dir = temp_dir("four");
  const std::string script = dir + "/game.ebs";
  std::ofstream(script) << corpus_script_text(9, "human");
  std::vector<std::string> args = daemon_args(dir);
  args.insert(args.end(), {"--board", "b4=dgt:auto,serial=" + std::string(kDgtSerial)});
  Child daemon(args);
  ASSERT_TRUE(daemon.wait_for_stderr("ready:", 15s)) << daemon.err();
  const auto dgt = [&](const std::string& serial, std::vector<std::string> extra) {
    std::vector<std::string> sim = {kBin + "/eboard-sim", "dgt",  "--serial-bus", dir + "/serial",
                                    "--serial",           serial, "--speed",      kDgtSpeed};
    sim.insert(sim.end(), kDgtGame.begin(), kDgtGame.end());
    sim.insert(sim.end(), extra.begin(), extra.end());
    sim.push_back(script);
    return std::make_unique<Child>(sim);
  };
  auto other = dgt("11111", {});
  const std::string other_tty = pty_of(*other);
  ASSERT_NE(other_tty, "") << other->err();
  EXPECT_TRUE(daemon.wait_for_stderr(
      other_tty + ": serial 11111 is not " + std::string(kDgtSerial) + ": passed over", 15s))
      << daemon.err();
  EXPECT_TRUE(statuses(daemon.out(), "b4", v1::DEVICE_STATE_CONNECTED).empty());

  // The right board, unplugged for a while when nobody moves (script time 40 s to 50 s,
  // Black thinking on move 1).
  auto right = dgt(kDgtSerial, {"--hangup-at", "40", "--hangup-for", "10"});
  const std::string right_tty = pty_of(*right);
  ASSERT_NE(right_tty, "") << right->err();
  const auto connected = [&](std::size_t n) {
    return [n](const std::string& out, const std::string&) {
      return statuses(out, "b4", v1::DEVICE_STATE_CONNECTED).size() >= n;
    };
  };
  EXPECT_TRUE(daemon.wait_for(connected(1), 10s)) << daemon.err();
  // Its game is played: 1.d4 comes at 30 s.
  EXPECT_TRUE(daemon.wait_for(
      [](const std::string& out, const std::string&) { return moves_of(out, "b4").size() >= 1; },
      30s))
      << daemon.err();
  ASSERT_TRUE(right->wait_for_stderr("unplugged at", 30s)) << right->err();
  const auto lost = [&](const std::string& out, const std::string&) {
    for (const auto& detail : statuses(out, "b4", v1::DEVICE_STATE_DISCONNECTED)) {
      if (detail.rfind(right_tty + ":", 0) == 0) return true;
    }
    return false;
  };
  EXPECT_TRUE(daemon.wait_for(lost, 10s)) << daemon.err();
  ASSERT_TRUE(right->wait_for_stderr("plugged in again", 10s)) << right->err();
  EXPECT_TRUE(daemon.wait_for(connected(2), 10s)) << daemon.err();
  for (const auto& detail : statuses(daemon.out(), "b4", v1::DEVICE_STATE_CONNECTED)) {
    EXPECT_NE(detail.rfind(other_tty + ":", 0), 0u) << detail;
  }
  EXPECT_EQ(daemon.err().find("serial 11111\n"), std::string::npos) << daemon.err();
  std::filesystem::remove_all(dir);
}

// A move made while the board is unplugged: Black's 1...d5 is made while the cable is out,
// and pressed either long after it is back (the board shows d5 with Black's clock running:
// a move waiting for its press, no restore request) or while it is out (the clock confirms
// it: recovered). Both games go on with 2.c4. The two are played side by side, each on a
// daemon of its own.
TEST(FourFamiliesE2e, DgtMovesMadeWhileUnpluggedAreTakenUpNotRestored) {
  struct Play {
    std::string dir;
    std::unique_ptr<Child> daemon, sim;
  };
  // Unplugged from script time 40 s to 60 s (2 s to 3 s of the emulator's wall time).
  const auto play = [](const std::string& black_press) {
    Play p{temp_dir("four"), nullptr, nullptr};
    const std::string script = p.dir + "/game.ebs";
    std::ofstream(script) << "start startpos\n"
                             "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
                             "29.811 lift d2\n30.026 put d4 P\n31.322 lever white\n"
                             "56.929 lift d7\n57.243 put d5 p\n"
                          << black_press
                          << " lever black\n"
                             "210.376 lift c2\n210.708 put c4 P\n212.099 lever white\n";
    std::vector<std::string> args = daemon_args(p.dir);
    args.insert(args.end(), {"--board", "b4=dgt:auto,serial=" + std::string(kDgtSerial)});
    p.daemon = std::make_unique<Child>(args);
    EXPECT_TRUE(p.daemon->wait_for_stderr("ready:", 15s)) << p.daemon->err();
    std::vector<std::string> sim = {
        kBin + "/eboard-sim", "dgt",      "--serial-bus", p.dir + "/serial",
        "--serial",           kDgtSerial, "--speed",      kDgtSpeed,
        "--hangup-at",        "40",       "--hangup-for", "20"};
    sim.insert(sim.end(), kDgtGame.begin(), kDgtGame.end());
    sim.push_back(script);
    p.sim = std::make_unique<Child>(sim);
    return p;
  };
  // Pressed at 200 s, 7 s of wall time after the replug (the session's wait for an
  // explanation is 3 s), or at 57.6 s, while unplugged.
  Play later = play("200.000");
  Play unplugged = play("57.567");
  const std::vector<std::string> game = {"d2d4", "d7d5", "c2c4"};
  std::map<std::string, v1::Completion> d5;
  for (Play* p : {&later, &unplugged}) {
    ASSERT_TRUE(p->sim->wait_for_stderr("plugged in again", 30s)) << p->sim->err();
    EXPECT_TRUE(p->daemon->wait_for(
        [&](const std::string& out, const std::string&) {
          return moves_of(out, "b4").size() >= game.size();
        },
        40s))
        << p->daemon->err() << p->sim->err();
    const std::string out = p->daemon->out();
    p->daemon->kill(SIGTERM);
    p->daemon->wait(10s);
    EXPECT_EQ(moves_of(out, "b4"), game);
    EXPECT_EQ(count_of(out, &v1::Event::has_restore_requested), 0) << out;
    EXPECT_EQ(count_of(out, &v1::Event::has_illegal_move_completed), 0);
    EXPECT_EQ(count_of(out, &v1::Event::has_clock_press_without_move), 0);
    // Unplugged and plugged in again: two connections.
    EXPECT_GE(statuses(out, "b4", v1::DEVICE_STATE_CONNECTED).size(), 2u);
    for (const auto& e : parse_events(out)) {
      if (e.has_move_completed() && e.move_completed().uci() == "d7d5")
        d5[p == &later ? "later" : "unplugged"] = e.move_completed().completion();
    }
    std::filesystem::remove_all(p->dir);
  }
  // Completed by its press when it came after the replug, found on the board otherwise.
  EXPECT_EQ(d5["later"], v1::COMPLETION_CLOCK_PRESS);
  EXPECT_EQ(d5["unplugged"], v1::COMPLETION_RECOVERED);
}

// Two `dgt:auto,serial=N` boards on one daemon, their boards plugged in at the same
// moment: each is taken within a second and a half of the plug, whichever port either
// link probes first (the links may each probe the other's board first: it is passed over
// and found again at once by the other link, not after a backoff). Several rounds, each
// on a fresh daemon, since the order the links probe in is the loop's.
TEST(FourFamiliesE2e, TwoDgtBoardsBySerialPluggedAtOnceAreBothTakenPromptly) {
  const std::string serials[] = {"13579", "24680"};
  for (int round = 0; round < 5; ++round) {
    const std::string dir = temp_dir("two");
    const std::string script = dir + "/game.ebs";
    std::ofstream(script) << corpus_script_text(9, "human");
    std::vector<std::string> args = daemon_args(dir);
    args.insert(args.end(), {"--board", "b4=dgt:auto,serial=" + serials[0], "--board",
                             "b5=dgt:auto,serial=" + serials[1]});
    Child daemon(args);
    ASSERT_TRUE(daemon.wait_for_stderr("ready:", 15s)) << daemon.err();
    std::vector<std::unique_ptr<Child>> sims;
    const auto plugged = std::chrono::steady_clock::now();
    for (const auto& serial : serials) {
      std::vector<std::string> sim = {kBin + "/eboard-sim", "dgt",  "--serial-bus", dir + "/serial",
                                      "--serial",           serial, "--speed",      kDgtSpeed};
      sim.insert(sim.end(), kDgtGame.begin(), kDgtGame.end());
      sim.push_back(script);
      sims.push_back(std::make_unique<Child>(sim));
    }
    const auto both = [](const std::string& out, const std::string&) {
      return !statuses(out, "b4", v1::DEVICE_STATE_CONNECTED).empty() &&
             !statuses(out, "b5", v1::DEVICE_STATE_CONNECTED).empty();
    };
    ASSERT_TRUE(daemon.wait_for(both, 10s)) << "round " << round << "\n" << daemon.err();
    const auto took = std::chrono::steady_clock::now() - plugged;
    EXPECT_LT(took, 1500ms) << "round " << round << ": "
                            << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                            << " ms\n"
                            << daemon.err();
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace eboard::daemon
