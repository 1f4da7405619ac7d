#include "daemon/programs/eboard_events/events_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>

#include "daemon/core/config.h"
#include "daemon/core/text_view.h"
#include "eboard/v1/framing.h"
#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using Clock = std::chrono::steady_clock;

int connect_to(const ListenAddress& address, std::string& error) {
  if (address.kind == ListenAddress::Kind::kUnix) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, address.path.c_str(), sizeof sa.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
      error = address.path + ": " + std::strerror(errno);
      ::close(fd);
      return -1;
    }
    return fd;
  }
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(address.port);
  const std::string host = address.host == "localhost" ? "127.0.0.1" : address.host;
  if (::inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1) {
    error = "'" + host + "' is not an IPv4 address";
    ::close(fd);
    return -1;
  }
  if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
    error = address.text + ": " + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

bool send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

class Printer {
 public:
  Printer(const EventsOptions& options, std::ostream& out)
      : options_(options),
        out_(out),
        view_(out, isatty(STDOUT_FILENO) ? TextView::Mode::kScreen : TextView::Mode::kLines) {}

  void snapshot(const v1::Snapshot& s) {
    if (options_.format == EventsOptions::Format::kText) view_.snapshot(s);
  }
  // Returns true when --until-game-end is satisfied.
  bool print(const v1::Event& e) {
    auto& last = last_[e.board_id()];
    if (e.seq() <= last) return false;
    last = e.seq();
    if (options_.format == EventsOptions::Format::kJson) {
      out_ << proto::to_json_line(e) << "\n";
      out_.flush();
    } else {
      view_.event(e);
    }
    return options_.until_game_end && e.has_game_ended();
  }

 private:
  const EventsOptions& options_;
  std::ostream& out_;
  TextView view_;
  std::map<std::string, std::uint32_t> last_;
};

}  // namespace

int run_events_client(const EventsOptions& options, std::ostream& out, std::ostream& err) {
  auto address = parse_listen_address(options.connect, "--connect");
  if (!address) {
    err << "eboard-events: " << address.error() << "\n";
    return 2;
  }
  if (address->kind == ListenAddress::Kind::kTls) {
    // Reading needs no token; eboard-ctl is the client that speaks TLS.
    err << "eboard-events: --connect '" << options.connect
        << "': tls: is for control (eboard-ctl); read the stream over unix: or tcp:\n";
    return 2;
  }
  std::string error;
  const int fd = connect_to(address.value(), error);
  if (fd < 0) {
    err << "eboard-events: cannot connect to " << error << "\n";
    return 1;
  }
  v1::Frame request;
  v1::Subscribe* subscribe = request.mutable_subscribe();
  subscribe->set_command_id(1);
  for (const auto& board : options.boards) subscribe->add_board_ids(board);
  subscribe->set_from_seq(options.from_seq);
  subscribe->set_public_only(options.public_only);
  if (!send_all(fd, proto::encode_delimited(request))) {
    err << "eboard-events: cannot send the subscription\n";
    ::close(fd);
    return 1;
  }
  Printer printer(options, out);
  proto::FrameReader reader;
  bool acked = false;
  std::map<std::pair<std::string, std::uint32_t>, v1::Event> early;  // until the ack
  const auto deadline =
      options.timeout ? std::optional(Clock::now() + *options.timeout) : std::nullopt;
  char buffer[65536];
  v1::Frame frame;
  for (;;) {
    int wait_ms = -1;
    if (deadline) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() <= 0) {
        err << "eboard-events: --timeout reached\n";
        ::close(fd);
        return 3;
      }
      wait_ms = static_cast<int>(left.count());
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready == 0) continue;
    if (ready < 0 && errno == EINTR) continue;
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err << "eboard-events: the daemon closed the connection\n";
      ::close(fd);
      return 1;
    }
    reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    for (;;) {
      auto status = reader.next(frame);
      if (!status) {
        err << "eboard-events: " << status.error() << "\n";
        ::close(fd);
        return 1;
      }
      if (status.value() == proto::ReadStatus::kNeedMore) break;
      switch (frame.msg_case()) {
        case v1::Frame::kSnapshot: printer.snapshot(frame.snapshot()); break;
        case v1::Frame::kEvent:
          if (!acked) {
            early.insert_or_assign({frame.event().board_id(), frame.event().seq()}, frame.event());
          } else if (printer.print(frame.event())) {
            ::close(fd);
            return 0;
          }
          break;
        case v1::Frame::kAck:
          if (frame.ack().command_id() == 1 && !acked) {
            if (!frame.ack().ok()) {
              err << "eboard-events: subscribe refused: " << frame.ack().error() << "\n";
              ::close(fd);
              return 1;
            }
            acked = true;
            for (const auto& [key, event] : early) {
              if (key.second >= options.from_seq && printer.print(event)) {
                ::close(fd);
                return 0;
              }
            }
            early.clear();
          }
          break;
        case v1::Frame::kGoodbye:
          err << "eboard-events: disconnected by the daemon: "
              << v1::GoodbyeReason_Name(frame.goodbye().reason())
              << (frame.goodbye().detail().empty() ? "" : ": " + frame.goodbye().detail()) << "\n";
          ::close(fd);
          return 1;
        default: break;
      }
    }
  }
}

}  // namespace eboard::daemon
