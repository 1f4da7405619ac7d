#include "daemon/programs/eboard_relay/push_client.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <openssl/ssl.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace eboard::daemon {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

Result<PushUrl> parse_push_url(const std::string& url) {
  PushUrl out;
  std::string rest;
  if (url.starts_with("https://")) {
    out.tls = true;
    rest = url.substr(8);
  } else if (url.starts_with("http://")) {
    rest = url.substr(7);
  } else {
    return Error{"--push: '" + url + "' is not an http:// or https:// URL"};
  }
  const auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  out.target = slash == std::string::npos ? "/" : rest.substr(slash);
  out.port = out.tls ? 443 : 80;
  const auto colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']', colon) == std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    char* end = nullptr;
    const long n = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || n < 1 || n > 65535)
      return Error{"--push: '" + url + "': bad port '" + port + "'"};
    out.port = static_cast<std::uint16_t>(n);
    authority.resize(colon);
  }
  if (authority.starts_with('[') && authority.ends_with(']'))
    authority = authority.substr(1, authority.size() - 2);
  if (authority.empty()) return Error{"--push: '" + url + "' has no host"};
  out.host = authority;
  // The bearer token may go in clear only to this machine (a stand-in endpoint, a local
  // proxy); anything that leaves it needs https.
  const bool loopback =
      out.host == "localhost" || out.host == "::1" || out.host.starts_with("127.");
  if (!out.tls && !loopback) {
    return Error{"--push: '" + url + "': the token would travel in clear; use https://"};
  }
  return out;
}

// One POST over a fresh connection: resolve, connect, (TLS), write, read, close. The
// whole exchange has kTimeout; the answer or the error goes to `done` once.
class PushClient::Exchange : public std::enable_shared_from_this<Exchange> {
 public:
  using Done = std::function<void(int status, const std::string& body, const std::string& error)>;

  Exchange(asio::io_context& io, asio::ssl::context* tls, const PushUrl& url,
           http::request<http::string_body> request, Done done)
      : resolver_(io), url_(url), request_(std::move(request)), done_(std::move(done)) {
    if (tls != nullptr) {
      tls_stream_.emplace(io, *tls);
    } else {
      plain_.emplace(io);
    }
  }

  void start() {
    auto self = shared_from_this();
    resolver_.async_resolve(url_.host, std::to_string(url_.port),
                            [self](const beast::error_code& error, tcp::resolver::results_type r) {
                              if (error) return self->fail("cannot resolve: " + error.message());
                              self->connect(r);
                            });
  }

 private:
  beast::tcp_stream& lowest() {
    return tls_stream_ ? beast::get_lowest_layer(*tls_stream_) : *plain_;
  }

  void connect(const tcp::resolver::results_type& results) {
    lowest().expires_after(kTimeout);
    auto self = shared_from_this();
    lowest().async_connect(results, [self](const beast::error_code& error, const tcp::endpoint&) {
      if (error) return self->fail("cannot connect: " + error.message());
      if (!self->tls_stream_) return self->write(*self->plain_);
      self->handshake();
    });
  }

  void handshake() {
    auto& s = *tls_stream_;
    SSL_set_tlsext_host_name(s.native_handle(), url_.host.c_str());  // SNI
    s.set_verify_mode(asio::ssl::verify_peer);
    s.set_verify_callback(asio::ssl::host_name_verification(url_.host));
    auto self = shared_from_this();
    s.async_handshake(asio::ssl::stream_base::client, [self](const beast::error_code& error) {
      if (error) return self->fail("TLS: " + error.message());
      self->write(*self->tls_stream_);
    });
  }

  template <class Stream>
  void write(Stream& stream) {
    auto self = shared_from_this();
    http::async_write(
        stream, request_, [self, &stream](const beast::error_code& error, std::size_t) {
          if (error) return self->fail("cannot send: " + error.message());
          http::async_read(stream, self->buffer_, self->response_,
                           [self](const beast::error_code& e, std::size_t) {
                             if (e) return self->fail("no answer: " + e.message());
                             self->close();
                             self->done_(static_cast<int>(self->response_.result_int()),
                                         self->response_.body(), "");
                           });
        });
  }

  void close() {
    beast::error_code ignored;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ignored);
    lowest().socket().close(ignored);
  }

  void fail(const std::string& error) {
    close();
    done_(0, "", error);
  }

  tcp::resolver resolver_;
  PushUrl url_;
  std::optional<beast::tcp_stream> plain_;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_stream_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
  beast::flat_buffer buffer_;
  Done done_;
};

PushClient::PushClient(asio::io_context& io, PushUrl url, std::string token, Source source, Log log)
    : io_(io),
      url_(std::move(url)),
      token_(std::move(token)),
      source_(std::move(source)),
      log_(std::move(log)),
      timer_(io) {
  if (url_.tls) {
    tls_ = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_client);
    tls_->set_default_verify_paths();
  }
}

PushClient::~PushClient() { *alive_ = false; }

void PushClient::changed() {
  if (busy_ || scheduled_) return;  // the push in progress or due takes the latest round
  schedule(std::max(std::chrono::steady_clock::now(), next_allowed_));
}

void PushClient::schedule(std::chrono::steady_clock::time_point at) {
  scheduled_ = true;
  timer_.expires_at(at);
  timer_.async_wait([this](const boost::system::error_code& error) {
    scheduled_ = false;
    if (!error) push();
  });
}

void PushClient::push() {
  auto [version, games] = source_();
  if (have_pushed_ && version == pushed_) return;
  sending_ = version;
  chunks_.clear();
  for (std::size_t i = 0; i < games.size(); i += kMaxGames) {
    std::string body;
    for (std::size_t g = i; g < std::min(games.size(), i + kMaxGames); ++g) body += games[g];
    chunks_.push_back(std::move(body));
  }
  if (chunks_.empty()) return;  // nothing to broadcast yet
  answers_.clear();
  busy_ = true;
  send_chunk();
}

void PushClient::send_chunk() {
  http::request<http::string_body> request(http::verb::post, url_.target, 11);
  request.set(http::field::host, url_.host);
  request.set(http::field::user_agent, "eboard-relay");
  request.set(http::field::authorization, "Bearer " + token_);
  request.set(http::field::content_type, "text/plain; charset=utf-8");
  request.set(http::field::connection, "close");
  request.body() = chunks_.front();
  request.prepare_payload();
  ++status_.requests;
  auto alive = alive_;
  std::make_shared<Exchange>(
      io_, tls_.get(), url_, std::move(request),
      [this, alive](int status, const std::string& body, const std::string& error) {
        if (*alive) finished(status, body, error);
      })
      ->start();
}

void PushClient::finished(int status, const std::string& body, const std::string& error) {
  // The second between two pushes counts from this answer, not from the start of the
  // request: the endpoint read the request before it answered, so its next one arrives
  // at least a second later however long this one took to connect and send.
  next_allowed_ = std::chrono::steady_clock::now() + kMinInterval;
  if (status == 200) {
    answered(body);
    chunks_.erase(chunks_.begin());
    if (!chunks_.empty()) return send_chunk();
    busy_ = false;
    pushed_ = sending_;
    have_pushed_ = true;
    backoff_.reset();
    status_.last_error.clear();
    status_.last_success = std::chrono::system_clock::now();
    status_.games = answers_;
    // Changes during the request: the next push, once the pace allows.
    if (source_().first != pushed_) schedule(next_allowed_);
    return;
  }
  busy_ = false;
  ++status_.failed;
  std::string why = error;
  if (why.empty()) {
    why = "HTTP " + std::to_string(status);
    if (status == 401) why += " (the token is not accepted)";
    google::protobuf::Struct answer;
    if (google::protobuf::util::JsonStringToMessage(body, &answer).ok() &&
        answer.fields().contains("error"))
      why += ": " + answer.fields().at("error").string_value();
  }
  const auto delay = backoff_.next_delay();
  if (why != status_.last_error)
    log_("push: " + why + "; again in " + std::to_string(delay.count()) + " ms");
  status_.last_error = why;
  schedule(std::chrono::steady_clock::now() + delay);
}

// {"games":[{"tags":{...},"moves":N} | {"tags":{...},"error":"..."}]}: logged per game
// when its answer changes.
void PushClient::answered(const std::string& body) {
  google::protobuf::Struct answer;
  if (!google::protobuf::util::JsonStringToMessage(body, &answer).ok() ||
      !answer.fields().contains("games")) {
    log_("push: the endpoint's answer is not the documented JSON: " + body.substr(0, 120));
    return;
  }
  for (const auto& entry : answer.fields().at("games").list_value().values()) {
    const auto& game = entry.struct_value().fields();
    GameAnswer a;
    if (game.contains("tags")) {
      const auto& tags = game.at("tags").struct_value().fields();
      auto tag = [&](const char* name) {
        return tags.contains(name) ? tags.at(name).string_value() : std::string();
      };
      a.white = tag("White");
      a.black = tag("Black");
      a.round = tag("Round");
      a.game_id = tag("GameId");
    }
    if (game.contains("moves")) a.moves = static_cast<int>(game.at("moves").number_value());
    if (game.contains("error")) a.error = game.at("error").string_value();
    const std::size_t i = answers_.size();
    const bool was_error = i < status_.games.size() && !status_.games[i].error.empty();
    if (!a.error.empty() && (i >= status_.games.size() || status_.games[i].error != a.error)) {
      log_("push: game " + a.round + " " + a.white + " - " + a.black + ": " + a.error);
    } else if (a.error.empty() && was_error) {
      log_("push: game " + a.round + " " + a.white + " - " + a.black + ": accepted again");
    }
    answers_.push_back(std::move(a));
  }
}

}  // namespace eboard::daemon
