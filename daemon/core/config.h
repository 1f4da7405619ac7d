// eboardd's configuration (docs/interfaces.md §2 `eboardd`): the command line and a config
// file (`--config FILE`) share one set of option names, parsed with Boost.Program_options.
// Everything is validated here, before anything is opened: a bad board spec, rule set,
// time control or parameter is a one-line error and exit status 2 (style.md "Errors"),
// so a half-started daemon never has to undo anything.
//
// Not handled here (yet): the MQTT and HTTP sinks of docs/interfaces.md §2; their options are
// rejected as unknown rather than accepted and ignored.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/core/sink_config.h"
#include "drivers/board_spec.h"
#include "util/result.h"

namespace eboard::daemon {

struct BoardConfig {
  std::string name;         // the NAME of `--board NAME=...`, also the events' boardId
  drivers::BoardSpec spec;  // a factory driver or "sim"; for "sim" `device` is the script path
  std::string text;         // as given, for messages
};

struct ListenAddress {
  enum class Kind : std::uint8_t { kUnix, kTcp, kTls };  // kTls: tls_listener.h
  Kind kind = Kind::kUnix;
  std::string path;  // kUnix
  std::string host;  // kTcp, kTls
  std::uint16_t port = 0;
  std::string text;  // as given
};

// When the journal is flushed to stable storage.
enum class FsyncPolicy : std::uint8_t {
  kAlways,    // fdatasync after every record, before its event is published
  kInterval,  // at most once a second: a power cut may lose the last second
  kNever,     // leave it to the kernel (tests, benchmarks)
  // Written before it is published, published at once, synced by the worker right after
  // (group commit); seqs are reserved ahead durably so a power cut never makes a seen seq
  // mean another event (seq_reservation.h). Latency of kInterval, seq promise of kAlways.
  // The default (BENCHMARKS.md "The daemon": why).
  kAfterPublish,
};

// Bounds on what clients may hold (stream_server.h, consumer.h).
struct ConnectionLimits {
  std::size_t max_connections = 1024;         // per listener
  std::size_t max_connections_per_peer = 64;  // per listener and peer
  std::chrono::seconds frame_timeout{10};     // a client frame begun must end within this
};

enum class PrintFormat : std::uint8_t { kNone, kText, kJson };

struct DaemonConfig {
  std::vector<BoardConfig> boards;  // empty: the demo
  std::string rules;                // rule set name; "" = docs/rules.md default
  std::string clock;                // time control text; "" = the rule set's default
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<ListenAddress> listen;
  std::string journal_dir;  // "" = no journal (the demo unless --journal is given)
  FsyncPolicy fsync = FsyncPolicy::kAfterPublish;
  // Where the kernel's boot id is read (seq_reservation.h); a test seam for "rebooted".
  std::string boot_id_file = "/proc/sys/kernel/random/boot_id";
  std::string control_token;  // read from --control-token-file; "" = no TCP control
  double demo_speed = 10.0;
  double sim_speed = 1.0;
  std::string sim_program;      // "" = eboard-sim next to eboardd
  std::string runtime_dir;      // where sim: boards' pty links live
  std::string usb_emulator;     // --usb-emulator DIR: the emulated USB bus; "" = libusb
  std::string serial_emulator;  // --serial-emulator DIR: emulated serial ports; "" = the system's
  std::vector<std::string> board_lights;  // --board-lights: board names, or "all"
  std::size_t consumer_queue_bytes = std::size_t{4} << 20;
  ConnectionLimits limits;
  PrintFormat print = PrintFormat::kNone;
  SinkConfig sinks;  // --mqtt*, --http, --clock-display (daemon/sinks)
  bool demo = false;
  // --round-file: each board's game of the round as its PGN tags (docs/interfaces.md §6.2),
  // by board name, and one line per board for the start-up log.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> round_tags;
  std::vector<std::string> round_log;
};

enum class ConfigAction : std::uint8_t { kRun, kHelp, kVersion };

struct ParsedConfig {
  ConfigAction action = ConfigAction::kRun;
  DaemonConfig config;
};

// Parses argv (argv[0] is skipped). The error is one line without the program name.
Result<ParsedConfig> parse_config(int argc, const char* const* argv);
// --help's text: usage and every option with its meaning and default.
std::string config_help();

// Pieces the parser uses, exposed for tests and for eboard-events.
// `option` names the option in errors (eboard-events reads --connect with it).
Result<ListenAddress> parse_listen_address(std::string_view text,
                                           std::string_view option = "--listen");
Result<BoardConfig> parse_board_option(std::string_view text);

}  // namespace eboard::daemon
