// A stand-in for lichess's broadcast push endpoint, in the test process, implementing
// the documented contract (docs/interfaces.md §7.1):
// POST /api/broadcast/round/{id}/push with "Authorization: Bearer <token>" and a
// multi-game PGN body; 401 for a bad token, 400 {"error":...} for a body without a
// readable game, else 200 {"games":[{"tags":{...},"moves":N} | {"tags":{...},
// "error":"..."}]}, one entry a game in the order sent. Games are read with our own PGN
// reader (a wrong move is that game's error). A game whose White is `refuse_white` gets
// an error, as lila answers a game it cannot match. Every request is recorded.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/game/pgn.h"

namespace eboard::daemon::relay_test {

class PushEndpoint {
 public:
  struct Request {
    std::chrono::steady_clock::time_point at;
    std::string authorization;
    std::string content_type;
    std::string body;
    int status = 0;
    std::size_t games = 0;
  };

  PushEndpoint(std::uint16_t port, std::string token, std::string refuse_white)
      : token_(std::move(token)), refuse_white_(std::move(refuse_white)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ok_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0 && ::listen(fd_, 8) == 0;
    thread_ = std::thread([this] { serve(); });
  }
  ~PushEndpoint() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  bool ok() const { return ok_; }
  std::vector<Request> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  static std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    return out + "\"";
  }

  static std::string header(const std::string& head, const std::string& name) {
    std::string lower = head;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto at = lower.find("\r\n" + name + ":");
    if (at == std::string::npos) return "";
    const auto start = head.find_first_not_of(' ', at + name.size() + 3);
    return head.substr(start, head.find("\r\n", start) - start);
  }

  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int client = ::accept(fd_, nullptr, nullptr);
      if (client >= 0) answer(client);
    }
  }

  void answer(int client) {
    std::string text;
    char buffer[65536];
    std::size_t need = std::string::npos;
    while (need == std::string::npos || text.size() < need) {
      pollfd p{client, POLLIN, 0};
      if (::poll(&p, 1, 5000) <= 0) break;
      const ssize_t n = ::read(client, buffer, sizeof buffer);
      if (n <= 0) break;
      text.append(buffer, static_cast<std::size_t>(n));
      const auto end = text.find("\r\n\r\n");
      if (end != std::string::npos && need == std::string::npos) {
        need = end + 4 + std::stoul("0" + header(text.substr(0, end), "content-length"));
      }
    }
    const auto end = text.find("\r\n\r\n");
    Request r;
    r.at = std::chrono::steady_clock::now();
    const std::string head = end == std::string::npos ? text : text.substr(0, end);
    r.authorization = header(head, "authorization");
    r.content_type = header(head, "content-type");
    r.body = end == std::string::npos ? "" : text.substr(end + 4);
    std::string reply;
    if (!head.starts_with("POST /api/broadcast/round/abcd1234/push ")) {
      r.status = 404;
      reply = "{\"error\":\"Not found\"}";
    } else if (r.authorization != "Bearer " + token_) {
      r.status = 401;
      reply = "{\"error\":\"No such token\"}";
    } else {
      reply = games(r);
    }
    const std::string response =
        "HTTP/1.1 " + std::to_string(r.status) +
        " X\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(reply.size()) +
        "\r\nConnection: close\r\n\r\n" + reply;
    (void)!::write(client, response.data(), response.size());
    ::close(client);
    std::lock_guard lock(mutex_);
    requests_.push_back(std::move(r));
  }

  std::string games(Request& r) {
    std::string out;
    engine::PgnReader reader(r.body, "push");
    while (auto game = reader.next()) {
      if (!out.empty()) out += ",";
      ++r.games;
      if (!game->ok()) {
        out += "{\"tags\":{},\"error\":" + json_string(game->error()) + "}";
        continue;
      }
      const engine::PgnGame& g = game->value();
      std::string tags;
      for (const char* name : {"White", "Black", "Round", "GameId"}) {
        if (const std::string* v = g.tag(name)) {
          if (!tags.empty()) tags += ",";
          tags += json_string(name) + ":" + json_string(*v);
        }
      }
      out += "{\"tags\":{" + tags + "},";
      const std::string* white = g.tag("White");
      if (white != nullptr && *white == refuse_white_) {
        out += "\"error\":\"Cannot match this game to a chapter\"}";
      } else {
        out += "\"moves\":" + std::to_string(g.moves.size()) + "}";
      }
    }
    if (r.games == 0) {
      r.status = 400;
      return "{\"error\":\"No game found in the PGN\"}";
    }
    r.status = 200;
    return "{\"games\":[" + out + "]}";
  }

  std::string token_;
  std::string refuse_white_;
  int fd_ = -1;
  bool ok_ = false;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::vector<Request> requests_;
};

}  // namespace eboard::daemon::relay_test
