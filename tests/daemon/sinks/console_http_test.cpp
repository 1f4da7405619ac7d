// The console's HTTP side (console_http.h) with the clock injected: a session's expiry is
// a time given to the handler, so nothing here sleeps. Requests are handed to the handler
// as Beast messages; the command path and the status query are stand-ins (what reaches the
// command path is counted, the open proposals are given).
#include "daemon/sinks/console_http.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/beast/http.hpp>
#include <iostream>
#include <optional>

#include "daemon/core/event_hub.h"
#include "daemon/core/log.h"

namespace eboard::daemon {
namespace {

namespace http = boost::beast::http;
namespace v1 = eboard::v1;
using namespace std::chrono_literals;

const std::string kHost = "127.0.0.1:8443";
const std::string kOrigin = "https://127.0.0.1:8443";
const ConsoleConnection kTls{true, false, "192.0.2.7"};

class ConsoleHttpTest : public testing::Test {
 protected:
  ConsoleHttp::Response send(http::verb method, const std::string& target,
                             const std::string& cookie = "", const std::string& body = "") {
    ConsoleHttp::Request request(method, target, 11);
    request.set(http::field::host, kHost);
    if (method == http::verb::post) {
      request.set(http::field::origin, kOrigin);
      request.set(http::field::content_type, "application/json");
    }
    if (!cookie.empty()) request.set(http::field::cookie, cookie);
    request.body() = body;
    request.prepare_payload();
    std::optional<ConsoleHttp::Response> answer;
    console_.handle(request, kTls, [&](ConsoleHttp::Response r) { answer = std::move(r); });
    io_.run();
    io_.restart();
    EXPECT_TRUE(answer) << "no answer to " << target;
    return answer ? std::move(*answer) : ConsoleHttp::Response();
  }

  // The Cookie header of a fresh login.
  std::string login() {
    const auto r = send(http::verb::post, "/arbiter/login", "", R"({"token":"tok-91c2"})");
    EXPECT_EQ(r.result(), http::status::ok) << r.body();
    const std::string set_cookie(r[http::field::set_cookie]);
    return set_cookie.substr(0, set_cookie.find(';'));
  }

  ConsoleHttp::Response add_time(const std::string& cookie) {
    return send(http::verb::post, "/arbiter/command", cookie,
                R"({"boardId":"s1","addTime":{"side":"SIDE_WHITE","deltaMs":30000}})");
  }

  boost::asio::io_context io_;
  Logger log_{std::cerr, "eboardd"};
  EventHub hub_{{"s1"}, log_};
  ConsoleTime now_{};
  int commands_ = 0;
  v1::StatusReply status_;
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
                       {}};
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
  v1::BoardStatus* board = status_.add_boards();
  board->mutable_snapshot()->set_board_id("s1");
  v1::Proposal* shared = board->add_open_proposals();
  shared->set_seq(12);
  shared->set_kind(v1::PROPOSAL_KIND_PENALTY);
  shared->set_visibility(v1::VISIBILITY_PUBLIC);
  v1::Proposal* own = board->add_open_proposals();
  own->set_seq(15);
  own->set_kind(v1::PROPOSAL_KIND_RESULT);
  own->set_visibility(v1::VISIBILITY_ARBITER);  // a suspected dead position
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
  ConsoleHttp::Request upgrade(http::verb::get, "/arbiter/ws", 11);
  upgrade.set(http::field::host, kHost);
  upgrade.set(http::field::origin, kOrigin);
  upgrade.set(http::field::cookie, cookie);
  EXPECT_EQ(console_.websocket_view(upgrade, kTls), ConsoleView::kArbiter);
  now_ += 600s;
  EXPECT_EQ(console_.websocket_view(upgrade, kTls), ConsoleView::kPublic);
}

}  // namespace
}  // namespace eboard::daemon
