// Shared by the daemon's end-to-end tests: paths, JSON-line parsing, and a raw protocol
// client over the Unix or TCP socket (processes, scratch directories and ports come from
// tests/e2e_process.h). Waits are bounded, never fixed sleeps.
#pragma once

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <algorithm>
#include <sstream>

#include "eboard/v1/frame.pb.h"
#include "eboard/v1/framing.h"
#include "eboard/v1/json.h"
#include "tests/e2e_process.h"

namespace eboard::daemon::testing_support {

namespace v1 = eboard::v1;
inline const std::string kScript =
    std::string(EBOARD_SOURCE_DIR) + "/tests/daemon/core/data/mate_game.ebs";
inline const std::vector<std::string> kMoves = {"e2e4", "e7e5", "f1c4", "b8c6",
                                                "d1h5", "g8f6", "h5f7"};

inline std::vector<v1::Event> parse_events(const std::string& text) {
  std::vector<v1::Event> events;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '{') continue;
    auto event = proto::event_from_json(line);
    EXPECT_TRUE(event.ok()) << line;
    if (event.ok()) events.push_back(event.value());
  }
  return events;
}

inline std::vector<std::string> moves_of(const std::vector<v1::Event>& events) {
  std::vector<std::string> moves;
  for (const auto& e : events) {
    if (e.has_move_completed()) moves.push_back(e.move_completed().uci());
  }
  return moves;
}

inline void expect_gap_free(const std::vector<v1::Event>& events) {
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].seq(), i + 1) << "event " << i;
  }
}

inline const v1::Event* game_end(const std::vector<v1::Event>& events) {
  for (const auto& e : events) {
    if (e.has_game_ended()) return &e;
  }
  return nullptr;
}

inline std::vector<std::string> daemon_args(const std::string& dir, const std::string& board) {
  return {kBin + "/eboardd",
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
          "json",
          "--rules",
          "fide-blitz",
          "--clock",
          "180+2"};
}

inline bool ready(Child& daemon) { return daemon.wait_for_stderr("ready:", 15s); }

// A raw protocol client (control and slow-consumer tests).
class Client {
 public:
  explicit Client(std::uint16_t tcp_port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(tcp_port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
  }
  explicit Client(const std::string& unix_path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::snprintf(sa.sun_path, sizeof sa.sun_path, "%s", unix_path.c_str());
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
  }
  ~Client() { ::close(fd_); }
  bool connected() const { return connected_; }
  bool send(const v1::Frame& frame) {
    const std::string bytes = proto::encode_delimited(frame);
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT) ==
           static_cast<ssize_t>(bytes.size());
  }
  // The next frame matching `want`, reading up to `limit` (EBOARD_TEST_TIME_SCALE applies).
  std::optional<v1::Frame> next(const std::function<bool(const v1::Frame&)>& want,
                                std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + scaled(limit);
    v1::Frame frame;
    for (;;) {
      for (;;) {
        auto status = reader_.next(frame);
        if (!status.ok() || status.value() == proto::ReadStatus::kNeedMore) break;
        if (want(frame)) return frame;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          end - std::chrono::steady_clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
      char buffer[65536];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) return std::nullopt;
      reader_.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    }
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  bool connected_ = false;
  proto::FrameReader reader_;
};

}  // namespace eboard::daemon::testing_support
