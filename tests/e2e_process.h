// The process-launching helpers every end-to-end test shares (tests/daemon/core,
// tests/daemon/sinks, benchmarks): real child processes started with fork/exec whose stdout and
// stderr are read through pipes with poll(), so a test waits for a line with a bounded
// timeout instead of sleeping (each Child is killed with SIGKILL if still running when it
// goes out of scope), a scratch directory, a free loopback port, and a bounded wait on a
// condition. Nothing here sleeps a fixed time except poll_until's polling interval.
//
// The limits are set for programs that run natively. Under emulation (tools/test-arm64.sh
// runs the arm64 programs under qemu-user) every program is several times slower, so every
// limit here is multiplied by EBOARD_TEST_TIME_SCALE (a number from 1 to 100, default 1):
// the same checks, only more time before a wait is called failed.
#pragma once

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace eboard::daemon::testing_support {

using namespace std::chrono_literals;

// Where the programs under test are (build/bin).
inline const std::string kBin = EBOARD_BIN_DIR;

// EBOARD_TEST_TIME_SCALE, or 1 when it is not set. A value that is not a number from 1 to
// 100 stops the test program with one line naming it (a typo must not pass unnoticed).
inline double time_scale() {
  const char* text = std::getenv("EBOARD_TEST_TIME_SCALE");
  if (text == nullptr || *text == '\0') return 1.0;
  char* end = nullptr;
  const double scale = std::strtod(text, &end);
  if (*end != '\0' || !(scale >= 1.0 && scale <= 100.0)) {
    std::fprintf(stderr, "EBOARD_TEST_TIME_SCALE: '%s' is not a number from 1 to 100\n", text);
    std::exit(2);
  }
  return scale;
}

// A wait's limit under EBOARD_TEST_TIME_SCALE.
inline std::chrono::milliseconds scaled(std::chrono::milliseconds limit) {
  return std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(
      static_cast<double>(limit.count()) * time_scale()));
}

// A fresh directory /tmp/eboard-<what>-XXXXXX.
inline std::string temp_dir(const std::string& what = "e2e") {
  std::string pattern = "/tmp/eboard-" + what + "-XXXXXX";
  return ::mkdtemp(pattern.data());
}

// A loopback TCP port nobody listens on right now.
inline std::uint16_t free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  socklen_t len = sizeof sa;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  ::close(fd);
  return ntohs(sa.sin_port);
}

// Polls `done` until it holds or `limit` has passed (for state another thread fills).
inline bool poll_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + scaled(limit);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(20ms);  // polling interval of a bounded wait
  }
  return true;
}

class Child {
 public:
  explicit Child(const std::vector<std::string>& argv) {
    int out[2];
    int err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], 1);
      ::dup2(err[1], 2);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    out_ = out[0];
    err_ = err[0];
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    kill(SIGKILL);
    wait(std::chrono::seconds(5));
    if (out_ >= 0) ::close(out_);
    if (err_ >= 0) ::close(err_);
  }

  void kill(int signal) {
    if (pid_ > 0 && !status_) ::kill(pid_, signal);
  }
  // Waits for the exit (reading its output meanwhile); the exit status, or nullopt.
  std::optional<int> wait(std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + scaled(limit);
    while (!status_ && pid_ > 0) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        break;
      }
      if (std::chrono::steady_clock::now() >= end) return std::nullopt;
      pump(std::chrono::milliseconds(20));
    }
    pump(std::chrono::milliseconds(0));
    return status_;
  }
  // Reads until `done(stdout so far, stderr so far)` is true or the time is up.
  bool wait_for(const std::function<bool(const std::string&, const std::string&)>& done,
                std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + scaled(limit);
    while (!done(out_text_, err_text_)) {
      if (std::chrono::steady_clock::now() >= end) return false;
      if (!pump(std::chrono::milliseconds(50)) && status_) return done(out_text_, err_text_);
      int status = 0;
      if (!status_ && ::waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return true;
  }
  bool wait_for_stderr(const std::string& text, std::chrono::milliseconds limit) {
    return wait_for([&](const std::string&,
                        const std::string& err) { return err.find(text) != std::string::npos; },
                    limit);
  }
  bool wait_for_stdout(const std::string& text, std::chrono::milliseconds limit) {
    return wait_for([&](const std::string& out,
                        const std::string&) { return out.find(text) != std::string::npos; },
                    limit);
  }
  const std::string& out() const { return out_text_; }
  const std::string& err() const { return err_text_; }
  pid_t pid() const { return pid_; }

 private:
  // Reads what is there; false when both pipes are at EOF.
  bool pump(std::chrono::milliseconds wait) {
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    if (out_ < 0 && err_ < 0) return false;
    ::poll(fds, 2, static_cast<int>(wait.count()));
    bool open = false;
    for (int i = 0; i < 2; ++i) {
      int& fd = i == 0 ? out_ : err_;
      std::string& text = i == 0 ? out_text_ : err_text_;
      if (fd < 0) continue;
      if (fds[i].revents & (POLLIN | POLLHUP)) {
        char buffer[65536];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
          text.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0) {
          ::close(fd);
          fd = -1;
          continue;
        }
      }
      open = true;
    }
    return open;
  }

  pid_t pid_ = -1;
  int out_ = -1;
  int err_ = -1;
  std::string out_text_;
  std::string err_text_;
  std::optional<int> status_;
};

}  // namespace eboard::daemon::testing_support
