// Real parts for the broadcast end-to-end tests: a mosquitto broker on a loopback port
// (started as a process, ready when it says so), an MQTT subscriber on libmosquitto with
// its own network thread (test code only; the daemon has none), a plain HTTP/1.1 client
// over a TCP socket, and sensor scripts made by eboard-sim from real games (processes,
// scratch directories and ports: tests/e2e_process.h). Every wait is bounded and polls a
// condition; nothing sleeps a fixed time.
#pragma once

#include <arpa/inet.h>
#include <mosquitto.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "simulators/script/script_reader.h"
#include "tests/e2e_process.h"

namespace eboard::daemon::broadcast_test {

using testing_support::Child;
using testing_support::free_tcp_port;
using testing_support::kBin;
using testing_support::poll_until;
using testing_support::temp_dir;
using namespace std::chrono_literals;

inline const std::string kGames =
    std::string(EBOARD_SHARED_DIR) + "/data/pgn/candidates_matches_1950-2022.pgn";

// A sensor script of game `k` of the shared corpus, played cleanly, under board id `id`.
inline std::string make_script(const std::string& dir, const std::string& id, int k) {
  Child sim({kBin + "/eboard-sim", "script", "--pgn", kGames, "--game", std::to_string(k),
             "--noise", "clean"});
  sim.wait(20s);
  std::string text = sim.out();
  const auto board = text.find("board ");
  if (board != std::string::npos && (board == 0 || text[board - 1] == '\n')) {
    text.replace(board, text.find('\n', board) - board, "board " + id);
  } else {
    text = "board " + id + "\n" + text;
  }
  const std::string path = dir + "/" + id + ".ebs";
  std::ofstream(path) << text;
  return path;
}

// The time of a script's last timed line (to pick a --sim-speed).
inline double script_seconds(const std::string& path) {
  const auto last = script::last_statement_time(script::read_script_file(path));
  return std::chrono::duration<double>(last).count();
}

class Broker {
 public:
  // kOff: a restart forgets every session and queued message (a broker as often run).
  enum class Persistence : std::uint8_t { kOn, kOff };
  Broker(const std::string& dir, std::uint16_t port, Persistence persistence = Persistence::kOn)
      : dir_(dir), port_(port) {
    std::ofstream(dir + "/mosquitto.conf")
        << "listener " << port << " 127.0.0.1\nallow_anonymous true\npersistence "
        << (persistence == Persistence::kOn ? "true" : "false") << "\nset_tcp_nodelay true\n"
        << "persistence_location " << dir << "/\nmax_queued_messages 100000\n"
        << "log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type "
           "information\n"
        // Started as root, mosquitto would switch to its own user, who cannot write here.
        << (::getuid() == 0 ? "user root\n" : "");
  }
  bool start() {
    child_ = std::make_unique<Child>(
        std::vector<std::string>{"/usr/sbin/mosquitto", "-c", dir_ + "/mosquitto.conf"});
    return child_->wait_for_stderr(" running", 10s);
  }
  void stop() {
    child_->kill(SIGTERM);
    child_->wait(10s);
    child_.reset();
  }
  std::uint16_t port() const { return port_; }

 private:
  std::string dir_;
  std::uint16_t port_;
  std::unique_ptr<Child> child_;
};

// Collects everything below a topic filter; persistent session so that messages queued
// while the broker restarts are not lost for it either.
class Subscriber {
 public:
  struct Message {
    std::string topic;
    std::string payload;
    bool retained = false;
    std::chrono::steady_clock::time_point at;  // when the network thread got it
  };

  Subscriber(std::uint16_t port, const std::string& filter, const std::string& id)
      : filter_(filter) {
    mosquitto_lib_init();
    mosq_ = mosquitto_new(id.c_str(), false, this);
    mosquitto_int_option(mosq_, MOSQ_OPT_TCP_NODELAY, 1);
    mosquitto_connect_callback_set(mosq_, [](mosquitto* m, void* self, int rc) {
      if (rc == 0)
        mosquitto_subscribe(m, nullptr, static_cast<Subscriber*>(self)->filter_.c_str(), 1);
    });
    mosquitto_message_callback_set(mosq_, [](mosquitto*, void* self, const mosquitto_message* m) {
      auto* s = static_cast<Subscriber*>(self);
      std::lock_guard lock(s->mutex_);
      s->messages_.push_back({m->topic,
                              std::string(static_cast<const char*>(m->payload),
                                          static_cast<std::size_t>(m->payloadlen)),
                              m->retain, std::chrono::steady_clock::now()});
    });
    mosquitto_reconnect_delay_set(mosq_, 1, 1, false);
    mosquitto_connect(mosq_, "127.0.0.1", port, 5);
    mosquitto_loop_start(mosq_);
  }
  ~Subscriber() {
    mosquitto_disconnect(mosq_);
    mosquitto_loop_stop(mosq_, true);
    mosquitto_destroy(mosq_);
    mosquitto_lib_cleanup();
  }
  std::vector<Message> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  // Every event received on `.../<board>/events`, in arrival order.
  std::vector<v1::Event> events(const std::string& board_suffix) {
    std::vector<v1::Event> out;
    for (const auto& m : messages()) {
      if (m.topic.ends_with("/" + board_suffix + "/events")) {
        v1::Event e;
        if (e.ParseFromString(m.payload)) out.push_back(e);
      }
    }
    return out;
  }
  std::vector<std::string> payloads(const std::string& topic) {
    std::vector<std::string> out;
    for (const auto& m : messages()) {
      if (m.topic == topic) out.push_back(m.payload);
    }
    return out;
  }

 private:
  std::string filter_;
  mosquitto* mosq_ = nullptr;
  std::mutex mutex_;
  std::vector<Message> messages_;
};

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// Sends `request` as it is over a fresh connection and reads the answer to EOF (the
// server closes after it: "Connection: close", or a refused request).
inline std::string http_exchange(std::uint16_t port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string text;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 ||
      ::write(fd, request.data(), request.size()) < 0) {
    ::close(fd);
    return text;
  }
  char buffer[65536];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  return text;
}

inline HttpReply parse_http_reply(const std::string& text) {
  HttpReply reply;
  const auto end = text.find("\r\n\r\n");
  if (end == std::string::npos || text.size() < 12) return reply;
  reply.status = std::stoi(text.substr(9, 3));
  std::size_t pos = text.find("\r\n") + 2;
  while (pos < end) {
    const auto eol = text.find("\r\n", pos);
    const std::string line = text.substr(pos, eol - pos);
    const auto colon = line.find(':');
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    reply.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
    pos = eol + 2;
  }
  reply.body = text.substr(end + 4);
  return reply;
}

// A request of `method` (GET, HEAD) over a fresh connection ("Connection: close").
inline HttpReply http_request(std::uint16_t port, const std::string& method,
                              const std::string& target, const std::string& extra_headers = "") {
  return parse_http_reply(http_exchange(port, method + " " + target +
                                                  " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                  "Connection: close\r\n" +
                                                  extra_headers + "\r\n"));
}

inline HttpReply http_get(std::uint16_t port, const std::string& target,
                          const std::string& extra_headers = "") {
  return http_request(port, "GET", target, extra_headers);
}

}  // namespace eboard::daemon::broadcast_test
