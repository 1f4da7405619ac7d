#include "daemon/sinks/console_http.h"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http.hpp>

#include "daemon/core/consumer.h"
#include "daemon/sinks/console_command.h"
#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace http = boost::beast::http;
namespace v1 = eboard::v1;
using Request = ConsoleHttp::Request;
using Response = ConsoleHttp::Response;

std::string_view header(const Request& request, http::field field) {
  const auto value = request[field];
  return {value.data(), value.size()};
}

// The Protobuf JSON mapping has its own escaping; a short message needs only quotes
// and backslashes escaped (our messages hold no control characters).
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

Response json(const Request& request, http::status status, std::string body) {
  Response r(status, request.version());
  r.set(http::field::content_type, "application/json");
  r.set(http::field::cache_control, "no-store");
  r.body() = std::move(body);
  return r;
}

Response error(const Request& request, http::status status, std::string_view message) {
  return json(request, status, "{\"error\":" + json_string(message) + "}");
}

Response page(const Request& request) {
  Response r(http::status::ok, request.version());
  r.set(http::field::content_type, "text/html; charset=utf-8");
  r.set(http::field::cache_control, "no-cache");
  // Inline script and style only, connections to this origin only, never in a frame.
  r.set("Content-Security-Policy",
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'");
  r.set("X-Frame-Options", "DENY");
  r.set("X-Content-Type-Options", "nosniff");
  r.set("Referrer-Policy", "no-referrer");
  r.body() = std::string(arbiter_page());
  return r;
}

enum class Path : std::uint8_t { kPage, kSession, kProposals, kLogin, kLogout, kCommand, kOther };

Path path_of(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/arbiter" || path == "/arbiter/") return Path::kPage;
  if (path == "/arbiter/session") return Path::kSession;
  if (path == "/arbiter/proposals") return Path::kProposals;
  if (path == "/arbiter/login") return Path::kLogin;
  if (path == "/arbiter/logout") return Path::kLogout;
  if (path == "/arbiter/command") return Path::kCommand;
  return Path::kOther;
}

// The daemon's way of answering later: a timer on its loop.
ConsoleHttp::Later steady_timer_later(boost::asio::any_io_executor executor) {
  return [executor = std::move(executor)](std::chrono::milliseconds delay,
                                          std::function<void()> then) {
    auto timer = std::make_shared<boost::asio::steady_timer>(executor, delay);
    timer->async_wait(
        [timer, then = std::move(then)](const boost::system::error_code&) { then(); });
  };
}

bool is_json(const Request& request) {
  const std::string_view type = header(request, http::field::content_type);
  return type.substr(0, type.find(';')) == "application/json";
}

}  // namespace

ConsoleHttp::ConsoleHttp(boost::asio::any_io_executor executor, EventSource& hub, std::string token,
                         std::chrono::seconds session_lifetime, ConsoleCommands commands,
                         ConsoleStatus status, Now now, Log log, Later later)
    : hub_(hub),
      auth_(std::move(token), session_lifetime),
      commands_(std::move(commands)),
      status_(std::move(status)),
      now_(std::move(now)),
      later_(later ? std::move(later) : steady_timer_later(std::move(executor))),
      log_(std::move(log)) {}

bool ConsoleHttp::owns(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  return path == "/arbiter" || path.starts_with("/arbiter/");
}

bool ConsoleHttp::control_here(const Request& request, const ConsoleConnection& c) const {
  if (c.tls) return true;
  return c.loopback_listener && is_loopback_host(header(request, http::field::host));
}

void ConsoleHttp::handle(const Request& request, const ConsoleConnection& connection, Reply reply) {
  const std::string_view target(request.target().data(), request.target().size());
  const Path path = path_of(target);
  const bool get = request.method() == http::verb::get || request.method() == http::verb::head;
  if (path == Path::kOther) return reply(error(request, http::status::not_found, "not found"));
  if (path == Path::kPage || path == Path::kSession || path == Path::kProposals) {
    if (!get) {
      Response r = error(request, http::status::method_not_allowed, "GET only");
      r.set(http::field::allow, "GET, HEAD");
      return reply(std::move(r));
    }
    if (path == Path::kPage) return reply(page(request));
    return reply(path == Path::kSession ? session_state(request, connection)
                                        : proposals(request, connection));
  }
  if (request.method() != http::verb::post) {
    Response r = error(request, http::status::method_not_allowed, "POST only");
    r.set(http::field::allow, "POST");
    return reply(std::move(r));
  }
  // No other site's page can send this: browsers set Origin on every POST and no page
  // can forge it.
  if (!same_origin(header(request, http::field::origin), header(request, http::field::host),
                   connection.tls)) {
    return reply(error(request, http::status::forbidden, "Origin is not this site"));
  }
  if (!control_here(request, connection)) {
    return reply(error(request, http::status::forbidden,
                       "no control over plain HTTP off the loopback: use --https"));
  }
  if (path == Path::kLogin) return login(request, connection, reply);
  const auto session = auth_.find(header(request, http::field::cookie), now_());
  if (!session) return reply(error(request, http::status::unauthorized, "not logged in"));
  if (path == Path::kLogout) {
    auth_.logout(header(request, http::field::cookie));
    if (log_) log_("console: session " + session_label(session->id) + " logged out");
    Response r = json(request, http::status::ok, "{\"ok\":true}");
    r.set(http::field::set_cookie, expired_session_cookie());
    return reply(std::move(r));
  }
  command(request, connection, *session, reply);
}

Response ConsoleHttp::session_state(const Request& request, const ConsoleConnection& c) {
  const bool control = auth_.control_possible() && control_here(request, c);
  const auto session = auth_.find(header(request, http::field::cookie), now_());
  std::string reason;
  if (!auth_.control_possible()) {
    reason = "read-only: the daemon has no control token";
  } else if (!control) {
    reason = "read-only: plain HTTP off the loopback";
  }
  return json(request, http::status::ok,
              std::string("{\"control\":") + (control ? "true" : "false") +
                  ",\"loggedIn\":" + (control && session ? "true" : "false") + ",\"session\":" +
                  json_string(session && control ? session_label(session->id) : "") +
                  ",\"reason\":" + json_string(reason) + "}");
}

// The page asks this whenever an event may have opened, settled or withdrawn a proposal:
// which decisions are open is the engine's answer, not the page's reading of the events.
// A view that sees public events only gets the public proposals (those the players were
// told of) and nothing of what is the arbiter's alone.
Response ConsoleHttp::proposals(const Request& request, const ConsoleConnection& c) {
  const std::string_view origin = header(request, http::field::origin);
  if (!origin.empty() && !same_origin(origin, header(request, http::field::host), c.tls)) {
    return error(request, http::status::forbidden, "Origin is not this site");
  }
  v1::StatusReply reply = status_ ? status_() : v1::StatusReply();
  if (websocket_view(request, c) != ConsoleView::kArbiter) keep_public(reply);
  for (v1::BoardStatus& board : *reply.mutable_boards()) board.clear_snapshot();
  return json(request, http::status::ok, proto::to_json_line(reply));
}

void ConsoleHttp::login(const Request& request, const ConsoleConnection& c, const Reply& reply) {
  if (!is_json(request)) {
    return reply(error(request, http::status::unsupported_media_type, "send application/json"));
  }
  const auto token = console_login_token(request.body());
  if (!token) return reply(error(request, http::status::bad_request, token.error()));
  const LoginResult result = auth_.login(*token, c.peer_address, now_());
  switch (result.outcome) {
    case LoginOutcome::kOk: {
      if (log_) {
        log_("console: " + c.peer_address + " logged in (session " +
             session_label(result.session_id) + ")");
      }
      Response r =
          json(request, http::status::ok,
               "{\"ok\":true,\"session\":" + json_string(session_label(result.session_id)) + "}");
      r.set(http::field::set_cookie, session_cookie(result.session_id, result.lifetime));
      return reply(std::move(r));
    }
    case LoginOutcome::kNoControl:
      return reply(
          error(request, http::status::forbidden, "read-only: the daemon has no control token"));
    case LoginOutcome::kLockedOut: {
      const auto seconds = std::chrono::ceil<std::chrono::seconds>(result.wait).count();
      Response r = error(request, http::status::too_many_requests,
                         "too many wrong logins from this address; try again in " +
                             std::to_string(seconds) + " s");
      r.set(http::field::retry_after, std::to_string(seconds));
      return reply(std::move(r));
    }
    case LoginOutcome::kWrongToken: break;
  }
  if (log_) log_("console: wrong token from " + c.peer_address + " (login refused)");
  // The answer is held back, so even one client trying in a loop gets nowhere fast.
  later_(kWrongLoginDelay,
         [reply, response = error(request, http::status::unauthorized, "wrong token")]() mutable {
           reply(std::move(response));
         });
}

void ConsoleHttp::command(const Request& request, const ConsoleConnection& c,
                          const ConsoleSession& session, const Reply& reply) {
  if (!is_json(request)) {
    return reply(error(request, http::status::unsupported_media_type, "send application/json"));
  }
  auto command = console_command(request.body());
  if (!command) return reply(error(request, http::status::bad_request, command.error()));
  const std::string client = console_client(session.id, c.peer_address);
  v1::Ack ack = commands_(*command, client);
  if (log_) {
    log_("console: " + client + " on board " + command->board_id() + ": " +
         command->GetDescriptor()->FindFieldByNumber(command->action_case())->name() + ": " +
         (ack.ok() ? "done" : ack.error()));
  }
  // As on the stream sockets: the answer follows the events the command caused.
  hub_.when_published(
      [reply, response = json(request, http::status::ok, proto::to_json_line(ack))]() mutable {
        reply(std::move(response));
      });
}

ConsoleView ConsoleHttp::websocket_view(const Request& request, const ConsoleConnection& c) {
  const std::string_view origin = header(request, http::field::origin);
  const std::string_view host = header(request, http::field::host);
  // Browsers always send Origin on a WebSocket; another site's page must not read this.
  if (!origin.empty() && !same_origin(origin, host, c.tls)) return ConsoleView::kRefused;
  // Only a session sees what is the arbiter's alone: on a loopback listener too, where
  // any local program, or a page that reached it, may ask.
  if (control_here(request, c) && auth_.find(header(request, http::field::cookie), now_())) {
    return ConsoleView::kArbiter;
  }
  return ConsoleView::kPublic;
}

}  // namespace eboard::daemon
