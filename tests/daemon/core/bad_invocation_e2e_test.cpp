// Every bad invocation gets exit status 2 and one line on stderr, and nothing is written
// before the configuration is fully checked (style.md "Errors", docs/interfaces.md §2): one
// test per case, each running the real program.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon {
namespace {

using namespace std::chrono_literals;
using testing_support::Child;
using testing_support::kBin;
using testing_support::kScript;
namespace fs = std::filesystem;

class BadInvocationTest : public testing::Test {
 protected:
  std::string dir_ = testing_support::temp_dir("bad_invocation");
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `argv` (stdin empty); expects exit 2 and exactly one line on stderr holding
  // `says`; returns that line.
  std::string expect_usage_error(std::vector<std::string> argv, const std::string& says) {
    Child child(argv);
    const auto status = child.wait(20s);
    EXPECT_EQ(status, std::optional<int>(2)) << child.err();
    const std::string& err = child.err();
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find(says), std::string::npos) << err;
    return err;
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  // eboardd with a board and a journal directory, plus `extra`.
  std::vector<std::string> eboardd(std::vector<std::string> extra) {
    std::vector<std::string> argv = {
        kBin + "/eboardd", "--board", "b1=sim:" + kScript, "--journal", dir_ + "/journal",
        "--runtime-dir",   dir_};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  }
  void expect_nothing_written() { EXPECT_FALSE(fs::exists(dir_ + "/journal")); }
};

TEST_F(BadInvocationTest, EboarddListenHostThatIsNotAnAddress) {
  expect_usage_error(eboardd({"--listen", "tcp:abc:1"}),
                     "eboardd: --listen 'tcp:abc:1': 'abc' is not an IP address");
  expect_nothing_written();
}

TEST_F(BadInvocationTest, EboarddClockDisplayOfNoBoard) {
  expect_usage_error(eboardd({"--listen", "unix:" + dir_ + "/s", "--clock-display", "b9"}),
                     "eboardd: --clock-display: no board 'b9'");
  expect_nothing_written();
}

TEST_F(BadInvocationTest, EboarddStrayArgument) {
  expect_usage_error(eboardd({"extra"}), "eboardd: unexpected argument 'extra'");
  expect_nothing_written();
}

TEST_F(BadInvocationTest, EboarddConfigDirectory) {
  expect_usage_error(eboardd({"--config", dir_}), "is a directory");
  expect_nothing_written();
}

TEST_F(BadInvocationTest, EboarddNegativeQueueLimit) {
  expect_usage_error(eboardd({"--consumer-queue-bytes", "-1"}),
                     "eboardd: --consumer-queue-bytes: '-1' is not a whole number from 1024");
  expect_nothing_written();
}

TEST_F(BadInvocationTest, JudgeDirectory) {
  expect_usage_error({kBin + "/eboard-judge", dir_}, "eboard-judge: " + dir_ + ": is a directory");
}

TEST_F(BadInvocationTest, JudgeImpossiblePositions) {
  const std::pair<const char*, const char*> cases[] = {
      {"8/8/8/8/8/8/4k3/4K3 w - - 0 1", "the kings stand side by side (e1, e2)"},
      {"3P4/8/8/8/8/8/4k3/K7 w - - 0 1", "pawn on d8"},
      {"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "the side not to move (black) is in check"},
  };
  for (const auto& [fen, reason] : cases) {
    SCOPED_TRACE(fen);
    const std::string file = write("p.fen", std::string(fen) + "\n");
    const std::string line =
        expect_usage_error({kBin + "/eboard-judge", "--quick", file}, file + ":1: " + reason);
    EXPECT_NE(line.find("--irregular"), std::string::npos) << line;
    Child anyway({kBin + "/eboard-judge", "--quick", "--irregular", file});
    EXPECT_EQ(anyway.wait(20s), std::optional<int>(0)) << anyway.err();
    EXPECT_NE(anyway.out().find(fen), std::string::npos);
  }
}

TEST_F(BadInvocationTest, ReplayDirectory) {
  expect_usage_error({kBin + "/eboard-replay", dir_},
                     "eboard-replay: " + dir_ + ": is a directory");
}

TEST_F(BadInvocationTest, ReplayRulingSeqAbove32Bits) {
  const std::string script = write("r.ebs",
                                   "rules fide-blitz\nclock 180+2\n"
                                   "0.000 placement rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n"
                                   "1.000 arbiter ruling accept 4294967297\n");
  expect_usage_error({kBin + "/eboard-replay", script},
                     script + ":4: bad sequence number '4294967297' (at most 4294967295)");
}

TEST_F(BadInvocationTest, PerftEpdDirectory) {
  expect_usage_error({kBin + "/eboard-perft", "--epd", dir_}, "is a directory");
}

TEST_F(BadInvocationTest, PerftEpdDepthAboveTheCap) {
  const std::string epd =
      write("deep.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D99 1\n");
  expect_usage_error({kBin + "/eboard-perft", "--epd", epd}, epd + ":1: depth 99 is above 20");
}

TEST_F(BadInvocationTest, EventsConnectBlamesConnect) {
  expect_usage_error({kBin + "/eboard-events", "--connect", "foo:bar"},
                     "eboard-events: --connect 'foo:bar': expected unix:PATH, tcp:HOST:PORT or "
                     "tls:HOST:PORT");
}

TEST_F(BadInvocationTest, EventsDoesNotReadOverTls) {
  expect_usage_error({kBin + "/eboard-events", "--connect", "tls:127.0.0.1:7343"},
                     "eboard-events: --connect 'tls:127.0.0.1:7343': tls: is for control "
                     "(eboard-ctl); read the stream over unix: or tcp:");
}

TEST_F(BadInvocationTest, EventsNegativeFromSeq) {
  expect_usage_error({kBin + "/eboard-events", "--from-seq", "-1"},
                     "eboard-events: --from-seq: '-1' is not a whole number");
}

}  // namespace
}  // namespace eboard::daemon
