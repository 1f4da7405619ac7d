// --push URLs (daemon/programs/eboard_relay/push_client.h): the bearer token travels in
// clear only to this machine.
#include <gtest/gtest.h>

#include "daemon/programs/eboard_relay/push_client.h"

namespace eboard::daemon {
namespace {

TEST(PushUrl, HttpsWithPortAndPath) {
  const auto url = parse_push_url("https://lichess.org/api/broadcast/round/AbCd1234/push");
  ASSERT_TRUE(url.ok()) << url.error();
  EXPECT_TRUE(url->tls);
  EXPECT_EQ(url->host, "lichess.org");
  EXPECT_EQ(url->port, 443);
  EXPECT_EQ(url->target, "/api/broadcast/round/AbCd1234/push");
  const auto ipv6 = parse_push_url("https://[2001:db8::1]:8443/push");
  ASSERT_TRUE(ipv6.ok()) << ipv6.error();
  EXPECT_EQ(ipv6->host, "2001:db8::1");
  EXPECT_EQ(ipv6->port, 8443);
}

TEST(PushUrl, PlainHttpOnlyToThisMachine) {
  for (const char* local :
       {"http://127.0.0.1:9000/push", "http://localhost/push", "http://[::1]:9000/push"}) {
    const auto url = parse_push_url(local);
    ASSERT_TRUE(url.ok()) << local << ": " << url.error();
    EXPECT_FALSE(url->tls);
  }
  const auto remote = parse_push_url("http://lichess.org/api/broadcast/round/x/push");
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.error(),
            "--push: 'http://lichess.org/api/broadcast/round/x/push': the token would travel "
            "in clear; use https://");
}

TEST(PushUrl, GarbageSaysWhat) {
  EXPECT_EQ(parse_push_url("ftp://x/").error(),
            "--push: 'ftp://x/' is not an http:// or https:// URL");
  EXPECT_EQ(parse_push_url("https://host:0/").error(), "--push: 'https://host:0/': bad port '0'");
  EXPECT_EQ(parse_push_url("https:///push").error(), "--push: 'https:///push' has no host");
}

}  // namespace
}  // namespace eboard::daemon
