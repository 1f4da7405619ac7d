// The console's HTTP side (console_http.h) with the clock injected: a session's expiry and
// a wrong login's lock-out are times given to the handler, and the held-back answer of a
// wrong login waits in a list of its own until the test lets it go, so nothing here sleeps.
// Requests are handed to the handler as Beast messages; the command path and the status
// query are stand-ins (what reaches the command path is counted, the open proposals are
// given).
#include "daemon/sinks/console_http.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http.hpp>
#include <functional>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

#include "daemon/core/event_hub.h"
#include "daemon/core/log.h"

namespace eboard::daemon {
namespace {

namespace http = boost::beast::http;
namespace v1 = eboard::v1;
using namespace std::chrono_literals;

const ConsoleConnection kTls{true, false, "192.0.2.7"};
// --http 127.0.0.1:8080, and a browser on the same machine.
const ConsoleConnection kLoopback{false, true, "127.0.0.1"};

std::string host_of(const ConsoleConnection& c) {
  return c.tls ? "127.0.0.1:8443" : "127.0.0.1:8080";
}

ConsoleHttp::Request request_for(http::verb method, const std::string& target,
                                 const ConsoleConnection& c, const std::string& cookie = "") {
  ConsoleHttp::Request request(method, target, 11);
  request.set(http::field::host, host_of(c));
  // As a browser: on every POST and WebSocket, the page's own origin.
  request.set(http::field::origin, (c.tls ? "https://" : "http://") + host_of(c));
  if (!cookie.empty()) request.set(http::field::cookie, cookie);
  return request;
}

class ConsoleHttpTest : public testing::Test {
 protected:
  // Hands the request to the console and runs the loop: the answer, or nullopt while it
  // is held back (in later_).
  std::optional<ConsoleHttp::Response> ask(http::verb method, const std::string& target,
                                           const std::string& cookie, const std::string& body,
                                           const ConsoleConnection& connection) {
    ConsoleHttp::Request request = request_for(method, target, connection, cookie);
    if (method == http::verb::get) request.erase(http::field::origin);
    if (method == http::verb::post) request.set(http::field::content_type, "application/json");
    request.body() = body;
    request.prepare_payload();
    answer_.reset();
    console_.handle(request, connection, [this](ConsoleHttp::Response r) {
      answer_ = std::move(r);
      ++answers_;
    });
    io_.run();
    io_.restart();
    return answer_;
  }

  ConsoleHttp::Response send(http::verb method, const std::string& target,
                             const std::string& cookie = "", const std::string& body = "",
                             const ConsoleConnection& connection = kTls) {
    auto answer = ask(method, target, cookie, body, connection);
    EXPECT_TRUE(answer) << "no answer to " << target;
    return answer ? std::move(*answer) : ConsoleHttp::Response();
  }

  // The Cookie header of a fresh login.
  std::string login(const ConsoleConnection& connection = kTls) {
    const auto r =
        send(http::verb::post, "/arbiter/login", "", R"({"token":"tok-91c2"})", connection);
    EXPECT_EQ(r.result(), http::status::ok) << r.body();
    const std::string set_cookie(r[http::field::set_cookie]);
    return set_cookie.substr(0, set_cookie.find(';'));
  }

  // One open proposal the players were told of (seq 12) and one that is the arbiter's
  // alone (seq 15, a suspected dead position), on board s1.
  void two_proposals() {
    v1::BoardStatus* board = status_.add_boards();
    board->mutable_snapshot()->set_board_id("s1");
    v1::Proposal* shared = board->add_open_proposals();
    shared->set_seq(12);
    shared->set_kind(v1::PROPOSAL_KIND_PENALTY);
    shared->set_visibility(v1::VISIBILITY_PUBLIC);
    v1::Proposal* own = board->add_open_proposals();
    own->set_seq(15);
    own->set_kind(v1::PROPOSAL_KIND_RESULT);
    own->set_visibility(v1::VISIBILITY_ARBITER);
  }

  ConsoleHttp::Response add_time(const std::string& cookie,
                                 const ConsoleConnection& connection = kTls) {
    return send(http::verb::post, "/arbiter/command", cookie,
                R"({"boardId":"s1","addTime":{"side":"SIDE_WHITE","deltaMs":30000}})", connection);
  }

  boost::asio::io_context io_;
  Logger log_{std::cerr, "eboardd"};
  EventHub hub_{{"s1"}, log_};
  ConsoleTime now_{};
  int commands_ = 0;
  int answers_ = 0;
  std::optional<ConsoleHttp::Response> answer_;  // the latest
  v1::StatusReply status_;
  std::vector<std::pair<std::chrono::milliseconds, std::function<void()>>> later_;
  std::vector<std::string> logged_;
  ConsoleHttp console_{io_.get_executor(),
                       hub_,
                       "tok-91c2",
                       std::chrono::seconds(600),
                       [this](const v1::Command&, const std::string&) {
                         ++commands_;
                         v1::Ack ack;
                         ack.set_ok(true);
                         return ack;
                       },
                       [this] { return status_; },
                       [this] { return now_; },
                       [this](const std::string& line) { logged_.push_back(line); },
                       [this](std::chrono::milliseconds delay, std::function<void()> then) {
                         later_.emplace_back(delay, std::move(then));
                       }};
};

TEST_F(ConsoleHttpTest, AnExpiredSessionIsRefusedAndReachesNoBoard) {
  const std::string cookie = login();
  EXPECT_EQ(add_time(cookie).result(), http::status::ok);
  EXPECT_EQ(commands_, 1);

  now_ += 600s - 1ms;  // the last moment of the session's lifetime
  EXPECT_EQ(add_time(cookie).result(), http::status::ok);
  EXPECT_EQ(commands_, 2);

  now_ += 1ms;  // expired
  const auto refused = add_time(cookie);
  EXPECT_EQ(refused.result(), http::status::unauthorized) << refused.body();
  EXPECT_EQ(commands_, 2) << "an expired session's command reaches no board";
  EXPECT_NE(send(http::verb::get, "/arbiter/session", cookie).body().find("\"loggedIn\":false"),
            std::string::npos);
  EXPECT_EQ(send(http::verb::post, "/arbiter/logout", cookie).result(), http::status::unauthorized);

  // A new login opens a new session; the old cookie stays refused.
  const std::string again = login();
  EXPECT_NE(again, cookie);
  EXPECT_EQ(add_time(again).result(), http::status::ok);
  EXPECT_EQ(add_time(cookie).result(), http::status::unauthorized);
  EXPECT_EQ(commands_, 3);
}

// GET /arbiter/proposals: every open proposal for a session, the public ones only without.
TEST_F(ConsoleHttpTest, ReadOnlyViewGetsThePublicProposalsOnly) {
  two_proposals();
  const std::string cookie = login();
  const std::string all = send(http::verb::get, "/arbiter/proposals", cookie).body();
  EXPECT_NE(all.find("\"seq\":12"), std::string::npos) << all;
  EXPECT_NE(all.find("\"seq\":15"), std::string::npos) << all;
  EXPECT_EQ(all.find("snapshot"), std::string::npos) << "no snapshots: " << all;
  const std::string shown = send(http::verb::get, "/arbiter/proposals").body();
  EXPECT_NE(shown.find("\"seq\":12"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("\"seq\":15"), std::string::npos) << shown;
}

TEST_F(ConsoleHttpTest, AnExpiredSessionGetsThePublicViewOfTheWebSocket) {
  const std::string cookie = login();
  const ConsoleHttp::Request upgrade = request_for(http::verb::get, "/arbiter/ws", kTls, cookie);
  EXPECT_EQ(console_.websocket_view(upgrade, kTls), ConsoleView::kArbiter);
  now_ += 600s;
  EXPECT_EQ(console_.websocket_view(upgrade, kTls), ConsoleView::kPublic);
}

// --http on the loopback offers control, after a login: until then the browser (or any
// local program) gets what a read-only viewer gets, the page's WebSocket and its list of
// open proposals alike.
TEST_F(ConsoleHttpTest, LoopbackWithoutASessionGetsTheReadOnlyView) {
  two_proposals();
  const std::string state = send(http::verb::get, "/arbiter/session", "", "", kLoopback).body();
  EXPECT_NE(state.find("\"control\":true"), std::string::npos) << state;
  EXPECT_NE(state.find("\"loggedIn\":false"), std::string::npos) << state;
  const std::string shown = send(http::verb::get, "/arbiter/proposals", "", "", kLoopback).body();
  EXPECT_NE(shown.find("\"seq\":12"), std::string::npos) << shown;
  EXPECT_EQ(shown.find("\"seq\":15"), std::string::npos) << shown;
  EXPECT_EQ(
      console_.websocket_view(request_for(http::verb::get, "/arbiter/ws", kLoopback), kLoopback),
      ConsoleView::kPublic);
  EXPECT_EQ(add_time("", kLoopback).result(), http::status::unauthorized);

  const std::string cookie = login(kLoopback);
  const std::string all = send(http::verb::get, "/arbiter/proposals", cookie, "", kLoopback).body();
  EXPECT_NE(all.find("\"seq\":12"), std::string::npos) << all;
  EXPECT_NE(all.find("\"seq\":15"), std::string::npos) << all;
  EXPECT_EQ(console_.websocket_view(request_for(http::verb::get, "/arbiter/ws", kLoopback, cookie),
                                    kLoopback),
            ConsoleView::kArbiter);
  EXPECT_NE(send(http::verb::get, "/arbiter/session", cookie, "", kLoopback)
                .body()
                .find("\"loggedIn\":true"),
            std::string::npos);
}

// A wrong token: refused, its answer held back kWrongLoginDelay, and the address locked
// out for kFirstLockout from the wrong login (console_auth.h), during which even the right
// token gets 429 with the seconds to wait; after it, the right token opens a session.
TEST_F(ConsoleHttpTest, AWrongTokenIsAnsweredLateThenTheAddressIsLockedOut) {
  const std::string guess = R"({"token":"guess"})";
  const std::string right = R"({"token":"tok-91c2"})";
  EXPECT_FALSE(ask(http::verb::post, "/arbiter/login", "", guess, kTls)) << "answered at once";
  ASSERT_EQ(later_.size(), 1u);
  EXPECT_EQ(later_[0].first, ConsoleHttp::kWrongLoginDelay);
  // The answer goes once the delay has passed: refused, and no cookie.
  const auto held = std::move(later_[0].second);
  later_.clear();
  now_ += ConsoleHttp::kWrongLoginDelay;
  held();
  ASSERT_TRUE(answer_);
  EXPECT_EQ(answer_->result(), http::status::unauthorized) << answer_->body();
  EXPECT_EQ(answer_->count(http::field::set_cookie), 0u);

  // Locked out: the right token is not looked at; 1 s of the 2 s lock-out is left.
  const auto locked = send(http::verb::post, "/arbiter/login", "", right);
  EXPECT_EQ(locked.result(), http::status::too_many_requests) << locked.body();
  EXPECT_EQ(locked[http::field::retry_after], "1");
  EXPECT_EQ(locked.count(http::field::set_cookie), 0u);
  EXPECT_TRUE(later_.empty()) << "a locked-out login is answered at once";
  now_ += ConsoleAuth::kFirstLockout - ConsoleHttp::kWrongLoginDelay - 1ms;
  EXPECT_EQ(send(http::verb::post, "/arbiter/login", "", right).result(),
            http::status::too_many_requests)
      << "the last moment of the lock-out";
  now_ += 1ms;
  const std::string cookie = login();
  EXPECT_EQ(add_time(cookie).result(), http::status::ok);

  // A good login cleared the count: the next wrong token locks out for kFirstLockout again.
  EXPECT_FALSE(ask(http::verb::post, "/arbiter/login", "", guess, kTls));
  ASSERT_EQ(later_.size(), 1u);
  later_[0].second();
  later_.clear();
  EXPECT_EQ(send(http::verb::post, "/arbiter/login", "", right)[http::field::retry_after], "2");
  // Another address is not locked out by this one.
  EXPECT_FALSE(login(kLoopback).empty());

  for (const std::string& line : logged_) {
    EXPECT_EQ(line.find("guess"), std::string::npos) << line;
    EXPECT_EQ(line.find("tok-91c2"), std::string::npos) << line;
  }
  EXPECT_NE(std::find(logged_.begin(), logged_.end(),
                      "console: wrong token from 192.0.2.7 (login refused)"),
            logged_.end());
}

}  // namespace
}  // namespace eboard::daemon
