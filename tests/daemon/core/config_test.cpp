#include "daemon/core/config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

namespace eboard::daemon {
namespace {

Result<ParsedConfig> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "eboardd");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_config(static_cast<int>(argv.size()), argv.data());
}

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Config, UnknownOptionIsAnError) {
  auto parsed = parse({"--bogus"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("--bogus"), std::string::npos) << parsed.error();
}

// Found by fuzz_config: Program_options' error text looped forever on a token holding
// its own placeholder. Each of these used to hang.
TEST(Config, TokensThatLookLikePlaceholdersGiveAnError) {
  for (const char* token :
       {"-hh%original_token%", "--x%original_token%", "--%option%", "--rules=%value%"}) {
    auto parsed = parse({token});
    ASSERT_FALSE(parsed.ok()) << token;
    EXPECT_FALSE(parsed.error().empty());
    EXPECT_EQ(parsed.error().find('\n'), std::string::npos) << parsed.error();
  }
  auto parsed = parse({"--board", "b1=dgt:/dev/x", "--clock", "%value%"});
  ASSERT_FALSE(parsed.ok());
}

TEST(Config, BadTimeControlNamesTheOption) {
  auto parsed = parse({"--board", "b1=dgt:/dev/ttyACM0", "--clock", "3+x"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().rfind("--clock: ", 0), 0u) << parsed.error();
}

TEST(Config, BadBoardSpecs) {
  for (const char* spec :
       {"b1", "b1=foo:bar", "b 1=dgt:/dev/x", "b1=sim:auto,serial=1", "b1=dgt:/x,colour=red"}) {
    auto parsed = parse({"--board", spec});
    ASSERT_FALSE(parsed.ok()) << spec;
    EXPECT_NE(parsed.error().find(spec), std::string::npos) << parsed.error();
  }
}

TEST(Config, DuplicateBoardNames) {
  auto parsed = parse({"--board", "b1=dgt:/dev/a", "--board", "b1=dgt:/dev/b"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("twice"), std::string::npos);
}

TEST(Config, BadRulesAndParams) {
  EXPECT_FALSE(parse({"--board", "b=dgt:/x", "--rules", "chess960"}).ok());
  EXPECT_FALSE(parse({"--board", "b=dgt:/x", "--param", "no_such_param=1"}).ok());
  EXPECT_TRUE(parse({"--board", "b=dgt:/x", "--param", "auto_apply_penalties=true"}).ok());
}

TEST(Config, DefaultsForAServiceAndForTheDemo) {
  auto service = parse({"--board", "b1=dgt:/dev/ttyACM0,white=right"});
  ASSERT_TRUE(service.ok()) << service.error();
  const DaemonConfig& c = service->config;
  EXPECT_FALSE(c.demo);
  ASSERT_EQ(c.listen.size(), 2u);
  EXPECT_EQ(c.listen[0].path, "/run/eboardd/events.sock");
  EXPECT_EQ(c.listen[1].host, "127.0.0.1");
  EXPECT_EQ(c.listen[1].port, 7341);
  EXPECT_EQ(c.journal_dir, "/var/lib/eboardd");
  EXPECT_EQ(c.fsync, FsyncPolicy::kAfterPublish);
  EXPECT_EQ(c.boards[0].spec.white, drivers::WhiteSetting::kRight);
  EXPECT_EQ(c.print, PrintFormat::kNone);

  auto demo = parse({});
  ASSERT_TRUE(demo.ok());
  EXPECT_TRUE(demo->config.demo);
  EXPECT_TRUE(demo->config.listen.empty());
  EXPECT_TRUE(demo->config.journal_dir.empty());
  EXPECT_EQ(demo->config.print, PrintFormat::kText);
  EXPECT_EQ(demo->config.demo_speed, 10.0);
}

// The package's /etc/eboardd/eboardd.conf: the installed service attaches the DGT boards
// it finds (dgt:auto without serial=, device_link.h) instead of playing the demo.
TEST(Config, TheShippedConfigurationWaitsForBoards) {
  auto shipped = parse({"--config", std::string(EBOARD_SOURCE_DIR) + "/systemd/eboardd.conf"});
  ASSERT_TRUE(shipped.ok()) << shipped.error();
  const DaemonConfig& c = shipped->config;
  EXPECT_FALSE(c.demo);
  ASSERT_GE(c.boards.size(), 4u);
  for (const auto& board : c.boards) {
    EXPECT_EQ(board.spec.driver, "dgt") << board.text;
    EXPECT_EQ(board.spec.device, "auto") << board.text;
    EXPECT_FALSE(board.spec.serial) << board.text;
  }
  EXPECT_EQ(c.journal_dir, "/var/lib/eboardd");
}

TEST(Config, JournalFsyncPoliciesAndBootIdFile) {
  auto parsed = parse({"--board", "b1=dgt:/dev/a", "--journal-fsync", "after-publish",
                       "--boot-id-file", "/tmp/boot"});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->config.fsync, FsyncPolicy::kAfterPublish);
  EXPECT_EQ(parsed->config.boot_id_file, "/tmp/boot");
  EXPECT_EQ(parse({"--board", "b1=dgt:/dev/a"})->config.boot_id_file,
            "/proc/sys/kernel/random/boot_id");
  auto bad = parse({"--board", "b1=dgt:/dev/a", "--journal-fsync", "afterpublish"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("after-publish"), std::string::npos) << bad.error();
  EXPECT_NE(config_help().find("after-publish"), std::string::npos);
}

TEST(Config, FileAndCommandLineShareNames) {
  const std::string path = temp_file("eboardd_ok.conf",
                                     "# comment\nboard = b1=dgt:/dev/a\nboard = b2=dgt:/dev/b\n"
                                     "clock = 180+2   # blitz\nrules = fide-blitz\n");
  auto parsed = parse({"--config", path, "--clock", "300+3", "--board", "b3=dgt:/dev/c"});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed->config.boards.size(), 3u);
  EXPECT_EQ(parsed->config.clock, "300+3");  // the command line wins
  EXPECT_EQ(parsed->config.rules, "fide-blitz");
}

TEST(Config, FileErrorsNameTheLine) {
  const std::string path = temp_file("eboardd_bad.conf", "board = b1=dgt:/dev/a\n\nbogus = 1\n");
  auto parsed = parse({"--config", path});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error(), path + ":3: unknown option 'bogus'");
  const std::string no_equals = temp_file("eboardd_bad2.conf", "board b1\n");
  auto second = parse({"--config", no_equals});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error(), no_equals + ":1: expected NAME = VALUE");
}

TEST(Config, ControlToken) {
  const std::string token = temp_file("token", "  s3cret\n");
  auto parsed = parse({"--board", "b=dgt:/x", "--control-token-file", token});
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->config.control_token, "s3cret");
  const std::string empty = temp_file("empty_token", "\n");
  EXPECT_FALSE(parse({"--board", "b=dgt:/x", "--control-token-file", empty}).ok());
  EXPECT_FALSE(parse({"--board", "b=dgt:/x", "--control-token-file", "/nonexistent/x"}).ok());
}

TEST(Config, ListenAddresses) {
  EXPECT_EQ(parse_listen_address("tcp::9000").value().host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("tcp:[::1]:9000").value().host, "::1");
  EXPECT_FALSE(parse_listen_address("tcp:127.0.0.1:99999").ok());
  EXPECT_FALSE(parse_listen_address("udp:1").ok());
  EXPECT_FALSE(parse_listen_address("unix:").ok());
}

TEST(Config, ListenHostMustBeAnIpAddress) {
  auto parsed = parse({"--board", "b1=dgt:/dev/x", "--listen", "tcp:abc:1"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error(), "--listen 'tcp:abc:1': 'abc' is not an IP address");
  EXPECT_TRUE(parse_listen_address("tcp:localhost:1").ok());
  // eboard-events names its own option.
  EXPECT_EQ(parse_listen_address("foo:bar", "--connect").error(),
            "--connect 'foo:bar': expected unix:PATH, tcp:HOST:PORT or tls:HOST:PORT");
}

TEST(Config, StrayArgumentIsAnError) {
  auto parsed = parse({"--board", "b1=dgt:/dev/x", "/etc/eboardd/eboardd.conf"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error(),
            "unexpected argument '/etc/eboardd/eboardd.conf' (every argument is an --option; see "
            "--help)");
}

TEST(Config, ConfigThatIsADirectoryIsAnError) {
  auto parsed = parse({"--config", testing::TempDir()});
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().find("is a directory"), std::string::npos) << parsed.error();
}

TEST(Config, ClockDisplayOfAnUnknownBoardIsAnError) {
  auto parsed = parse({"--board", "b1=dgt:/dev/x", "--clock-display", "b9"});
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error(), "--clock-display: no board 'b9'");
  EXPECT_TRUE(parse({"--board", "b1=dgt:/dev/x", "--clock-display", "b1"}).ok());
  EXPECT_TRUE(parse({"--clock-display", "demo"}).ok());
}

// Every whole-number option: digits only, within its range (option_number.h); "-1" used
// to wrap into "no limit".
TEST(Config, EveryCountOptionIsRangeChecked) {
  struct Case {
    const char* option;
    const char* low;   // just below the range
    const char* high;  // just above it
  };
  const Case cases[] = {
      {"--consumer-queue-bytes", "1023", "1073741825"}, {"--max-connections", "0", "65537"},
      {"--max-connections-per-peer", "0", "65537"},     {"--frame-timeout", "0", "3601"},
      {"--ws-queue-bytes", "4095", "1073741825"},
  };
  for (const Case& c : cases) {
    for (const char* bad : {c.low, c.high, "-1", "", "12x", "+5", "99999999999999999999999"}) {
      auto parsed = parse({"--board", "b1=dgt:/dev/x", c.option, bad});
      ASSERT_FALSE(parsed.ok()) << c.option << " " << bad;
      EXPECT_EQ(parsed.error().rfind(
                    std::string(c.option) + ": '" + bad + "' is not a whole number from ", 0),
                0u)
          << parsed.error();
    }
  }
  auto keepalive = parse(
      {"--board", "b1=dgt:/dev/x", "--mqtt", "127.0.0.1:1883", "--mqtt-keepalive", "-4294967290"});
  ASSERT_FALSE(keepalive.ok()) << "wrapped to 6 before";
  EXPECT_NE(keepalive.error().find("--mqtt-keepalive"), std::string::npos);
  for (const char* speed : {"-1", "1001", "nan", "inf"}) {
    EXPECT_FALSE(parse({"--demo-speed", speed}).ok()) << speed;
    EXPECT_FALSE(parse({"--sim-speed", speed}).ok()) << speed;
  }
}

TEST(Config, ConnectionLimits) {
  auto defaults = parse({"--board", "b1=dgt:/dev/x"});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->config.limits.max_connections, 1024u);
  EXPECT_EQ(defaults->config.limits.max_connections_per_peer, 64u);
  EXPECT_EQ(defaults->config.limits.frame_timeout, std::chrono::seconds(10));
  auto set =
      parse({"--board", "b1=dgt:/dev/x", "--max-connections", "600", "--max-connections-per-peer",
             "600", "--frame-timeout", "2", "--consumer-queue-bytes", "65536"});
  ASSERT_TRUE(set.ok()) << set.error();
  EXPECT_EQ(set->config.limits.max_connections, 600u);
  EXPECT_EQ(set->config.limits.max_connections_per_peer, 600u);
  EXPECT_EQ(set->config.limits.frame_timeout, std::chrono::seconds(2));
  EXPECT_EQ(set->config.consumer_queue_bytes, 65536u);
}

TEST(Config, HelpDocumentsEveryOption) {
  const std::string help = config_help();
  for (const char* name : {"--board", "--rules", "--clock", "--param", "--listen", "--journal",
                           "--journal-fsync", "--control-token-file", "--demo-speed", "--config",
                           "--max-connections", "--max-connections-per-peer", "--frame-timeout"}) {
    EXPECT_NE(help.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace eboard::daemon
