// The arbiter console's HTTP side (docs/interfaces.md §6.3), whatever the connection (plain
// HTTP or TLS): the page /arbiter, GET /arbiter/session (what this browser may do),
// GET /arbiter/proposals (the boards' open proposals, as the engine keeps them),
// POST /arbiter/login, /arbiter/logout and /arbiter/command, and who may open the
// console's WebSocket /arbiter/ws and see what.
//
// Control is possible only over TLS (--https) or on a listener bound to the loopback;
// plain HTTP on any other address is read-only for everyone, so no token and no session
// cookie ever crosses the venue network in clear. Every POST must carry an Origin header
// naming this very site, and all but the login the session cookie (console_auth.h). On a
// loopback listener the Host header must name the loopback too: a foreign page that
// reached 127.0.0.1 under its own name (DNS rebinding) gets nothing. Pages are sent with
// a Content-Security-Policy that allows no other origin and no framing.
//
// What is the arbiter's alone (arbiter-only events and proposals, docs/rules.md D14) goes
// to a logged-in session only; whoever is not logged in gets the read-only view on every
// listener, the loopback's too, where any local program may ask.
//
// A wrong login is answered after kWrongLoginDelay; a command's answer (the Ack) waits
// until the events it caused were published, as on the stream sockets. Nothing here
// logs a request body: the token never reaches a log.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <functional>
#include <string>

#include "daemon/core/event_source.h"
#include "daemon/sinks/console_auth.h"
#include "eboard/v1/command.pb.h"
#include "eboard/v1/frame.pb.h"

namespace eboard::daemon {

// The command path of the stream sockets (BoardSession::command), with the client's
// name for the audit record: "console:<session label>@<address>".
using ConsoleCommands =
    std::function<eboard::v1::Ack(const eboard::v1::Command& command, const std::string& client)>;

// The boards' open proposals now (the status query of the stream sockets, StatusReply).
using ConsoleStatus = std::function<eboard::v1::StatusReply()>;

// Where a request came in.
struct ConsoleConnection {
  bool tls = false;
  bool loopback_listener = false;  // the listener is bound to a loopback address
  std::string peer_address;        // the client's IP address, without the port
};

// What a WebSocket client of /arbiter/ws gets.
enum class ConsoleView : std::uint8_t {
  kRefused,  // a foreign Origin
  kPublic,   // public events and proposals only (not logged in, on any listener)
  kArbiter,  // every event (a session, where control is possible)
};

class ConsoleHttp {
 public:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  using Response = boost::beast::http::response<boost::beast::http::string_body>;
  using Reply = std::function<void(Response)>;
  using Now = std::function<ConsoleTime()>;
  using Log = std::function<void(const std::string&)>;
  // Calls `then` once `delay` has passed (by default a timer on `executor`; tests give
  // their own, with the time injected by `now`).
  using Later = std::function<void(std::chrono::milliseconds delay, std::function<void()> then)>;
  static constexpr std::chrono::milliseconds kWrongLoginDelay{1000};

  ConsoleHttp(boost::asio::any_io_executor executor, EventSource& hub, std::string token,
              std::chrono::seconds session_lifetime, ConsoleCommands commands, ConsoleStatus status,
              Now now, Log log, Later later = {});

  // Whether the target is one of the console's (/arbiter, /arbiter/...).
  static bool owns(std::string_view target);
  // Answers a console request; `reply` is called exactly once, maybe later.
  void handle(const Request& request, const ConsoleConnection& connection, Reply reply);
  ConsoleView websocket_view(const Request& request, const ConsoleConnection& connection);

 private:
  bool control_here(const Request& request, const ConsoleConnection& connection) const;
  Response session_state(const Request& request, const ConsoleConnection& connection);
  Response proposals(const Request& request, const ConsoleConnection& connection);
  void login(const Request& request, const ConsoleConnection& connection, const Reply& reply);
  void command(const Request& request, const ConsoleConnection& connection,
               const ConsoleSession& session, const Reply& reply);

  EventSource& hub_;
  ConsoleAuth auth_;
  ConsoleCommands commands_;
  ConsoleStatus status_;
  Now now_;
  Later later_;
  Log log_;
};

// The console page (daemon/sinks/web/arbiter.html, embedded by CMake).
std::string_view arbiter_page();

}  // namespace eboard::daemon
