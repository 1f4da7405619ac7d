// The console's login, sessions and request checks (console_auth.h), with time given as
// an argument: nothing here sleeps.
#include "daemon/sinks/console_auth.h"

#include <gtest/gtest.h>

#include "daemon/sinks/console_command.h"

namespace eboard::daemon {
namespace {

using namespace std::chrono_literals;

const ConsoleTime t0{};

// A deterministic random source: the call's number in the first bytes, so every id
// differs and is predictable here only.
ConsoleAuth::Random counting() {
  return [n = 0u](std::size_t bytes) mutable {
    std::string out(bytes, 'x');
    ++n;
    for (std::size_t i = 0; i < 4 && i < bytes; ++i) out[i] = static_cast<char>(n >> (8 * i));
    return out;
  };
}

std::string cookie_of(const std::string& id) {
  return "other=1; " + std::string(kSessionCookie) + "=" + id + "; x=y";
}

TEST(ConsoleAuth, RightTokenOpensASessionThatExpires) {
  ConsoleAuth auth("s3cret-token", ConsoleAuth::kSessionLifetime, counting());
  const LoginResult r = auth.login("s3cret-token", "192.0.2.7", t0);
  ASSERT_EQ(r.outcome, LoginOutcome::kOk);
  EXPECT_EQ(r.session_id.size(), 64u);
  EXPECT_EQ(r.lifetime, ConsoleAuth::kSessionLifetime);
  const auto session = auth.find(cookie_of(r.session_id), t0 + 1h);
  ASSERT_TRUE(session);
  EXPECT_EQ(session->peer, "192.0.2.7");
  EXPECT_FALSE(auth.find(cookie_of(r.session_id), t0 + ConsoleAuth::kSessionLifetime));
  EXPECT_FALSE(auth.find(cookie_of(r.session_id), t0 + 13h));
}

TEST(ConsoleAuth, UnknownAndMissingSessionsAreNotFound) {
  ConsoleAuth auth("tok", ConsoleAuth::kSessionLifetime, counting());
  const LoginResult r = auth.login("tok", "a", t0);
  std::string wrong = r.session_id;
  wrong[10] = wrong[10] == '0' ? '1' : '0';
  EXPECT_FALSE(auth.find(cookie_of(wrong), t0));
  EXPECT_FALSE(auth.find(cookie_of(r.session_id.substr(0, 63)), t0));
  EXPECT_FALSE(auth.find(cookie_of(""), t0));
  EXPECT_FALSE(auth.find("", t0));
  EXPECT_FALSE(auth.find("eboard-console=" + r.session_id, t0)) << "the cookie's name matters";
  EXPECT_TRUE(auth.find(cookie_of(r.session_id), t0));
  auth.logout(cookie_of(r.session_id));
  EXPECT_FALSE(auth.find(cookie_of(r.session_id), t0));
}

TEST(ConsoleAuth, WrongLoginsLockTheAddressOutLongerEachTime) {
  ConsoleAuth auth("tok", ConsoleAuth::kSessionLifetime, counting());
  LoginResult r = auth.login("nope", "10.0.0.1", t0);
  EXPECT_EQ(r.outcome, LoginOutcome::kWrongToken);
  EXPECT_EQ(r.wait, 2000ms);
  // Locked out: even the right token is not looked at.
  r = auth.login("tok", "10.0.0.1", t0 + 1500ms);
  EXPECT_EQ(r.outcome, LoginOutcome::kLockedOut);
  EXPECT_EQ(r.wait, 500ms);
  // Another address is not affected.
  EXPECT_EQ(auth.login("tok", "10.0.0.2", t0 + 500ms).outcome, LoginOutcome::kOk);
  r = auth.login("nope", "10.0.0.1", t0 + 2s);
  EXPECT_EQ(r.outcome, LoginOutcome::kWrongToken);
  EXPECT_EQ(r.wait, 4000ms);
  r = auth.login("nope", "10.0.0.1", t0 + 6s);
  EXPECT_EQ(r.wait, 8000ms);
  ConsoleTime now = t0 + 14s;
  for (int i = 0; i < 10; ++i) {
    r = auth.login("nope", "10.0.0.1", now);
    EXPECT_EQ(r.outcome, LoginOutcome::kWrongToken);
    now += r.wait;
  }
  EXPECT_EQ(r.wait, ConsoleAuth::kMaxLockout);
  // Once the lock-out has passed the right token works and clears the count.
  EXPECT_EQ(auth.login("tok", "10.0.0.1", now).outcome, LoginOutcome::kOk);
  EXPECT_EQ(auth.login("nope", "10.0.0.1", now).wait, ConsoleAuth::kFirstLockout);
}

TEST(ConsoleAuth, StrikesAreForgottenAfterAQuietWhile) {
  ConsoleAuth auth("tok", ConsoleAuth::kSessionLifetime, counting());
  for (int i = 0; i < 3; ++i) (void)auth.login("x", "a", t0 + std::chrono::seconds(10 * i));
  EXPECT_EQ(auth.login("x", "a", t0 + 20s + ConsoleAuth::kStrikeMemory + 1s).wait,
            ConsoleAuth::kFirstLockout);
}

TEST(ConsoleAuth, NoTokenMeansNoControl) {
  ConsoleAuth auth("", ConsoleAuth::kSessionLifetime, counting());
  EXPECT_FALSE(auth.control_possible());
  EXPECT_EQ(auth.login("", "a", t0).outcome, LoginOutcome::kNoControl);
  EXPECT_EQ(auth.login("anything", "a", t0).outcome, LoginOutcome::kNoControl);
  EXPECT_EQ(auth.session_count(), 0u);
}

TEST(ConsoleAuth, SessionsAreBoundedTheOldestGoes) {
  ConsoleAuth auth("tok", ConsoleAuth::kSessionLifetime, counting());
  std::vector<std::string> ids;
  for (std::size_t i = 0; i <= ConsoleAuth::kMaxSessions; ++i) {
    ids.push_back(auth.login("tok", "a", t0 + std::chrono::seconds(i)).session_id);
  }
  EXPECT_EQ(auth.session_count(), ConsoleAuth::kMaxSessions);
  EXPECT_FALSE(auth.find(cookie_of(ids.front()), t0 + 1h));
  EXPECT_TRUE(auth.find(cookie_of(ids.back()), t0 + 1h));
}

TEST(ConsoleAuth, CookieCarriesTheSecurityAttributes) {
  const std::string c = session_cookie("abc", 3600s);
  EXPECT_EQ(c,
            "__Host-eboard-console=abc; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Strict");
  EXPECT_NE(expired_session_cookie().find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(cookie_value("a=1; b = 2 ;c=3", "b"), "2");
  EXPECT_EQ(cookie_value("a=1", "b"), std::nullopt);
  EXPECT_EQ(cookie_value("ab=1", "b"), std::nullopt);
}

TEST(ConsoleAuth, SameOriginNeedsTheSchemeAndHostOfTheRequest) {
  EXPECT_TRUE(same_origin("https://arbiter.venue:8443", "arbiter.venue:8443", true));
  EXPECT_TRUE(same_origin("https://Arbiter.Venue:8443", "arbiter.venue:8443", true));
  EXPECT_TRUE(same_origin("http://127.0.0.1:8080", "127.0.0.1:8080", false));
  EXPECT_FALSE(same_origin("http://arbiter.venue:8443", "arbiter.venue:8443", true));
  EXPECT_FALSE(same_origin("https://evil.example", "arbiter.venue:8443", true));
  EXPECT_FALSE(same_origin("https://arbiter.venue:8443.evil", "arbiter.venue:8443", true));
  EXPECT_FALSE(same_origin("https://arbiter.venue", "arbiter.venue:8443", true));
  EXPECT_FALSE(same_origin("null", "arbiter.venue:8443", true));
  EXPECT_FALSE(same_origin("", "arbiter.venue:8443", true));
  EXPECT_FALSE(same_origin("https://", "", true));
}

TEST(ConsoleAuth, LoopbackHostNames) {
  for (const char* host : {"127.0.0.1", "127.0.0.1:8080", "127.1.2.3:1", "localhost:80",
                           "LOCALHOST", "[::1]", "[::1]:8080"}) {
    EXPECT_TRUE(is_loopback_host(host)) << host;
  }
  for (const char* host : {"evil.example", "127.0.0.1.evil.example", "localhost.evil:80",
                           "10.0.0.1", "[::2]:80", "[::1]x", "", "127.0.0", "1270.0.0.1"}) {
    EXPECT_FALSE(is_loopback_host(host)) << host;
  }
}

TEST(ConsoleCommand, ReadsTheJsonFormOfACommand) {
  auto c = console_command(
      R"({"boardId":"b1","ruling":{"decision":"RULING_DECISION_ACCEPT","seq":12}})");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->board_id(), "b1");
  EXPECT_EQ(c->ruling().decision(), eboard::v1::RULING_DECISION_ACCEPT);
  EXPECT_EQ(c->ruling().seq(), 12u);
  c = console_command(R"({"boardId":"b1","addTime":{"side":"SIDE_WHITE","deltaMs":60000}})");
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->add_time().delta_ms(), 60000);
}

TEST(ConsoleCommand, RefusesTokensUnknownFieldsAndEmptyCommands) {
  EXPECT_FALSE(console_command(R"({"boardId":"b1","token":"x","pause":{}})"));
  EXPECT_FALSE(console_command(R"({"boardId":"b1","pasue":{}})"));
  EXPECT_FALSE(console_command(R"({"boardId":"b1"})"));
  EXPECT_FALSE(console_command(R"({"pause":{}})"));
  EXPECT_FALSE(console_command("pause b1"));
  EXPECT_FALSE(console_command(""));
}

TEST(ConsoleCommand, LoginBodyAndClientName) {
  auto token = console_login_token(R"({"token":"abc def"})");
  ASSERT_TRUE(token);
  EXPECT_EQ(*token, "abc def");
  EXPECT_FALSE(console_login_token(R"({"token":1})"));
  EXPECT_FALSE(console_login_token(R"({"token":"a","x":1})"));
  EXPECT_FALSE(console_login_token("token=abc"));
  EXPECT_EQ(console_client("0123456789abcdef", "192.0.2.7"), "console:01234567@192.0.2.7");
}

}  // namespace
}  // namespace eboard::daemon
