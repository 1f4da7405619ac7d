// PrintOut (daemon/programs/eboardd/print_out.h): what a full pipe does not take waits in a
// bounded queue, what does not fit that is dropped and counted, and nothing blocks. The
// reader is the test, which reads the pipe when it chooses; no timer runs.
#include "daemon/programs/eboardd/print_out.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <vector>

namespace eboard::daemon {
namespace {

std::string drain(int fd) {
  std::string text;
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string line(int number) { return std::string(1999, char('a' + number)) + "\n"; }

TEST(PrintOut, AFullPipeQueuesThenDropsAndCountsNeverBlocking) {
  int pipe[2];
  ASSERT_EQ(::pipe2(pipe, O_CLOEXEC), 0);
  ASSERT_EQ(::fcntl(pipe[1], F_SETPIPE_SZ, 4096), 4096);
  ASSERT_EQ(::fcntl(pipe[0], F_SETFL, O_NONBLOCK), 0);  // the test's reads, not the writer's
  boost::asio::io_context io;
  std::vector<std::string> said;
  PrintOut out(io, pipe[1], 8000, [&](const std::string& text) { said.push_back(text); });
  // The pipe's page takes a line or two, the queue four, the rest is dropped: the
  // writes return at once all the same.
  for (int i = 0; i < 7; ++i) out.write(line(i));
  const std::uint64_t dropped = out.dropped_writes();
  EXPECT_GE(dropped, 1u);
  EXPECT_LE(out.queued_bytes(), 8000u);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("not read"), std::string::npos);
  // The reader takes what is there; each write moves the queue on before it is judged.
  std::string read = drain(pipe[0]);
  out.write(line(7));
  EXPECT_EQ(out.dropped_writes(), dropped) << "the reader made room";
  while (out.queued_bytes() > 0) {
    read += drain(pipe[0]);
    out.write("");
  }
  read += drain(pipe[0]);
  std::string expected;
  for (int i = 0; i < 7 - static_cast<int>(dropped); ++i) expected += line(i);
  EXPECT_EQ(read, expected + line(7)) << "the dropped ones are the last ones, whole lines";
  ASSERT_EQ(said.size(), 2u);
  EXPECT_NE(said[1].find(std::to_string(dropped) + " printed event(s) were dropped"),
            std::string::npos)
      << said[1];
  ::close(pipe[0]);
  ::close(pipe[1]);
}

TEST(PrintOut, AReaderThatWentAwayStopsPrintingNotTheDaemon) {
  int pipe[2];
  ASSERT_EQ(::pipe2(pipe, O_CLOEXEC), 0);
  ::close(pipe[0]);
  ::signal(SIGPIPE, SIG_IGN);  // as eboardd does with --print
  boost::asio::io_context io;
  PrintOut out(io, pipe[1], 8000, {});
  out.write("one\n");
  out.write("two\n");
  EXPECT_EQ(out.queued_bytes(), 0u);
  ::close(pipe[1]);
}

}  // namespace
}  // namespace eboard::daemon
