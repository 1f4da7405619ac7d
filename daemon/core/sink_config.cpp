#include "daemon/core/sink_config.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <fstream>
#include <sstream>

#include "daemon/core/option_number.h"

namespace eboard::daemon {
namespace {

namespace po = boost::program_options;

// A topic level may not hold the separators or wildcards of MQTT (MQTT 3.1.1 §4.7).
bool valid_topic_level(const std::string& text) {
  return !text.empty() && text.size() <= 64 && std::none_of(text.begin(), text.end(), [](char c) {
    return c == '/' || c == '+' || c == '#' || c == '\0' || c == ' ';
  });
}

std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host[0] ? host : "localhost";
}

std::optional<std::string> fill_tls_options(const po::variables_map& vm, SinkConfig& sinks) {
  const auto text = [&vm](const char* name) {
    return vm.count(name) ? vm[name].as<std::string>() : std::string();
  };
  sinks.tls = {text("tls-cert"), text("tls-key")};
  if (sinks.tls.cert_file.empty() != sinks.tls.key_file.empty()) {
    return std::string("--tls-cert and --tls-key go together");
  }
  if (sinks.tls.configured() && !std::ifstream(sinks.tls.cert_file)) {
    return "--tls-cert: cannot read '" + sinks.tls.cert_file + "'";
  }
  if (sinks.tls.configured() && !std::ifstream(sinks.tls.key_file)) {
    return "--tls-key: cannot read '" + sinks.tls.key_file + "'";
  }
  if (vm.count("https")) {
    HttpOptions h;
    if (auto error = parse_host_port(text("https"), "--https", h.host, h.port)) return error;
    if (!sinks.tls.configured()) return std::string("--https needs --tls-cert and --tls-key");
    sinks.https = h;
  }
  if (vm.count("console-session-lifetime")) {
    auto seconds = parse_bounded("--console-session-lifetime", text("console-session-lifetime"), 1,
                                 7 * 24 * 3600);
    if (!seconds) return seconds.error();
    sinks.console_session = std::chrono::seconds(seconds.value());
  }
  return std::nullopt;
}

}  // namespace

void add_sink_options(po::options_description& d) {
  // clang-format off
  d.add_options()
    ("mqtt", po::value<std::string>()->value_name("HOST:PORT"),
     "publish every board's events to this MQTT broker (QoS 1), with retained state, "
     "live PGN and the daemon's status; resumes from the journal after an outage")
    ("mqtt-site", po::value<std::string>()->value_name("NAME"),
     "the event's name in the topics eboard/v1/SITE/NODE/...; default 'default'")
    ("mqtt-node", po::value<std::string>()->value_name("NAME"),
     "this daemon's name in the topics; default the host name")
    ("mqtt-user", po::value<std::string>()->value_name("NAME"), "MQTT user name")
    ("mqtt-password-file", po::value<std::string>()->value_name("FILE"),
     "file holding the MQTT password")
    ("mqtt-ca", po::value<std::string>()->value_name("FILE"),
     "CA certificate(s) to verify the broker with: connect over TLS")
    ("mqtt-keepalive", po::value<std::string>()->value_name("SECONDS"),
     "MQTT keep-alive; the broker sends the 'offline' Last-Will 1.5 times this after the "
     "daemon vanishes without closing its connection; 5 to 3600, default 10")
    ("http", po::value<std::string>()->value_name("HOST:PORT"),
     "serve /live.pgn, /boards/ID.pgn, /overlay?board=ID, the WebSocket /ws?board=ID and "
     "the arbiter console /arbiter (which gives control only on a loopback address); a "
     "bare PORT binds 127.0.0.1")
    ("https", po::value<std::string>()->value_name("HOST:PORT"),
     "serve the same pages and WebSockets over TLS (needs --tls-cert, --tls-key); the "
     "arbiter console /arbiter takes control there after a login with the control token")
    ("tls-cert", po::value<std::string>()->value_name("FILE"),
     "PEM certificate chain for --https and --listen tls: (the server's first)")
    ("tls-key", po::value<std::string>()->value_name("FILE"), "PEM private key of --tls-cert")
    ("console-session-lifetime", po::value<std::string>()->value_name("SECONDS"),
     "how long an arbiter console login lasts; 1 to 604800, default 43200 (12 hours)")
    ("ws-queue-bytes", po::value<std::string>()->value_name("N"),
     "a WebSocket client with more than N bytes waiting is disconnected; 4096 to "
     "1073741824, default 1048576")
    ("clock-display", po::value<std::vector<std::string>>()->composing()->value_name("BOARD|all"),
     "show the last move, ILLEGAL, a flag or the result on this board's DGT 3000 "
     "(repeatable)");
  // clang-format on
}

std::optional<std::string> parse_host_port(const std::string& text, const char* what,
                                           std::string& host, std::uint16_t& port) {
  const auto colon = text.rfind(':');
  std::string port_text = colon == std::string::npos ? text : text.substr(colon + 1);
  if (colon != std::string::npos) {
    host = text.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) host = "127.0.0.1";
  if (port_text.empty() || port_text.size() > 5 ||
      !std::all_of(port_text.begin(), port_text.end(),
                   [](char c) { return c >= '0' && c <= '9'; }) ||
      std::stoul(port_text) > 65535) {
    return std::string(what) + " '" + text + "': port '" + port_text +
           "' is not a number from 0 to 65535";
  }
  port = static_cast<std::uint16_t>(std::stoul(port_text));
  return std::nullopt;
}

std::optional<std::string> fill_sink_options(const po::variables_map& vm, SinkConfig& sinks) {
  const auto text = [&vm](const char* name) {
    return vm.count(name) ? vm[name].as<std::string>() : std::string();
  };
  if (vm.count("mqtt")) {
    MqttOptions m;
    if (auto error = parse_host_port(text("mqtt"), "--mqtt", m.host, m.port)) return error;
    if (vm.count("mqtt-site")) m.site = text("mqtt-site");
    m.node = vm.count("mqtt-node") ? text("mqtt-node") : host_name();
    if (!valid_topic_level(m.site))
      return "--mqtt-site '" + m.site + "': not a topic level (no / + # or spaces)";
    if (!valid_topic_level(m.node))
      return "--mqtt-node '" + m.node + "': not a topic level (no / + # or spaces)";
    m.user = text("mqtt-user");
    if (vm.count("mqtt-password-file")) {
      std::ifstream in(text("mqtt-password-file"));
      if (!in) return "--mqtt-password-file: cannot read '" + text("mqtt-password-file") + "'";
      std::getline(in, m.password);
    }
    m.ca_file = text("mqtt-ca");
    if (!m.ca_file.empty() && !std::ifstream(m.ca_file))
      return "--mqtt-ca: cannot read '" + m.ca_file + "'";
    if (vm.count("mqtt-keepalive")) {
      auto keepalive = parse_bounded("--mqtt-keepalive", text("mqtt-keepalive"), 5, 3600);
      if (!keepalive) return keepalive.error();
      m.keepalive = std::chrono::seconds(keepalive.value());
    }
    sinks.mqtt = m;
  } else {
    for (const char* name :
         {"mqtt-site", "mqtt-node", "mqtt-user", "mqtt-password-file", "mqtt-ca"}) {
      if (vm.count(name)) return std::string("--") + name + " needs --mqtt HOST:PORT";
    }
  }
  if (vm.count("http")) {
    HttpOptions h;
    if (auto error = parse_host_port(text("http"), "--http", h.host, h.port)) return error;
    sinks.http = h;
  }
  if (auto error = fill_tls_options(vm, sinks)) return error;
  if (vm.count("ws-queue-bytes")) {
    auto bytes = parse_bounded("--ws-queue-bytes", text("ws-queue-bytes"), 4096, 1u << 30);
    if (!bytes) return bytes.error();
    sinks.ws_queue_bytes = static_cast<std::size_t>(bytes.value());
  }
  if (vm.count("clock-display"))
    sinks.clock_display = vm["clock-display"].as<std::vector<std::string>>();
  return std::nullopt;
}

}  // namespace eboard::daemon
