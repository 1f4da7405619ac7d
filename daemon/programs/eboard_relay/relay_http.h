// eboard-relay's web server (docs/interfaces.md §7.1), on the relay's one Asio loop:
//   /round.pgn                the round's games in board order: a lichess broadcast's
//                             source URL (strong ETag, 304 on If-None-Match, UTF-8)
//   /boards/NODE/BOARD.pgn    one board's game
//   /                         the event page: boards, players, results, the push's
//                             answers per game, and links to each overlay
//   /overlay?board=NODE/BOARD the TV overlay (daemon/sinks/web/overlay.html), fed by
//   /ws?board=NODE/BOARD      a WebSocket of the board's snapshot and public events
// Read-only: GET and HEAD; answers are built by daemon/sinks/http_response.h, as the
// daemon's own server does.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>

#include "daemon/programs/eboard_relay/event_games.h"
#include "daemon/programs/eboard_relay/push_client.h"
#include "daemon/sinks/ws_session.h"
#include "util/result.h"

namespace eboard::daemon {

struct RelayRoute {
  enum class Kind : std::uint8_t {
    kNotFound,
    kBadRequest,
    kIndex,
    kRound,
    kBoard,
    kOverlay,
    kWebSocket
  };
  Kind kind = Kind::kNotFound;
  BoardKey board;
};
RelayRoute parse_relay_route(std::string_view target);

class RelayHttp {
 public:
  using Log = std::function<void(const std::string&)>;
  static constexpr std::size_t kWsQueueBytes = 1 << 20;

  RelayHttp(boost::asio::io_context& io, const EventGames& games, const MqttFanIn& fan,
            const PushClient* push, std::string site, Log log);
  ~RelayHttp();
  RelayHttp(const RelayHttp&) = delete;
  RelayHttp& operator=(const RelayHttp&) = delete;

  std::optional<Error> listen(const std::string& host, std::uint16_t port);
  std::uint16_t port() const { return port_; }
  // A board's event, in order: to its WebSocket clients (public events only).
  void on_event(const BoardKey& key, const eboard::v1::Event& event);

  // For the connections (relay_http.cpp).
  std::string answer_index() const;
  const EventGames& games() const { return games_; }
  void open_websocket(boost::beast::tcp_stream stream, WsClient::Request request,
                      const BoardKey& key);

 private:
  void accept();

  boost::asio::io_context& io_;
  const EventGames& games_;
  const MqttFanIn& fan_;
  const PushClient* push_;
  std::string site_;
  Log log_;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor_;
  std::uint16_t port_ = 0;
  std::map<BoardKey, std::size_t> board_index_;  // WsSession's board number
  std::list<std::shared_ptr<WsClient>> sessions_;
  bool stopped_ = false;
};

}  // namespace eboard::daemon
