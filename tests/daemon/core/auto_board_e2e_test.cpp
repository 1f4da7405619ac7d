// `dgt:auto` without serial= (the shipped configuration's boards): each link takes a
// different DGT board, and none takes a board that a `serial=N` board is named by; auto
// boards of two families share the ports, each taking a board of its own family. DGT and
// ChessLink emulators (simulators/, the code of `eboard-sim dgt|chesslink`) on real ptys
// stand for the plugged-in boards; the port list is the ptys (DeviceLink::set_port_lister).
// Time is a ManualClock; the only waits are bounded polls for pty bytes.
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <memory>

#include "daemon/core/device_link.h"
#include "simulators/chesslink/chesslink_emulator.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/script/script_reader.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using namespace std::chrono_literals;

struct PluggedBoard {
  PluggedBoard(const std::string& link_path, const std::string& serial)
      : path(link_path), pty(link_path), emulator([&] {
          sim::DgtEmulatorOptions options;
          options.serial = serial;
          return options;
        }()) {
    emulator.set_placement(script::start_placement());
  }
  // A Millennium ChessLink board instead of a DGT one.
  explicit PluggedBoard(const std::string& link_path) : PluggedBoard(link_path, "") {
    chesslink = std::make_unique<sim::ChessLinkEmulator>(sim::ChessLinkOptions{});
    chesslink->set_placement(script::start_placement());
  }
  std::vector<std::uint8_t> on_host_bytes(std::span<const std::uint8_t> bytes) {
    if (!chesslink) return emulator.on_host_bytes(bytes);
    std::vector<std::uint8_t> reply;
    for (const auto& message : chesslink->on_host_bytes(bytes))
      reply.insert(reply.end(), message.begin(), message.end());
    return reply;
  }
  std::string path;
  sim::PtyLink pty;
  sim::DgtEmulator emulator;
  std::unique_ptr<sim::ChessLinkEmulator> chesslink;
};

struct AutoBoard {
  explicit AutoBoard(const std::string& name)
      : session(name, GameSetup{}, drivers::WhiteSetting::kAuto, [this](v1::Event e) {
          events.push_back(e);
          return static_cast<std::uint32_t>(events.size());
        }) {}
  // The detail of the board's last deviceStatus in `state` ("" if none).
  std::string last(v1::DeviceState state) const {
    std::string detail;
    for (const auto& e : events) {
      if (e.has_device_status() && e.device_status().state() == state &&
          e.device_status().role() == v1::DEVICE_ROLE_BOARD)
        detail = e.device_status().detail();
    }
    return detail;
  }
  std::vector<v1::Event> events;
  BoardSession session;
  std::unique_ptr<DeviceLink> link;
};

class AutoBoardTest : public testing::Test {
 protected:
  AutoBoardTest() : epoch_(clock_.now()) {}

  std::string pty_path(const std::string& name) const {
    return testing::TempDir() + "auto_board_" + std::to_string(::getpid()) + "_" + name + ".pty";
  }
  PluggedBoard& plug(const std::string& serial) {
    plugged_.push_back(std::make_unique<PluggedBoard>(pty_path(serial), serial));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(plugged_.back()->pty.open()));
    return *plugged_.back();
  }
  PluggedBoard& plug_chesslink(const std::string& name) {
    plugged_.push_back(std::make_unique<PluggedBoard>(pty_path(name)));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(plugged_.back()->pty.open()));
    return *plugged_.back();
  }
  AutoBoard& add_board(const std::string& name, std::optional<std::string> serial = {},
                       const std::string& driver = "dgt") {
    boards_.push_back(std::make_unique<AutoBoard>(name));
    AutoBoard& board = *boards_.back();
    drivers::BoardSpec spec;
    spec.driver = driver;
    spec.device = "auto";
    spec.serial = serial;
    if (serial) claims_.name_serial(*serial);
    board.link = std::make_unique<DeviceLink>(io_, clock_, epoch_, spec, board.session,
                                              [](LogLevel, const std::string&) {});
    board.link->share_ports(claims_);
    board.link->set_port_lister([this] {
      std::vector<std::string> paths;
      for (const auto& p : plugged_) paths.push_back(p->path);
      return paths;
    });
    return board;
  }
  // Plays every plugged board (answers what the links wrote) and fires the links' timers
  // when nothing is waiting, until `done` or a bounded number of rounds.
  bool serve_until(const std::function<bool()>& done) {
    for (int round = 0; round < 200 && !done(); ++round) {
      bool any = false;
      for (auto& board : plugged_) any = serve_once(*board) || any;
      io_.restart();
      io_.run_for(10ms);
      if (!any) fire_earliest();
    }
    return done();
  }
  bool serve_once(PluggedBoard& board) {
    pollfd p{board.pty.master_fd(), POLLIN, 0};
    if (::poll(&p, 1, 5) <= 0 || !(p.revents & POLLIN)) return false;
    std::uint8_t buffer[512];
    const ssize_t n = ::read(board.pty.master_fd(), buffer, sizeof buffer);
    if (n <= 0) return false;
    const auto reply = board.on_host_bytes(std::span(buffer, static_cast<std::size_t>(n)));
    if (!reply.empty()) {
      EXPECT_EQ(::write(board.pty.master_fd(), reply.data(), reply.size()), ssize_t(reply.size()));
    }
    return true;
  }
  void fire_earliest() {
    DeviceLink* first = nullptr;
    for (auto& board : boards_) {
      const auto wake = board->link->next_wake();
      if (wake && (!first || *wake < *first->next_wake())) first = board->link.get();
    }
    if (!first) return;
    const auto wait = *first->next_wake() - clock_.now();
    if (wait > decltype(wait)::zero())
      clock_.advance(std::chrono::duration_cast<std::chrono::milliseconds>(wait));
    first->on_timer();
  }
  void TearDown() override {
    for (auto& board : boards_) board->link->stop();
  }

  boost::asio::io_context io_;
  ManualClock clock_;
  SteadyTime epoch_;
  PortClaims claims_;
  std::vector<std::unique_ptr<PluggedBoard>> plugged_;
  std::vector<std::unique_ptr<AutoBoard>> boards_;
};

TEST_F(AutoBoardTest, EachAutoBoardTakesADifferentPluggedBoard) {
  PluggedBoard& first = plug("11111");
  PluggedBoard& second = plug("22222");
  AutoBoard& b1 = add_board("b1");
  AutoBoard& b2 = add_board("b2");
  b1.link->start();
  b2.link->start();
  EXPECT_EQ(b1.last(v1::DEVICE_STATE_CONNECTING), "looking for a DGT board");
  ASSERT_TRUE(serve_until([&] { return b1.link->connected() && b2.link->connected(); }))
      << "b1: " << b1.last(v1::DEVICE_STATE_DISCONNECTED)
      << " b2: " << b2.last(v1::DEVICE_STATE_DISCONNECTED);
  ASSERT_TRUE(serve_until([&] {
    return !b1.last(v1::DEVICE_STATE_CONNECTED).empty() &&
           !b2.last(v1::DEVICE_STATE_CONNECTED).empty();
  }));
  const std::string on1 = b1.last(v1::DEVICE_STATE_CONNECTED);
  const std::string on2 = b2.last(v1::DEVICE_STATE_CONNECTED);
  const auto on = [](const std::string& detail, const PluggedBoard& board) {
    return detail.rfind(board.path + ":", 0) == 0;
  };
  EXPECT_TRUE((on(on1, first) && on(on2, second)) || (on(on1, second) && on(on2, first)))
      << "b1: " << on1 << "\nb2: " << on2;
}

TEST_F(AutoBoardTest, AnAutoBoardLeavesTheBoardANamedSerialIsFor) {
  plug("22222");
  AutoBoard& any = add_board("any");
  claims_.name_serial("22222");  // as run_daemon does for `b2=dgt:auto,serial=22222`
  any.link->start();
  ASSERT_TRUE(serve_until([&] {
    return any.last(v1::DEVICE_STATE_DISCONNECTED).find("no free DGT board") != std::string::npos;
  })) << any.last(v1::DEVICE_STATE_DISCONNECTED);
  EXPECT_FALSE(any.link->connected());

  AutoBoard& named = add_board("named", "22222");
  named.link->start();
  ASSERT_TRUE(serve_until([&] { return !named.last(v1::DEVICE_STATE_CONNECTED).empty(); }))
      << named.last(v1::DEVICE_STATE_DISCONNECTED);
  EXPECT_FALSE(any.link->connected());
}

// A board of another serial number probed first is dropped and the next port probed at
// once, from inside the read of the first: that port is read by one wait, not by the one
// left behind as well (whose read finds nothing, which a tty gives as a hang-up).
TEST_F(AutoBoardTest, TheNamedBoardIsTakenAfterAnotherIsPassedOver) {
  plug("11111");
  PluggedBoard& wanted = plug("22222");
  AutoBoard& named = add_board("named", "22222");
  named.link->start();
  ASSERT_TRUE(serve_until([&] { return !named.last(v1::DEVICE_STATE_CONNECTED).empty(); }))
      << named.last(v1::DEVICE_STATE_DISCONNECTED);
  EXPECT_EQ(named.last(v1::DEVICE_STATE_CONNECTED).rfind(wanted.path + ":", 0), 0u)
      << named.last(v1::DEVICE_STATE_CONNECTED);
}

// Probing is per family (each speaks its own handshake), the ports are shared: the DGT
// link and the ChessLink link each end on the board of their family, whichever port
// either probed first.
TEST_F(AutoBoardTest, AutoBoardsOfTwoFamiliesEachTakeTheirOwn) {
  PluggedBoard& dgt = plug("11111");
  PluggedBoard& chesslink = plug_chesslink("chesslink");
  AutoBoard& b1 = add_board("b1");
  AutoBoard& b2 = add_board("b2", {}, "chesslink");
  b2.link->start();
  b1.link->start();
  EXPECT_EQ(b2.last(v1::DEVICE_STATE_CONNECTING), "looking for a ChessLink board");
  ASSERT_TRUE(serve_until([&] {
    return !b1.last(v1::DEVICE_STATE_CONNECTED).empty() &&
           !b2.last(v1::DEVICE_STATE_CONNECTED).empty();
  })) << "b1: "
      << b1.last(v1::DEVICE_STATE_DISCONNECTED)
      << " b2: " << b2.last(v1::DEVICE_STATE_DISCONNECTED);
  EXPECT_EQ(b1.last(v1::DEVICE_STATE_CONNECTED).rfind(dgt.path + ":", 0), 0u)
      << b1.last(v1::DEVICE_STATE_CONNECTED);
  EXPECT_EQ(b2.last(v1::DEVICE_STATE_CONNECTED).rfind(chesslink.path + ":", 0), 0u)
      << b2.last(v1::DEVICE_STATE_CONNECTED);
}

// Two boards named by serial number whose links each probe the other's board first (the
// ports listed the other way round): each passes it over, and finds its own at once when
// the other link lets go of it, not after a backoff; the board each link read is not
// opened again by the other.
TEST_F(AutoBoardTest, TwoNamedBoardsProbingEachOthersFindTheirOwnAtOnce) {
  PluggedBoard& second = plug("24680");
  PluggedBoard& first = plug("13579");
  AutoBoard& b4 = add_board("b4", "13579");
  AutoBoard& b5 = add_board("b5", "24680");
  const SteadyTime start = clock_.now();
  b4.link->start();
  b5.link->start();
  ASSERT_TRUE(serve_until([&] {
    return !b4.last(v1::DEVICE_STATE_CONNECTED).empty() &&
           !b5.last(v1::DEVICE_STATE_CONNECTED).empty();
  })) << "b4: "
      << b4.last(v1::DEVICE_STATE_DISCONNECTED)
      << " b5: " << b5.last(v1::DEVICE_STATE_DISCONNECTED);
  EXPECT_LT(clock_.now() - start, 50ms);  // the first retry's backoff is 100 ms
  EXPECT_EQ(b4.last(v1::DEVICE_STATE_CONNECTED).rfind(first.path + ":", 0), 0u)
      << b4.last(v1::DEVICE_STATE_CONNECTED);
  EXPECT_EQ(b5.last(v1::DEVICE_STATE_CONNECTED).rfind(second.path + ":", 0), 0u)
      << b5.last(v1::DEVICE_STATE_CONNECTED);
}

// A board whose serial number a probe read is passed over by a link looking for another,
// without being opened, while it stays plugged in.
TEST_F(AutoBoardTest, ABoardReadOnceIsNotProbedAgainByAnotherLink) {
  PluggedBoard& other = plug("11111");
  AutoBoard& b1 = add_board("b1", "22222");
  b1.link->start();
  ASSERT_TRUE(serve_until([&] {
    return b1.last(v1::DEVICE_STATE_DISCONNECTED).find("no DGT board with serial 22222") !=
           std::string::npos;
  })) << b1.last(v1::DEVICE_STATE_DISCONNECTED);
  AutoBoard& b2 = add_board("b2", "33333");
  b2.link->start();
  // b2 opened nothing: no byte reaches the board.
  pollfd p{other.pty.master_fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 20), 0);
  EXPECT_NE(b2.last(v1::DEVICE_STATE_DISCONNECTED).find("no DGT board with serial 33333"),
            std::string::npos)
      << b2.last(v1::DEVICE_STATE_DISCONNECTED);
}

}  // namespace
}  // namespace eboard::daemon
