#include "daemon/sinks/http_server.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "daemon/sinks/http_response.h"
#include "daemon/sinks/http_route.h"
#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace v1 = eboard::v1;
using tcp = asio::ip::tcp;

constexpr auto kRequestTimeout = std::chrono::seconds(30);

// One HTTP connection: read a request, answer it from memory, repeat while kept alive;
// hand the socket to a WsSession on an upgrade.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, HttpServer& server)
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
          if (auto status = http_refusal_status(error)) {
            return self->send(http_serialize(http_refusal(*status), http::verb::get), false);
          }
          self->close();
        });
  }

 private:
  using Request = WsSession::Request;
  using Response = http::response<http::string_body>;

  void handle(Request request) {
    const auto target = request.target();
    const Route route = parse_route(std::string_view(target.data(), target.size()));
    if (route.kind == RouteKind::kWebSocket && beast::websocket::is_upgrade(request)) {
      const auto board = server_.hub().find_board(route.board);
      if (board) {
        server_.open_websocket(std::move(stream_), std::move(request), *board, route.binary);
        return;
      }
    }
    Response response = answer(request, route);
    response.keep_alive(request.keep_alive());
    send(http_serialize(std::move(response), request.method()), request.keep_alive());
  }

  // Writes an answer's bytes; reads the next request if the connection stays open.
  void send(std::string bytes, bool keep_alive) {
    auto message = std::make_shared<const std::string>(std::move(bytes));
    auto self = shared_from_this();
    asio::async_write(stream_, asio::buffer(*message),
                      [self, message, keep_alive](const beast::error_code& error, std::size_t) {
                        if (error || !keep_alive) return self->close();
                        self->read();
                      });
  }

  Response plain(const Request& request, http::status status, std::string body) {
    return http_plain(request.version(), status, std::move(body));
  }

  Response answer(const Request& request, const Route& route) {
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      Response r = plain(request, http::status::method_not_allowed, "read-only: GET only\n");
      r.set(http::field::allow, "GET, HEAD");
      return r;
    }
    const BroadcastBoards& boards = server_.boards();
    switch (route.kind) {
      case RouteKind::kIndex: return index(request);
      case RouteKind::kLivePgn: return pgn(request, boards.live_pgn(), boards.live_etag());
      case RouteKind::kBoardPgn:
        if (auto board = server_.hub().find_board(route.board)) {
          return pgn(request, boards.pgn(*board), boards.etag(*board));
        }
        break;
      case RouteKind::kOverlay:
        if (server_.hub().find_board(route.board)) {
          Response r(http::status::ok, request.version());
          r.set(http::field::content_type, "text/html; charset=utf-8");
          r.set(http::field::cache_control, "no-cache");
          r.body() = std::string(overlay_page());
          return r;
        }
        break;
      case RouteKind::kWebSocket:
        if (server_.hub().find_board(route.board)) {
          return plain(request, http::status::upgrade_required, "WebSocket only\n");
        }
        break;
      case RouteKind::kBadRequest:
        return plain(request, http::status::bad_request, "bad request target\n");
      case RouteKind::kNotFound: break;
    }
    return plain(request, http::status::not_found, "not found\n");
  }

  Response pgn(const Request& request, const std::string& text, const std::string& etag) {
    Response r = http_entity(request, text, etag, "application/x-chess-pgn; charset=utf-8");
    r.set(http::field::access_control_allow_origin, "*");
    return r;
  }

  Response index(const Request& request) {
    std::string body =
        "<!doctype html><meta charset=utf-8><title>eboardd</title>"
        "<style>body{font:16px system-ui,sans-serif;margin:2em}td{padding:.2em 1em}</style>"
        "<h1>eboardd boards</h1><p><a href=/live.pgn>live.pgn</a> (every board)</p><table>";
    const BroadcastBoards& boards = server_.boards();
    for (std::size_t b = 0; b < boards.size(); ++b) {
      const std::string id = html_escape(boards.id(b));
      body += "<tr><td>" + id + "</td><td><a href=\"/overlay?board=" + id +
              "\">overlay</a></td><td><a href=\"/boards/" + id + ".pgn\">pgn</a></td></tr>";
    }
    body += "</table>";
    Response r(http::status::ok, request.version());
    r.set(http::field::content_type, "text/html; charset=utf-8");
    r.body() = std::move(body);
    return r;
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  HttpServer& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

HttpServer::HttpServer(asio::io_context& io, const EventHub& hub, const BroadcastBoards& boards,
                       std::size_t ws_queue_bytes, Log log)
    : io_(io), hub_(hub), boards_(boards), ws_queue_bytes_(ws_queue_bytes), log_(std::move(log)) {}

HttpServer::~HttpServer() { shutdown(); }

std::optional<Error> HttpServer::listen(const std::string& host, std::uint16_t port) {
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

void HttpServer::accept() {
  acceptor_->async_accept([this](const boost::system::error_code& error, tcp::socket socket) {
    if (stopped_) return;
    if (!error) {
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), *this)->read();
    }
    accept();
  });
}

SharedBytes HttpServer::snapshot_message(std::size_t board, bool binary) const {
  v1::Frame frame;
  v1::Snapshot* snapshot = frame.mutable_snapshot();
  *snapshot = hub_.state(board).snapshot();
  // Counts of illegal moves are the arbiter's business in some rule sets (rules.md D14);
  // a public screen never shows them.
  snapshot->clear_white_illegal_count();
  snapshot->clear_black_illegal_count();
  return std::make_shared<const std::string>(binary ? frame.SerializeAsString()
                                                    : proto::to_json_line(frame));
}

void HttpServer::open_websocket(beast::tcp_stream stream, WsSession::Request request,
                                std::size_t board, bool binary) {
  // The kernel's send buffer would otherwise grow (autotuning, up to tcp_wmem's 4 MiB) and
  // swallow megabytes for a client that does not read, long before the bounded queue
  // noticed it; a fixed one keeps both small and lets the queue decide (ws_session.h).
  boost::system::error_code ignored;
  stream.socket().set_option(boost::asio::socket_base::send_buffer_size(kWsSendBufferBytes),
                             ignored);
  boost::system::error_code no_peer;
  const auto endpoint = stream.socket().remote_endpoint(no_peer);
  std::string peer =
      no_peer ? "?" : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  auto session = std::make_shared<WsSession>(
      std::move(stream), board, binary, ws_queue_bytes_,
      [this, peer = std::move(peer)](WsSession* closed, const std::string& reason) {
        if (!reason.empty() && log_) log_("http: WebSocket client " + peer + " dropped: " + reason);
        sessions_.remove_if([closed](const auto& s) { return s.get() == closed; });
      });
  sessions_.push_back(session);
  session->accept(std::move(request), snapshot_message(board, binary));
}

void HttpServer::on_event(std::size_t board, const v1::Event& event, const SharedBytes& frame) {
  if (event.visibility() != v1::VISIBILITY_PUBLIC || sessions_.empty()) return;
  SharedBytes json;
  SharedBytes binary;
  // A client dropped while sending removes itself from sessions_: walk a copy.
  const auto sessions = sessions_;
  for (const auto& session : sessions) {
    if (session->board() != board) continue;
    if (session->binary()) {
      if (!binary) {
        // The stream socket's frame without its varint length: one Frame per message.
        std::size_t skip = 0;
        while (skip < frame->size() && (static_cast<unsigned char>((*frame)[skip]) & 0x80)) ++skip;
        binary = std::make_shared<const std::string>(frame->substr(skip + 1));
      }
      session->send(binary);
    } else {
      if (!json) {
        v1::Frame f;
        *f.mutable_event() = event;
        json = std::make_shared<const std::string>(proto::to_json_line(f));
      }
      session->send(json);
    }
  }
}

void HttpServer::shutdown() {
  if (stopped_) return;
  stopped_ = true;
  if (acceptor_) {
    boost::system::error_code ignored;
    acceptor_->close(ignored);
  }
  const auto sessions = sessions_;
  for (const auto& s : sessions) s->close();
  sessions_.clear();
}

}  // namespace eboard::daemon
