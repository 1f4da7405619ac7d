#include "daemon/sinks/http_server.h"

#include <boost/asio/ip/address.hpp>
#include <boost/beast/ssl.hpp>
#include <cassert>

#include "daemon/sinks/http_response.h"
#include "daemon/sinks/http_session.h"
#include "eboard/v1/json.h"
#include "util/varint.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace v1 = eboard::v1;
using tcp = asio::ip::tcp;
using Request = ConsoleHttp::Request;
using Response = ConsoleHttp::Response;

Response plain(const Request& request, http::status status, std::string body) {
  return http_plain(request.version(), status, std::move(body));
}

Response pgn(const Request& request, const std::string& text, const std::string& etag) {
  Response r = http_entity(request, text, etag, "application/x-chess-pgn; charset=utf-8");
  r.set(http::field::access_control_allow_origin, "*");
  return r;
}

Response index(const HttpServer& server, const Request& request) {
  std::string body =
      "<!doctype html><meta charset=utf-8><title>eboardd</title>"
      "<style>body{font:16px system-ui,sans-serif;margin:2em}td{padding:.2em 1em}</style>"
      "<h1>eboardd boards</h1><p><a href=/live.pgn>live.pgn</a> (every board)";
  if (server.console()) {
    body += " · <a href=/arbiter>arbiter console</a>";
  }
  body += "</p><table>";
  const BroadcastBoards& boards = server.boards();
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

bool is_loopback(const asio::ip::address& address) {
  return address.is_loopback() ||
         (address.is_v6() && address.to_v6().is_v4_mapped() &&
          asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).is_loopback());
}

}  // namespace

Response answer_page(const HttpServer& server, const Request& request, const Route& route) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    Response r = plain(request, http::status::method_not_allowed, "read-only: GET only\n");
    r.set(http::field::allow, "GET, HEAD");
    return r;
  }
  const BroadcastBoards& boards = server.boards();
  switch (route.kind) {
    case RouteKind::kIndex: return index(server, request);
    case RouteKind::kLivePgn: return pgn(request, boards.live_pgn(), boards.live_etag());
    case RouteKind::kBoardPgn:
      if (auto board = server.hub().find_board(route.board)) {
        return pgn(request, boards.pgn(*board), boards.etag(*board));
      }
      break;
    case RouteKind::kOverlay:
      if (server.hub().find_board(route.board)) {
        Response r(http::status::ok, request.version());
        r.set(http::field::content_type, "text/html; charset=utf-8");
        r.set(http::field::cache_control, "no-cache");
        r.body() = std::string(overlay_page());
        return r;
      }
      break;
    case RouteKind::kWebSocket:
    case RouteKind::kConsoleWebSocket:
      if (route.kind == RouteKind::kConsoleWebSocket || server.hub().find_board(route.board)) {
        return plain(request, http::status::upgrade_required, "WebSocket only\n");
      }
      break;
    case RouteKind::kBadRequest:
      return plain(request, http::status::bad_request, "bad request target\n");
    case RouteKind::kConsole:
    case RouteKind::kNotFound: break;
  }
  return plain(request, http::status::not_found, "not found\n");
}

HttpServer::HttpServer(asio::io_context& io, const EventSource& hub, const BroadcastBoards& boards,
                       std::size_t ws_queue_bytes, ConsoleHttp* console, Log log)
    : io_(io),
      hub_(hub),
      boards_(boards),
      ws_queue_bytes_(ws_queue_bytes),
      console_(console),
      feed_(hub),
      log_(std::move(log)) {}

HttpServer::~HttpServer() { shutdown(); }

std::optional<Error> HttpServer::listen(const std::string& host, std::uint16_t port,
                                        std::shared_ptr<asio::ssl::context> tls) {
  const std::string where =
      std::string(tls ? "--https " : "--http ") + host + ":" + std::to_string(port);
  boost::system::error_code error;
  const auto address = asio::ip::make_address(host, error);
  if (error) return Error{where + ": '" + host + "' is not an IP address"};
  auto listener = std::make_unique<Listener>();
  listener->acceptor = std::make_unique<tcp::acceptor>(io_);
  listener->tls = std::move(tls);
  listener->loopback = is_loopback(address);
  tcp::acceptor& acceptor = *listener->acceptor;
  const tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), error);
  if (!error) acceptor.set_option(asio::socket_base::reuse_address(true), error);
  if (!error) acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) return Error{where + ": " + error.message()};
  listener->port = acceptor.local_endpoint().port();
  listeners_.push_back(std::move(listener));
  accept(*listeners_.back());
  return std::nullopt;
}

void HttpServer::accept(Listener& listener) {
  listener.acceptor->async_accept([this, &listener](const boost::system::error_code& error,
                                                    tcp::socket socket) {
    if (stopped_) return;
    if (!error) {
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      const auto remote = socket.remote_endpoint(ignored);
      ConsoleConnection connection{listener.tls != nullptr, listener.loopback,
                                   remote.address().to_string()};
      if (!listener.tls) {
        std::make_shared<HttpSession<PlainStream>>(PlainStream(std::move(socket)), *this,
                                                   std::move(connection))
            ->read();
      } else {
        auto stream = std::make_shared<TlsStream>(std::move(socket), *listener.tls);
        beast::get_lowest_layer(*stream).expires_after(HttpSession<TlsStream>::kRequestTimeout);
        stream->async_handshake(asio::ssl::stream_base::server, [this, stream,
                                                                 connection =
                                                                     std::move(connection)](
                                                                    const beast::error_code& e) {
          if (e || stopped_) return;
          std::make_shared<HttpSession<TlsStream>>(std::move(*stream), *this, connection)->read();
        });
      }
    }
    accept(listener);
  });
}

std::vector<SharedBytes> HttpServer::opening(std::optional<std::size_t> board, ConsoleView view,
                                             bool binary) {
  if (!board) return feed_.opening(view, binary);
  v1::Frame frame;
  v1::Snapshot* snapshot = frame.mutable_snapshot();
  *snapshot = hub_.state(*board).snapshot();
  // Counts of illegal moves are the arbiter's business in some rule sets (docs/rules.md D14);
  // a public screen never shows them.
  snapshot->clear_white_illegal_count();
  snapshot->clear_black_illegal_count();
  return {std::make_shared<const std::string>(binary ? frame.SerializeAsString()
                                                     : proto::to_json_line(frame))};
}

template <class Stream>
void HttpServer::open_websocket(Stream stream, WsClient::Request request,
                                std::optional<std::size_t> board, ConsoleView view, bool binary) {
  // The kernel's send buffer would otherwise grow (autotuning, up to tcp_wmem's 4 MiB) and
  // swallow megabytes for a client that does not read, long before the bounded queue
  // noticed it; a fixed one keeps both small and lets the queue decide (ws_session.h).
  auto& socket = beast::get_lowest_layer(stream).socket();
  boost::system::error_code ignored;
  socket.set_option(asio::socket_base::send_buffer_size(kWsSendBufferBytes), ignored);
  boost::system::error_code no_peer;
  const auto endpoint = socket.remote_endpoint(no_peer);
  std::string peer =
      no_peer ? "?" : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  const std::size_t limit = board ? ws_queue_bytes_ : std::max(ws_queue_bytes_, kConsoleQueueBytes);
  auto client = std::make_shared<WsSession<Stream>>(
      std::move(stream), board, view, binary, limit,
      [this, peer = std::move(peer)](WsClient* closed, const std::string& reason) {
        if (!reason.empty() && log_) log_("http: WebSocket client " + peer + " dropped: " + reason);
        clients_.remove_if([closed](const auto& c) { return c.get() == closed; });
      });
  clients_.push_back(client);
  client->accept(std::move(request), opening(board, view, binary));
}

template void HttpServer::open_websocket(PlainStream, WsClient::Request, std::optional<std::size_t>,
                                         ConsoleView, bool);
template void HttpServer::open_websocket(TlsStream, WsClient::Request, std::optional<std::size_t>,
                                         ConsoleView, bool);

void HttpServer::on_event(std::size_t board, const v1::Event& event, const SharedBytes& frame) {
  feed_.note(board, event);
  if (clients_.empty()) return;
  SharedBytes json;
  SharedBytes binary;
  // A client dropped while sending removes itself from clients_: walk a copy.
  const auto clients = clients_;
  for (const auto& client : clients) {
    if (!client->wants(board, event)) continue;
    if (client->binary()) {
      if (!binary) {
        // The stream socket's frame without its varint length: one Frame per message.
        const VarintRead length = read_varint(*frame);
        assert(length.status == VarintStatus::kComplete);
        binary = std::make_shared<const std::string>(frame->substr(length.bytes));
      }
      client->send(binary);
    } else {
      if (!json) {
        v1::Frame f;
        *f.mutable_event() = event;
        json = std::make_shared<const std::string>(proto::to_json_line(f));
      }
      client->send(json);
    }
  }
}

void HttpServer::shutdown() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& listener : listeners_) {
    boost::system::error_code ignored;
    listener->acceptor->close(ignored);
  }
  const auto clients = clients_;
  for (const auto& c : clients) c->close();
  clients_.clear();
}

}  // namespace eboard::daemon
