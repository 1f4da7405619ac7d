#include "daemon/core/config.h"

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <boost/program_options.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "daemon/core/option_number.h"
#include "daemon/round/round_sheet.h"
#include "drivers/factory.h"
#include "engine/clock/time_control.h"
#include "engine/rules/rule_params.h"
#include "engine/rules/rule_set.h"
#include "simulators/script/script_reader.h"

namespace eboard::daemon {
namespace {

namespace po = boost::program_options;

po::options_description describe_options() {
  po::options_description d(
      "Options (on the command line as --NAME VALUE, in the --config file as NAME = VALUE)");
  // clang-format off
  d.add_options()
    ("help,h", "print this help and exit")
    ("version", "print the version and exit")
    ("config", po::value<std::string>()->value_name("FILE"),
     "read more options from FILE: one `NAME = VALUE` a line, `#` comments; the command "
     "line wins over the file for single-valued options, lists are joined")
    ("board", po::value<std::vector<std::string>>()->composing()->value_name("NAME=DRIVER:DEVICE[,K=V]"),
     "a board (repeatable). DRIVER `dgt`: DEVICE is a tty path, or `auto` with `serial=N` "
     "to find the board with that serial number, or `auto` alone for the first DGT board "
     "found that no other --board holds or names (one board each; waits until one is "
     "plugged in); `chesslink` (Millennium ChessLink/eONE): a tty path or `auto`; "
     "`chessnut` (Air/Air+/Pro): `usb`; `certabo`: a tty path or `auto` (these three: "
     "`serial=N` is their USB adapter's, and `auto` or `usb` alone takes a free board as "
     "for dgt); `sim`: DEVICE is a sensor script played by `eboard-sim dgt` on a "
     "pseudo-terminal through the real DGT driver. Keys: `serial=N`, "
     "`white=left|right|auto` (the clock side White sits on; default auto), "
     "`clock=none|auto` (none: no clock reaches the daemon, moves complete when the "
     "opponent begins or after a settle time; auto, the default: so when the device "
     "reports no clock, as ChessLink, Chessnut and Certabo boards always do). Without any "
     "--board the demo runs")
    ("board-lights", po::value<std::vector<std::string>>()->composing()->value_name("BOARD|all"),
     "show on the board's LEDs (where it has them) the squares of a pending illegal move and, "
     "for a moment, the last completed move (repeatable)")
    ("usb-emulator", po::value<std::string>()->value_name("DIR"),
     "use the emulated USB bus in DIR (`eboard-sim chessnut --usb-bus DIR`) instead of "
     "libusb; for tests and demonstrations")
    ("serial-emulator", po::value<std::string>()->value_name("DIR"),
     "find `auto` boards' serial ports among the emulated USB-serial ports in DIR "
     "(`eboard-sim dgt|chesslink|certabo --serial-bus DIR`) instead of the system's; for "
     "tests and demonstrations")
    ("rules", po::value<std::string>()->value_name("NAME"),
     "rule set of docs/rules.md §2 (fide-standard, fide-rapid, fide-blitz, legacy-blitz, "
     "semilampo-15, pskov-blitz); default fide-standard")
    ("clock", po::value<std::string>()->value_name("TC"),
     "time control, e.g. 180+2, 300d2, 40/5400+30:1800+30 or a docs/rules.md §3 name; default: "
     "the rule set's")
    ("param", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUE"),
     "override one rule-set parameter (repeatable), as a script's `param` line")
    ("listen", po::value<std::vector<std::string>>()->composing()->value_name("unix:PATH|tcp:HOST:PORT|tls:HOST:PORT"),
     "where consumers connect (repeatable). Default: unix:/run/eboardd/events.sock and "
     "tcp:127.0.0.1:7341; the demo listens nowhere unless told. tls: is the TCP stream "
     "over TLS (needs --tls-cert and --tls-key)")
    ("journal", po::value<std::string>()->value_name("DIR"),
     "directory of the per-board journals and finished games' PGN files; default "
     "/var/lib/eboardd (the demo keeps no journal unless told)")
    ("journal-fsync", po::value<std::string>()->value_name("always|after-publish|interval|never"),
     "when journal records reach the disk: after-publish (default) writes each record "
     "before its event is published, publishes at once and syncs right after, with seqs "
     "reserved ahead on the disk so a power cut never reissues a seq a consumer has seen "
     "(it leaves a visible seqsLost gap instead; sub-millisecond delivery); always syncs "
     "each record before publishing it (each event waits for the disk); "
     "interval at most once a second (a power cut may lose the last second and reissue "
     "its seqs); never leaves it to the kernel")
    ("boot-id-file", po::value<std::string>()->value_name("FILE"),
     "where the kernel's boot id is read, to tell a process crash from a power cut under "
     "after-publish; default /proc/sys/kernel/random/boot_id (other values are for tests)")
    ("control-token-file", po::value<std::string>()->value_name("FILE"),
     "file holding the token that allows control commands over TCP (without it, TCP is "
     "read-only; the Unix socket is protected by its file permissions)")
    ("demo-speed", po::value<double>()->value_name("X"),
     "speed of the demo game (no --board): 10 plays ten times faster than the players did; "
     "0 as fast as the daemon reads; default 10")
    ("sim-speed", po::value<double>()->value_name("X"),
     "speed of `sim:` boards' scripts; default 1 (real time)")
    ("sim-program", po::value<std::string>()->value_name("PATH"),
     "the eboard-sim program; default: the one next to eboardd")
    ("runtime-dir", po::value<std::string>()->value_name("DIR"),
     "where `sim:` boards' pseudo-terminal links are made; default $RUNTIME_DIRECTORY, "
     "else a new directory under /tmp")
    ("consumer-queue-bytes", po::value<std::string>()->value_name("N"),
     "a consumer with more than N bytes waiting is disconnected (slow consumer); 1024 to "
     "1073741824, default 4194304")
    ("max-connections", po::value<std::string>()->value_name("N"),
     "connections one listener keeps at once; more are refused with a goodbye until one "
     "closes; 1 to 65536, default 1024")
    ("max-connections-per-peer", po::value<std::string>()->value_name("N"),
     "connections one peer (a TCP client's address, a Unix client's user id) keeps at once "
     "on one listener; 1 to 65536, default 64")
    ("frame-timeout", po::value<std::string>()->value_name("SECONDS"),
     "a client frame begun and not completed within SECONDS closes the connection; 1 to "
     "3600, default 10")
    ("round-file", po::value<std::string>()->value_name("FILE"),
     "set up a round before any board starts (docs/interfaces.md §6.2): FILE is a round CSV "
     "(board,white,black,... with --round N) or a FIDE TRF16 file with --round N; each "
     "board's first game gets its pairing's players and tags (a game the journal resumes "
     "keeps its own). Round board B is played on the B-th --board, or as the CSV's eboard "
     "column or --board-map says")
    ("round", po::value<int>()->value_name("N"),
     "with --round-file: the round (TRF: the round whose pairings are read; the Round tag "
     "R.B)")
    ("event", po::value<std::string>()->value_name("NAME"), "with --round-file: the Event tag")
    ("site", po::value<std::string>()->value_name("NAME"), "with --round-file: the Site tag")
    ("date", po::value<std::string>()->value_name("YYYY.MM.DD"), "with --round-file: the Date tag")
    ("board-map", po::value<std::string>()->value_name("FILE"),
     "with --round-file: a CSV board,eboard naming the board that plays each round board")
    ("print", po::value<std::string>()->value_name("none|text|json"),
     "also print every event on stdout: the text view, or JSON lines; default none "
     "(text in the demo)");
  // clang-format on
  add_sink_options(d);
  return d;
}

std::string trim(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

// Boost reads the file itself; this pass only finds unknown names and lines without
// `=`, so that the error can name the line.
std::optional<std::string> check_config_file(const std::string& path, std::istream& in,
                                             const po::options_description& d) {
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string text = trim(line.substr(0, line.find('#')));
    if (text.empty()) continue;
    const auto equals = text.find('=');
    if (equals == std::string::npos) {
      return path + ":" + std::to_string(number) + ": expected NAME = VALUE";
    }
    const std::string name = trim(text.substr(0, equals));
    if (name == "config" || name == "help" || name == "version" ||
        d.find_nothrow(name, false) == nullptr) {
      return path + ":" + std::to_string(number) + ": unknown option '" + name + "'";
    }
  }
  return std::nullopt;
}

Result<std::string> read_token(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error{"--control-token-file: cannot read '" + path + "'"};
  std::stringstream text;
  text << in.rdbuf();
  const std::string token = trim(text.str());
  if (token.empty()) return Error{"--control-token-file: '" + path + "' is empty"};
  return token;
}

bool valid_board_name(std::string_view name) {
  if (name.empty() || name.size() > 32) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

template <class T>
std::optional<T> get(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return std::nullopt;
  return vm[name].as<T>();
}

std::optional<std::string> fill_engine_options(const po::variables_map& vm, DaemonConfig& c) {
  engine::RuleSet rules;
  c.rules = get<std::string>(vm, "rules").value_or("");
  auto found = engine::rule_set_by_name(c.rules.empty() ? engine::kDefaultRuleSetName : c.rules);
  if (!found) return "--rules: " + found.error();
  rules = found.value();
  c.clock = get<std::string>(vm, "clock").value_or("");
  if (!c.clock.empty()) {
    if (auto tc = engine::parse_time_control(c.clock); !tc) return "--clock: " + tc.error();
  }
  for (const auto& text :
       get<std::vector<std::string>>(vm, "param").value_or(std::vector<std::string>{})) {
    auto assignment = engine::parse_param_assignment(text);
    if (!assignment) return "--param '" + text + "': " + assignment.error();
    if (auto error = engine::apply_param(rules, assignment->name, assignment->value)) {
      return "--param '" + text + "': " + error->message;
    }
    c.params.emplace_back(assignment->name, assignment->value);
  }
  return std::nullopt;
}

// The whole-number options (option_number.h: read as text, range-checked).
std::optional<std::string> fill_limits(const po::variables_map& vm, DaemonConfig& c) {
  struct Limit {
    const char* name;
    std::uint64_t min;
    std::uint64_t max;
    std::uint64_t* value;
  };
  std::uint64_t queue = c.consumer_queue_bytes;
  std::uint64_t per_listener = c.limits.max_connections;
  std::uint64_t per_peer = c.limits.max_connections_per_peer;
  std::uint64_t timeout_s = static_cast<std::uint64_t>(c.limits.frame_timeout.count());
  const Limit limits[] = {
      {"consumer-queue-bytes", 1024, std::uint64_t{1} << 30, &queue},
      {"max-connections", 1, 65536, &per_listener},
      {"max-connections-per-peer", 1, 65536, &per_peer},
      {"frame-timeout", 1, 3600, &timeout_s},
  };
  for (const Limit& limit : limits) {
    const auto text = get<std::string>(vm, limit.name);
    if (!text) continue;
    auto value = parse_bounded(std::string("--") + limit.name, *text, limit.min, limit.max);
    if (!value) return value.error();
    *limit.value = value.value();
  }
  c.consumer_queue_bytes = static_cast<std::size_t>(queue);
  c.limits.max_connections = static_cast<std::size_t>(per_listener);
  c.limits.max_connections_per_peer = static_cast<std::size_t>(per_peer);
  c.limits.frame_timeout = std::chrono::seconds(timeout_s);
  return std::nullopt;
}

// --round-file: read, checked and put on the configured boards before anything starts.
std::optional<std::string> fill_round_options(const po::variables_map& vm, DaemonConfig& c) {
  const auto file = get<std::string>(vm, "round-file");
  if (!file) {
    for (const char* name : {"round", "event", "site", "date", "board-map"}) {
      if (vm.count(name)) return "--" + std::string(name) + " needs --round-file";
    }
    return std::nullopt;
  }
  round::RoundOptions options;
  if (auto n = get<int>(vm, "round")) {
    if (*n < 1 || *n > 999) return "--round: " + std::to_string(*n) + " is not from 1 to 999";
    options.round = *n;
  }
  options.event = get<std::string>(vm, "event");
  options.site = get<std::string>(vm, "site");
  options.date = get<std::string>(vm, "date");
  options.board_map = get<std::string>(vm, "board-map").value_or("");
  auto sheet = round::read_round_file(*file, options);
  if (!sheet) return "--round-file: " + sheet.error();
  std::vector<std::string> names;
  for (const auto& b : c.boards) names.push_back(b.name);
  auto plan = round::plan_round(sheet.value(), names);
  if (!plan) return "--round-file: " + plan.error();
  for (const auto& game : plan->games) {
    c.round_tags[game.board_id] = game.tags;
    std::string players;
    for (const auto& [name, value] : game.tags) {
      if (name == "White" || name == "Black") players += (players.empty() ? "" : " - ") + value;
    }
    c.round_log.push_back("board " + game.board_id + ": round " + std::to_string(sheet->round) +
                          " board " + std::to_string(game.board) + ": " + players);
  }
  return std::nullopt;
}

std::optional<std::string> fill_daemon_options(const po::variables_map& vm, DaemonConfig& c) {
  std::set<std::string> names;
  for (const auto& text :
       get<std::vector<std::string>>(vm, "board").value_or(std::vector<std::string>{})) {
    auto board = parse_board_option(text);
    if (!board) return board.error();
    if (!names.insert(board->name).second)
      return "--board: board '" + board->name + "' given twice";
    if (board->spec.driver == "sim") {
      const script::ScriptFile file = script::read_script_file(board->spec.device);
      if (!file.ok()) return "--board '" + text + "': " + file.error;
    }
    c.boards.push_back(board.value());
  }
  c.demo = c.boards.empty();
  for (const auto& text :
       get<std::vector<std::string>>(vm, "listen").value_or(std::vector<std::string>{})) {
    auto address = parse_listen_address(text);
    if (!address) return address.error();
    c.listen.push_back(address.value());
  }
  if (vm.count("listen") == 0 && !c.demo) {
    c.listen.push_back(parse_listen_address("unix:/run/eboardd/events.sock").value());
    c.listen.push_back(parse_listen_address("tcp:127.0.0.1:7341").value());
  }
  c.journal_dir = get<std::string>(vm, "journal").value_or(c.demo ? "" : "/var/lib/eboardd");
  const std::string fsync = get<std::string>(vm, "journal-fsync").value_or("after-publish");
  if (fsync == "always")
    c.fsync = FsyncPolicy::kAlways;
  else if (fsync == "interval")
    c.fsync = FsyncPolicy::kInterval;
  else if (fsync == "never")
    c.fsync = FsyncPolicy::kNever;
  else if (fsync == "after-publish")
    c.fsync = FsyncPolicy::kAfterPublish;
  else
    return "--journal-fsync: '" + fsync + "' is not always, after-publish, interval or never";
  c.boot_id_file = get<std::string>(vm, "boot-id-file").value_or(c.boot_id_file);
  if (auto file = get<std::string>(vm, "control-token-file")) {
    auto token = read_token(*file);
    if (!token) return token.error();
    c.control_token = token.value();
  }
  c.demo_speed = get<double>(vm, "demo-speed").value_or(10.0);
  c.sim_speed = get<double>(vm, "sim-speed").value_or(1.0);
  if (!(c.demo_speed >= 0 && c.demo_speed <= 1000)) return "--demo-speed must be from 0 to 1000";
  if (!(c.sim_speed >= 0 && c.sim_speed <= 1000)) return "--sim-speed must be from 0 to 1000";
  c.sim_program = get<std::string>(vm, "sim-program").value_or("");
  c.runtime_dir = get<std::string>(vm, "runtime-dir").value_or("");
  if (auto error = fill_limits(vm, c)) return error;
  c.usb_emulator = get<std::string>(vm, "usb-emulator").value_or("");
  c.serial_emulator = get<std::string>(vm, "serial-emulator").value_or("");
  if (vm.count("board-lights")) c.board_lights = vm["board-lights"].as<std::vector<std::string>>();
  for (const auto& name : c.board_lights) {
    if (name != "all" && !names.count(name)) return "--board-lights: no board '" + name + "'";
  }
  const std::string print = get<std::string>(vm, "print").value_or(c.demo ? "text" : "none");
  if (print == "none")
    c.print = PrintFormat::kNone;
  else if (print == "text")
    c.print = PrintFormat::kText;
  else if (print == "json")
    c.print = PrintFormat::kJson;
  else
    return "--print: '" + print + "' is not none, text or json";
  if (auto error = fill_sink_options(vm, c.sinks)) return error;
  // Checked here, not when the sinks start: by then the journals are open.
  for (const auto& name : c.sinks.clock_display) {
    const bool known = name == "all" || (c.demo ? name == "demo" : names.count(name) > 0);
    if (!known) return "--clock-display: no board '" + name + "'";
  }
  for (const auto& address : c.listen) {
    if (address.kind == ListenAddress::Kind::kTls && !c.sinks.tls.configured()) {
      return "--listen " + address.text + " needs --tls-cert FILE and --tls-key FILE";
    }
  }
  return fill_round_options(vm, c);
}

}  // namespace

Result<ListenAddress> parse_listen_address(std::string_view text, std::string_view option) {
  ListenAddress address;
  address.text = std::string(text);
  const std::string quoted = std::string(option) + " '" + std::string(text) + "': ";
  if (text.starts_with("unix:")) {
    address.kind = ListenAddress::Kind::kUnix;
    address.path = std::string(text.substr(5));
    if (address.path.empty()) return Error{quoted + "no socket path"};
    if (address.path.size() >= 108) return Error{quoted + "socket path longer than 107 bytes"};
    return address;
  }
  if (text.starts_with("tcp:") || text.starts_with("tls:")) {
    address.kind = text.starts_with("tls:") ? ListenAddress::Kind::kTls : ListenAddress::Kind::kTcp;
    const std::string_view rest = text.substr(4);
    const auto colon = rest.rfind(':');
    if (colon == std::string_view::npos) {
      return Error{quoted + "expected " + std::string(text.substr(0, 4)) + "HOST:PORT"};
    }
    address.host = std::string(rest.substr(0, colon));
    if (address.host.size() > 2 && address.host.front() == '[' && address.host.back() == ']') {
      address.host = address.host.substr(1, address.host.size() - 2);
    }
    if (address.host.empty()) address.host = "127.0.0.1";
    const std::string port = std::string(rest.substr(colon + 1));
    if (port.empty() || port.size() > 5 ||
        !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoi(port) > 65535) {
      return Error{quoted + "port '" + port + "' is not a number from 0 to 65535"};
    }
    address.port = static_cast<std::uint16_t>(std::stoi(port));
    // An IP address, not a name: the daemon never resolves names (no DNS at start-up).
    boost::system::error_code error;
    boost::asio::ip::make_address(address.host == "localhost" ? "127.0.0.1" : address.host, error);
    if (error) return Error{quoted + "'" + address.host + "' is not an IP address"};
    return address;
  }
  return Error{quoted + "expected unix:PATH, tcp:HOST:PORT or tls:HOST:PORT"};
}

Result<BoardConfig> parse_board_option(std::string_view text) {
  const std::string quoted = "--board '" + std::string(text) + "': ";
  const auto equals = text.find('=');
  if (equals == std::string_view::npos) return Error{quoted + "expected NAME=DRIVER:DEVICE"};
  BoardConfig board;
  board.text = std::string(text);
  board.name = std::string(text.substr(0, equals));
  if (!valid_board_name(board.name)) {
    return Error{quoted + "board name '" + board.name +
                 "' must be 1 to 32 letters, digits, '-' or '_'"};
  }
  auto spec = drivers::parse_board_spec(text.substr(equals + 1));
  if (auto* error = std::get_if<drivers::SpecError>(&spec)) return Error{quoted + error->message};
  board.spec = std::get<drivers::BoardSpec>(spec);
  const drivers::DriverInfo* driver = drivers::find_driver(board.spec.driver);
  if (!driver && board.spec.driver != "sim") {
    return Error{quoted + "unknown driver '" + board.spec.driver +
                 "' (known: " + drivers::driver_names() + ", sim)"};
  }
  const bool usb = driver && driver->transport == drivers::TransportKind::kUsbHid;
  if (usb && board.spec.device != "usb") {
    return Error{quoted + board.spec.driver + " boards are reached over USB: the device is `usb`"};
  }
  if (driver && !usb && board.spec.device == "usb") {
    return Error{quoted + board.spec.driver + " boards are serial devices: a path or `auto`"};
  }
  if (board.spec.white != drivers::WhiteSetting::kAuto && driver && board.spec.driver != "dgt") {
    return Error{quoted + "white= applies to boards with a clock on their cable (dgt)"};
  }
  if (board.spec.driver == "sim" && board.spec.serial) {
    return Error{quoted + "serial= does not apply to sim boards"};
  }
  return board;
}

std::string config_help() {
  std::ostringstream out;
  out << "usage: eboardd [--board NAME=DRIVER:DEVICE[,KEY=VALUE...]]... [options]\n"
         "The e-board daemon: reads DGT boards and clocks, recognises moves, applies the\n"
         "rules and streams every event (length-delimited eboard.v1.Frame) to consumers on\n"
         "its sockets, journalling each event first. Without --board it plays a demo game\n"
         "on an emulated board and prints the events.\n\n"
      << describe_options();
  return out.str();
}

namespace {

// Boost.Program_options (1.74) builds an error's text by replacing "%name%" placeholders
// with the offending token until none is left: a token that itself contains
// "%original_token%" (or "%value%", ...) never runs out, and what() loops forever (found
// by fuzz_config). The substitutions are protected; reading them through a derived class's
// member pointer is the one legal way in. '%' in them is shown as '?'.
struct PlaceholderAccess : po::error_with_option_name {
  static const std::map<std::string, std::string>& of(const po::error_with_option_name& e) {
    return e.*(&PlaceholderAccess::m_substitutions);
  }
};

void defuse_placeholders(po::error_with_option_name& error) {
  const std::map<std::string, std::string> substitutions = PlaceholderAccess::of(error);
  for (const auto& [name, value] : substitutions) {
    if (value.find('%') == std::string::npos) continue;
    std::string safe = value;
    std::replace(safe.begin(), safe.end(), '%', '?');
    error.set_substitute(name, safe);
  }
}

}  // namespace

Result<ParsedConfig> parse_config(int argc, const char* const* argv) {
  const po::options_description d = describe_options();
  po::variables_map vm;
  try {
    // Every argument is an option: a word without `--` (a stray path, a typo) is an
    // error, not silently ignored. "stray" is a hidden catch-all for such words.
    po::options_description all = d;
    all.add_options()("stray", po::value<std::vector<std::string>>());
    po::positional_options_description positional;
    positional.add("stray", -1);
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    if (vm.count("stray")) {
      return Error{"unexpected argument '" + vm["stray"].as<std::vector<std::string>>().front() +
                   "' (every argument is an --option; see --help)"};
    }
    if (vm.count("help")) return ParsedConfig{ConfigAction::kHelp, {}};
    if (vm.count("version")) return ParsedConfig{ConfigAction::kVersion, {}};
    if (vm.count("config")) {
      const std::string path = vm["config"].as<std::string>();
      std::error_code ignored;
      if (std::filesystem::is_directory(path, ignored)) {
        return Error{"--config: '" + path + "' is a directory, not a file"};
      }
      std::ifstream check(path);
      if (!check) return Error{"--config: cannot read '" + path + "'"};
      if (auto error = check_config_file(path, check, d)) return Error{*error};
      std::ifstream in(path);
      po::store(po::parse_config_file(in, d), vm);
    }
    po::notify(vm);
  } catch (po::error_with_option_name& error) {
    defuse_placeholders(error);
    return Error{error.what()};
  } catch (const po::error& error) {
    return Error{error.what()};
  }
  ParsedConfig parsed;
  if (auto error = fill_daemon_options(vm, parsed.config)) return Error{*error};
  if (auto error = fill_engine_options(vm, parsed.config)) return Error{*error};
  return parsed;
}

}  // namespace eboard::daemon
