#include "daemon/programs/eboard_relay/relay_http.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <ctime>

#include "daemon/sinks/http_response.h"
#include "daemon/sinks/http_server.h"
#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace v1 = eboard::v1;
using tcp = asio::ip::tcp;
using Kind = RelayRoute::Kind;

constexpr auto kRequestTimeout = std::chrono::seconds(30);

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return id != "." && id != "..";
}

// "NODE/BOARD" (also with the slash as %2F) into a key; nullopt when malformed.
std::optional<BoardKey> board_key(std::string_view text) {
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 3) == "%2F" || text.substr(i, 3) == "%2f") {
      decoded.push_back('/');
      i += 2;
    } else {
      decoded.push_back(text[i]);
    }
  }
  const auto slash = decoded.find('/');
  if (slash == std::string::npos) return std::nullopt;
  BoardKey key{decoded.substr(0, slash), decoded.substr(slash + 1)};
  if (!valid_id(key.node) || !valid_id(key.board)) return std::nullopt;
  return key;
}

}  // namespace

RelayRoute parse_relay_route(std::string_view target) {
  RelayRoute route;
  if (target.empty() || target.front() != '/' || target.size() > 1024) {
    route.kind = Kind::kBadRequest;
    return route;
  }
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query =
      question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
  if (path == "/" || path == "/index.html") {
    route.kind = Kind::kIndex;
  } else if (path == "/round.pgn") {
    route.kind = Kind::kRound;
  } else if (path.starts_with("/boards/") && path.ends_with(".pgn")) {
    if (auto key = board_key(path.substr(8, path.size() - 12))) {
      route.kind = Kind::kBoard;
      route.board = *key;
    }
  } else if (path == "/overlay" || path == "/ws") {
    std::optional<BoardKey> key;
    for (std::string_view rest = query; !rest.empty();) {
      const auto amp = rest.find('&');
      const std::string_view pair = rest.substr(0, amp);
      rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
      if (pair.starts_with("board=")) key = board_key(pair.substr(6));
    }
    if (!key) {
      route.kind = Kind::kBadRequest;
      return route;
    }
    route.kind = path == "/ws" ? Kind::kWebSocket : Kind::kOverlay;
    route.board = *key;
  }
  return route;
}

namespace {

class RelaySession : public std::enable_shared_from_this<RelaySession> {
 public:
  RelaySession(tcp::socket socket, RelayHttp& server)
      : stream_(std::move(socket)), server_(server) {}

  void read() {
    parser_.emplace();
    parser_->header_limit(kHttpHeaderLimit);
    parser_->body_limit(0);
    stream_.expires_after(kRequestTimeout);
    auto self = shared_from_this();
    http::async_read(
        stream_, buffer_, *parser_, [self](const beast::error_code& error, std::size_t) {
          if (!error) return self->handle(self->parser_->release());
          if (auto status = http_refusal_status(error))
            return self->send(http_serialize(http_refusal(*status), http::verb::get), false);
          self->close();
        });
  }

 private:
  void handle(HttpRequest request) {
    const auto target = request.target();
    const RelayRoute route = parse_relay_route(std::string_view(target.data(), target.size()));
    if (route.kind == Kind::kWebSocket && beast::websocket::is_upgrade(request) &&
        server_.games().board(route.board)) {
      return server_.open_websocket(std::move(stream_), std::move(request), route.board);
    }
    HttpResponse response = answer(request, route);
    response.keep_alive(request.keep_alive());
    send(http_serialize(std::move(response), request.method()), request.keep_alive());
  }

  HttpResponse answer(const HttpRequest& request, const RelayRoute& route) {
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      HttpResponse r =
          http_plain(request.version(), HttpStatus::method_not_allowed, "read-only: GET only\n");
      r.set(http::field::allow, "GET, HEAD");
      return r;
    }
    const EventGames& games = server_.games();
    constexpr std::string_view kPgn = "application/x-chess-pgn; charset=utf-8";
    switch (route.kind) {
      case Kind::kIndex: {
        HttpResponse r(HttpStatus::ok, request.version());
        r.set(http::field::content_type, "text/html; charset=utf-8");
        r.set(http::field::cache_control, "no-cache");
        r.body() = server_.answer_index();
        return r;
      }
      case Kind::kRound: {
        HttpResponse r = http_entity(request, games.round_pgn(), games.round_etag(), kPgn);
        r.set(http::field::access_control_allow_origin, "*");
        return r;
      }
      case Kind::kBoard:
        if (const LivePgn* pgn = games.board(route.board)) {
          HttpResponse r = http_entity(request, pgn->text(), entity_tag(pgn->text()), kPgn);
          r.set(http::field::access_control_allow_origin, "*");
          return r;
        }
        break;
      case Kind::kOverlay:
        if (games.board(route.board)) {
          HttpResponse r(HttpStatus::ok, request.version());
          r.set(http::field::content_type, "text/html; charset=utf-8");
          r.set(http::field::cache_control, "no-cache");
          r.body() = std::string(overlay_page());
          return r;
        }
        break;
      case Kind::kWebSocket:
        if (games.board(route.board))
          return http_plain(request.version(), HttpStatus::upgrade_required, "WebSocket only\n");
        break;
      case Kind::kBadRequest:
        return http_plain(request.version(), HttpStatus::bad_request, "bad request target\n");
      case Kind::kNotFound: break;
    }
    return http_plain(request.version(), HttpStatus::not_found, "not found\n");
  }

  void send(std::string bytes, bool keep_alive) {
    auto message = std::make_shared<const std::string>(std::move(bytes));
    auto self = shared_from_this();
    asio::async_write(stream_, asio::buffer(*message),
                      [self, message, keep_alive](const beast::error_code& error, std::size_t) {
                        if (error || !keep_alive) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  RelayHttp& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

RelayHttp::RelayHttp(asio::io_context& io, const EventGames& games, const MqttFanIn& fan,
                     const PushClient* push, std::string site, Log log)
    : io_(io),
      games_(games),
      fan_(fan),
      push_(push),
      site_(std::move(site)),
      log_(std::move(log)) {}

RelayHttp::~RelayHttp() {
  stopped_ = true;
  if (acceptor_) {
    boost::system::error_code ignored;
    acceptor_->close(ignored);
  }
  const auto sessions = sessions_;
  for (const auto& s : sessions) s->close();
}

std::optional<Error> RelayHttp::listen(const std::string& host, std::uint16_t port) {
  const std::string where = "--http " + host + ":" + std::to_string(port);
  boost::system::error_code error;
  const auto address = asio::ip::make_address(host, error);
  if (error) return Error{where + ": '" + host + "' is not an IP address"};
  acceptor_.emplace(io_);
  const tcp::endpoint endpoint(address, port);
  acceptor_->open(endpoint.protocol(), error);
  if (!error) acceptor_->set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor_->bind(endpoint, error);
  if (!error) acceptor_->listen(asio::socket_base::max_listen_connections, error);
  if (error) return Error{where + ": " + error.message()};
  port_ = acceptor_->local_endpoint().port();
  accept();
  return std::nullopt;
}

void RelayHttp::accept() {
  acceptor_->async_accept([this](const boost::system::error_code& error, tcp::socket socket) {
    if (stopped_) return;
    if (!error) {
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<RelaySession>(std::move(socket), *this)->read();
    }
    accept();
  });
}

void RelayHttp::open_websocket(beast::tcp_stream stream, WsClient::Request request,
                               const BoardKey& key) {
  const std::size_t index = board_index_.try_emplace(key, board_index_.size()).first->second;
  v1::Frame frame;
  for (const auto& game : games_.games()) {
    if (game.key == key) *frame.mutable_snapshot() = game.state->snapshot();
  }
  frame.mutable_snapshot()->clear_white_illegal_count();  // never on a public screen (D14)
  frame.mutable_snapshot()->clear_black_illegal_count();
  // Public events only, as JSON, like the daemon's /ws?board=ID.
  auto session = std::make_shared<WsSession<PlainStream>>(
      std::move(stream), index, ConsoleView::kPublic, false, kWsQueueBytes,
      [this, key](WsClient* closed, const std::string& reason) {
        if (!reason.empty())
          log_("http: WebSocket client of " + key.text() + " dropped: " + reason);
        sessions_.remove_if([closed](const auto& s) { return s.get() == closed; });
      });
  sessions_.push_back(session);
  session->accept(std::move(request),
                  {std::make_shared<const std::string>(proto::to_json_line(frame))});
}

void RelayHttp::on_event(const BoardKey& key, const v1::Event& event) {
  if (event.visibility() != v1::VISIBILITY_PUBLIC || sessions_.empty()) return;
  const auto found = board_index_.find(key);
  if (found == board_index_.end()) return;
  // The board's clients only, picked first: a send may drop a client, which leaves
  // sessions_ (and copying the whole list for every event cost more than the sends).
  std::vector<std::shared_ptr<WsClient>> clients;
  for (const auto& session : sessions_) {
    if (session->wants(found->second, event)) clients.push_back(session);
  }
  if (clients.empty()) return;
  v1::Frame frame;
  *frame.mutable_event() = event;
  const auto json = std::make_shared<const std::string>(proto::to_json_line(frame));
  for (const auto& client : clients) client->send(json);
}

}  // namespace eboard::daemon
