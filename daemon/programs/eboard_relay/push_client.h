// eboard-relay --push URL --push-token-file FILE (docs/interfaces.md §7.1): sends the round's
// PGN to a lichess broadcast round's push endpoint, so the venue needs no open port
// (docs/interfaces.md §7.1, from lichess.org/api "Push PGN to a broadcast round": POST
// .../api/broadcast/round/{id}/push, bearer token with study:write, text/plain multi-game PGN, at
// most 100 games a request; 200 answers one entry a game, {"tags":{...},"moves":N} or
// {"tags":{...},"error":"..."}).
//
// After every change, at most once a second (lila queues pushes per round; a faster
// pace buys nothing). A request that fails - no connection, a timeout, 400, 401, 5xx -
// is tried again after a backoff that doubles up to kMaxBackoff, with whatever the round
// is by then: the endpoint takes the whole round each time, so catching up is one
// request. Each game's answer is kept for the status page and logged when it changes.
// Only completed moves are in the text (live_pgn.h), so no push carries a tentative one.
//
// https:// (lichess.org; the peer's certificate is checked against the system's CAs and
// the host name), and http:// to this machine only (tests, a local proxy: the token is in
// clear), on the relay's one Asio loop.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drivers/reconnect.h"
#include "util/result.h"

namespace eboard::daemon {

struct PushUrl {
  bool tls = false;
  std::string host;
  std::uint16_t port = 0;
  std::string target;  // path and query
};
Result<PushUrl> parse_push_url(const std::string& url);

class PushClient {
 public:
  using Log = std::function<void(const std::string&)>;
  // The round now: a number that changes with it, and its games' texts in order.
  using Source = std::function<std::pair<std::uint64_t, std::vector<std::string>>()>;
  static constexpr std::size_t kMaxGames = 100;
  static constexpr std::chrono::milliseconds kMinInterval{1000};
  static constexpr std::chrono::milliseconds kMaxBackoff{30000};
  static constexpr std::chrono::seconds kTimeout{10};

  struct GameAnswer {
    std::string white, black, round, game_id;
    std::optional<int> moves;  // accepted
    std::string error;         // or refused
  };
  struct Status {
    std::uint64_t requests = 0;  // sent
    std::uint64_t failed = 0;    // without a 200
    std::string last_error;      // of the latest failed request ("" after a success)
    std::optional<std::chrono::system_clock::time_point> last_success;
    std::vector<GameAnswer> games;  // the latest 200's answers, in the order sent
  };

  PushClient(boost::asio::io_context& io, PushUrl url, std::string token, Source source, Log log);
  ~PushClient();
  PushClient(const PushClient&) = delete;
  PushClient& operator=(const PushClient&) = delete;

  // The round changed: push it (now, or when the pace allows).
  void changed();
  const Status& status() const { return status_; }
  // The number the last fully accepted push carried.
  std::uint64_t pushed_version() const { return pushed_; }

  class Exchange;  // one request (push_client.cpp)

 private:
  void schedule(std::chrono::steady_clock::time_point at);
  void push();
  void send_chunk();
  void finished(int status, const std::string& body, const std::string& error);
  void answered(const std::string& body);

  boost::asio::io_context& io_;
  PushUrl url_;
  std::string token_;
  Source source_;
  Log log_;
  std::unique_ptr<boost::asio::ssl::context> tls_;
  boost::asio::steady_timer timer_;
  drivers::Backoff backoff_{std::chrono::milliseconds(1000), kMaxBackoff};
  Status status_;
  std::uint64_t pushed_ = 0;
  bool have_pushed_ = false;
  std::uint64_t sending_ = 0;        // the version being sent
  std::vector<std::string> chunks_;  // the request bodies still to send
  std::vector<GameAnswer> answers_;  // collected over the chunks
  bool busy_ = false;
  bool scheduled_ = false;
  std::chrono::steady_clock::time_point next_allowed_{};
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace eboard::daemon
