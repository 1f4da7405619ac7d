// Options of the broadcast sinks (docs/interfaces.md §2 eboardd: --mqtt*, --http),
// declared into eboardd's one option set and validated with it, so a bad value is the
// usual one-line error and exit status 2 before anything opens.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace boost::program_options {
class options_description;
class variables_map;
}  // namespace boost::program_options

namespace eboard::daemon {

struct MqttOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 1883;
  std::string site = "default";
  std::string node;  // the host name by default
  std::string user;
  std::string password;  // read from --mqtt-password-file
  std::string ca_file;   // TLS when set
  std::chrono::seconds keepalive{10};
  std::string state_file;  // where acknowledged seqs persist; "" = memory only
};

struct HttpOptions {
  std::string host = "127.0.0.1";  // read-only endpoints bind to loopback unless told
  std::uint16_t port = 0;
};

// The daemon's certificate for --https and --listen tls: (tls_context.h).
struct TlsFiles {
  std::string cert_file;  // --tls-cert
  std::string key_file;   // --tls-key
  bool configured() const { return !cert_file.empty(); }
};

struct SinkConfig {
  std::optional<MqttOptions> mqtt;
  std::optional<HttpOptions> http;
  std::optional<HttpOptions> https;  // the same pages over TLS, with console control
  TlsFiles tls;
  std::chrono::seconds console_session{12 * 3600};  // a console login's lifetime
  std::size_t ws_queue_bytes = std::size_t{1} << 20;
  std::vector<std::string> clock_display;  // boards whose DGT 3000 shows messages; "all"
};

void add_sink_options(boost::program_options::options_description& options);
// Fills `sinks` from parsed options; the error is one line naming the option.
std::optional<std::string> fill_sink_options(const boost::program_options::variables_map& vm,
                                             SinkConfig& sinks);

// "HOST:PORT" (IPv6 in brackets); `what` names the option in errors.
std::optional<std::string> parse_host_port(const std::string& text, const char* what,
                                           std::string& host, std::uint16_t& port);

}  // namespace eboard::daemon
