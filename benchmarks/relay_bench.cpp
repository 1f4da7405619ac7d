// A whole event on one machine (BENCHMARKS.md "The event relay"): one mosquitto broker
// without persistence, D eboardd with B emulated DGT boards each (default 20 x 10 = 200),
// every board playing a real game of the shared corpus, and eboard-relay:
//
//   emulators (this process, one pty each) -> eboardd (DGT driver, tracker, journal, MQTT
//   publisher) -> mosquitto -> eboard-relay (fan-in, live PGN) -> WebSocket (this process)
//
// The boards do not start in step: board n's script starts n x --stagger ms (default 50,
// the 200 boards within 10 s) after its daemon has the board. The corpus scripts give the
// first moves of every game the same times, so started together the 200 boards press
// within 0.1 s of each other every 0.75 s for the first eight plies, which no event does;
// what that measures is how long such a burst takes to drain (--stagger 0 shows it).
//
// Latency: for every clock press, from its bytes being written to the pty to the arrival
// of that ply's moveCompleted on the relay's WebSocket for the board (the relay hands an
// event to its WebSocket clients as it applies it; clean scripts: press n completes ply
// n). An MQTT subscriber in this process also times each moveCompleted as the broker
// delivers it, which splits the path into press -> broker and broker -> relay client. The
// broker is stopped in the middle for --outage seconds and started again empty: presses
// in that window wait for it and are reported apart. At the end each board's PGN at the
// relay is compared with its daemon's own (/boards/ID.pgn): what differs is lost; a press
// whose move never reached the relay is missing; an event seen twice on a WebSocket is
// repeated. CPU time (user + system) of every process while the boards play comes from
// /proc, this process' threads apart.
//
// Exits 1 when anything is lost, missing or repeated, or when nothing could be played (a
// program not built, a script without presses); 2 for bad arguments.
//
// The press -> broker half is split further: when the daemon asked the clock for the
// reading that confirms the press (DGT_SEND_CLK, drivers/dgt/clock_gate.h), and when its
// own stream socket handed out the moveCompleted (before MQTT). This process' own delays
// are printed too: its emulator loop's work per pass, and how late a timer of its
// WebSocket thread fires.
//
//   bench_relay [--daemons D] [--boards B] [--speed X] [--outage S] [--fsync F]
//               [--stagger MS] [--samples FILE]
#include <sys/resource.h>
#include <sys/un.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "benchmarks/relay_bench_play.h"
#include "eboard/v1/frame.pb.h"
#include "eboard/v1/framing.h"
#include "eboard/v1/json.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace {

using namespace eboard::daemon::broadcast_test;
using eboard::bench::child_named;
using eboard::bench::Clock;
using eboard::bench::machine_jiffies;
using eboard::bench::process_cpu;
using eboard::bench::RelayBoard;
using eboard::bench::slurp;
namespace v1 = eboard::v1;
namespace script = eboard::script;
namespace sim = eboard::sim;

struct Args {
  int daemons = 20;
  int boards = 10;
  double speed = 2.0;
  double outage = 3.0;
  std::string fsync = "after-publish";
  std::string samples;     // a file for every press' times
  double stagger_ms = 50;  // board n's script starts n x this late
};

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// When each board's moveCompleted plies first arrived somewhere, by "node/board".
using Arrivals = std::map<std::string, std::map<std::uint32_t, Clock::time_point>>;

// One WebSocket client per board on the relay, in one thread; records moveCompleted
// arrivals and every seq seen, and how late a 10 ms timer of that thread fires (its own
// loop's delay, part of what the latency counts). Returns the thread's CPU seconds.
double watch(std::uint16_t port, const std::vector<RelayBoard>& boards, std::atomic<bool>& stop,
             std::mutex& mutex, Arrivals& arrivals,
             std::map<std::string, std::map<std::uint32_t, int>>& seen,
             std::vector<double>& timer_late_ms) {
  namespace beast = boost::beast;
  namespace asio = boost::asio;
  asio::io_context io;
  struct Client {
    std::string key;
    std::unique_ptr<beast::websocket::stream<asio::ip::tcp::socket>> ws;
    beast::flat_buffer buffer;
  };
  std::vector<std::unique_ptr<Client>> clients;
  std::function<void(Client&)> read = [&](Client& c) {
    c.ws->async_read(c.buffer, [&, cp = &c](const beast::error_code& error, std::size_t) {
      if (error) return;
      const auto at = Clock::now();
      const std::string text = beast::buffers_to_string(cp->buffer.data());
      cp->buffer.consume(cp->buffer.size());
      auto frame = eboard::proto::frame_from_json(text);
      if (frame.ok() && frame->has_event()) {
        std::lock_guard lock(mutex);
        ++seen[cp->key][frame->event().seq()];
        if (frame->event().has_move_completed())
          arrivals[cp->key].try_emplace(frame->event().move_completed().ply(), at);
      }
      read(*cp);
    });
  };
  for (const RelayBoard& b : boards) {
    auto c = std::make_unique<Client>();
    c->key = b.key();
    poll_until(
        [&] {
          beast::error_code error;
          c->ws = std::make_unique<beast::websocket::stream<asio::ip::tcp::socket>>(io);
          c->ws->next_layer().connect({asio::ip::make_address("127.0.0.1"), port}, error);
          if (error) return false;
          c->ws->handshake("127.0.0.1", "/ws?board=" + c->key, error);
          return !error;
        },
        60s);
    read(*c);
    clients.push_back(std::move(c));
  }
  asio::steady_timer tick(io);
  std::function<void()> arm = [&] {
    const auto due = Clock::now() + 10ms;
    tick.expires_at(due);
    tick.async_wait([&, due](const beast::error_code& error) {
      if (error) return;
      timer_late_ms.push_back(
          std::chrono::duration<double, std::milli>(Clock::now() - due).count());
      arm();
    });
  };
  arm();
  while (!stop) io.run_for(50ms);
  return eboard::bench::thread_cpu_seconds();
}

// Each daemon's own stream socket (before MQTT): when it handed out each moveCompleted,
// by "node/board", until `stop`.
void watch_daemons(const std::vector<std::string>& nodes, const std::string& dir,
                   std::atomic<bool>& stop, Arrivals& out) {
  std::vector<pollfd> fds;
  std::vector<eboard::proto::FrameReader> readers(nodes.size());
  for (const std::string& node : nodes) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::snprintf(sa.sun_path, sizeof sa.sun_path, "%s",
                  (dir + "/" + node + "/events.sock").c_str());
    poll_until([&] { return ::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0; },
               30s);
    fds.push_back({fd, POLLIN, 0});
  }
  while (!stop) {
    if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
    const auto at = Clock::now();
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (!(fds[i].revents & POLLIN)) continue;
      char buffer[65536];
      const ssize_t n = ::recv(fds[i].fd, buffer, sizeof buffer, 0);
      if (n <= 0) continue;
      readers[i].feed(std::string_view(buffer, static_cast<std::size_t>(n)));
      v1::Frame frame;
      for (;;) {
        auto status = readers[i].next(frame);
        if (!status.ok() || status.value() == eboard::proto::ReadStatus::kNeedMore) break;
        if (frame.has_event() && frame.event().has_move_completed())
          out[nodes[i] + "/" + frame.event().board_id()].try_emplace(
              frame.event().move_completed().ply(), at);
      }
    }
  }
  for (const pollfd& p : fds) ::close(p.fd);
}

// The broker's own delivery of each moveCompleted (first arrival per board and ply).
Arrivals broker_arrivals(Subscriber& subscriber) {
  Arrivals out;
  const std::string prefix = "eboard/v1/bench/";
  const std::string suffix = "/events";
  for (const auto& m : subscriber.messages()) {
    if (!m.topic.starts_with(prefix) || !m.topic.ends_with(suffix)) continue;
    v1::Event event;
    if (!event.ParseFromString(m.payload) || !event.has_move_completed()) continue;
    // eboard/v1/bench/<node>/<board>/events -> "<node>/<board>"
    const std::string key =
        m.topic.substr(prefix.size(), m.topic.size() - prefix.size() - suffix.size());
    out[key].try_emplace(event.move_completed().ply(), m.at);
  }
  return out;
}

std::string percentiles(std::vector<double> ms) {
  if (ms.empty()) return "no samples";
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * ms.size()))];
  };
  char text[160];
  std::snprintf(text, sizeof text, "%zu samples: p50 %.1f ms, p99 %.1f ms, max %.1f ms", ms.size(),
                at(0.5), at(0.99), ms.back());
  return text;
}

std::string without_game_id(const std::string& pgn) {
  return std::regex_replace(pgn, std::regex("\\[(GameId|WhiteClock|BlackClock) \"[^\"]*\"\\]\n"),
                            "");
}

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "bench_relay: " << message << "\n";
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--help" || k == "-h") {
      std::cout << "usage: bench_relay [--daemons D] [--boards B] [--speed X] [--outage S]\n"
                   "                   [--fsync always|after-publish|interval|never]\n"
                   "                   [--stagger MS] [--samples FILE]\n"
                   "A whole event on this machine: D eboardd x B emulated DGT boards (default\n"
                   "20 x 10), mosquitto and eboard-relay; latency press -> relay WebSocket,\n"
                   "nothing lost across a broker restart (BENCHMARKS.md). Board n's script\n"
                   "starts n x --stagger ms (default 50) after its daemon has the board; 0\n"
                   "starts all at once, in step. --samples: one line\n"
                   "per press to FILE: board, ply, then the seconds from the start at which it\n"
                   "was pressed, the daemon asked the clock, the daemon's socket, the broker\n"
                   "and the relay's WebSocket had it (-1: not seen).\n";
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error(k + " needs a value");
    const std::string v = argv[i + 1];
    try {
      if (k == "--daemons")
        a.daemons = std::stoi(v);
      else if (k == "--boards")
        a.boards = std::stoi(v);
      else if (k == "--speed")
        a.speed = std::stod(v);
      else if (k == "--outage")
        a.outage = std::stod(v);
      else if (k == "--fsync")
        a.fsync = v;
      else if (k == "--samples")
        a.samples = v;
      else if (k == "--stagger")
        a.stagger_ms = std::stod(v);
      else
        usage_error("unknown option '" + k + "' (see --help)");
    } catch (const std::logic_error&) {
      usage_error(k + ": '" + v + "' is not a number");
    }
  }
  if (a.daemons < 1 || a.boards < 1 || a.boards > 99 || !(a.speed > 0) || a.outage < 0 ||
      !(a.stagger_ms >= 0))
    usage_error(
        "--daemons and --boards (1-99) at least 1, --speed above 0, --outage and --stagger "
        "from 0");
  return a;
}

// Fails loudly: a program not built would leave nothing to measure.
void require_programs() {
  for (const std::string& program : {kBin + "/eboardd", kBin + "/eboard-relay",
                                     kBin + "/eboard-sim", std::string("/usr/sbin/mosquitto")}) {
    if (::access(program.c_str(), X_OK) == 0) continue;
    std::fprintf(stderr,
                 "bench_relay: %s is missing (cmake --build build --target bench_relay builds "
                 "eboardd, eboard-relay and eboard-sim; mosquitto is the Debian package)\n",
                 program.c_str());
    std::exit(1);
  }
}

// The scripts: the corpus' games 1..20, clean; each must have clock presses (nullopt,
// said on stderr, when one has none).
std::optional<std::vector<script::ScriptFile>> make_scripts(const std::string& dir,
                                                            double& longest) {
  std::vector<script::ScriptFile> scripts;
  for (int g = 1; g <= 20; ++g) {
    const std::string path = make_script(dir, "g" + std::to_string(g), g);
    script::ScriptFile file = script::read_script_file(path);
    const auto presses = std::count_if(
        file.statements.begin(), file.statements.end(), [](const script::Statement& s) {
          return s.at && std::holds_alternative<script::Lever>(s.body);
        });
    if (!file.ok() || presses == 0) {
      std::fprintf(stderr, "bench_relay: %s: %s (eboard-sim script --pgn %s --game %d)\n",
                   path.c_str(), file.ok() ? "no clock presses" : file.error.c_str(),
                   kGames.c_str(), g);
      return std::nullopt;
    }
    longest = std::max(longest, script_seconds(path));
    scripts.push_back(std::move(file));
  }
  return scripts;
}

std::optional<RelayBoard> make_board(const std::string& dir, int d, int k,
                                     const script::ScriptFile& file) {
  RelayBoard b;
  char node[16], id[16];
  std::snprintf(node, sizeof node, "n%02d", d + 1);
  std::snprintf(id, sizeof id, "b%02d", k + 1);
  b.node = node;
  b.id = id;
  // The daemon's default time control (5 minutes, as bench_daemon_latency's board).
  sim::DgtEmulatorOptions options;
  options.initial_time = std::chrono::seconds(300);
  b.emulator = std::make_unique<sim::DgtEmulator>(options);
  for (const auto& s : file.statements) {
    if (s.at && script::is_sensor(s.body)) b.timed.push_back(s);
  }
  if (!b.timed.empty() && std::holds_alternative<script::Placement>(b.timed.front().body))
    b.emulator->set_placement(std::get<script::Placement>(b.timed.front().body));
  b.link = std::make_unique<sim::PtyLink>(dir + "/" + b.node + "-" + b.id);
  if (std::holds_alternative<sim::PtyError>(b.link->open())) {
    std::fprintf(stderr, "bench_relay: cannot open a pty\n");
    return std::nullopt;
  }
  return b;
}

std::vector<std::string> daemon_argv(const Args& args, const std::string& dir,
                                     const std::vector<RelayBoard>& boards, int d,
                                     std::uint16_t broker_port, std::uint16_t http_port) {
  const std::string node = boards[static_cast<std::size_t>(d * args.boards)].node;
  const std::string nd = dir + "/" + node;
  ::mkdir(nd.c_str(), 0700);
  std::vector<std::string> a = {kBin + "/eboardd",
                                "--mqtt",
                                "127.0.0.1:" + std::to_string(broker_port),
                                "--mqtt-site",
                                "bench",
                                "--mqtt-node",
                                node,
                                "--mqtt-keepalive",
                                "5",
                                "--journal",
                                nd + "/journal",
                                "--journal-fsync",
                                args.fsync,
                                "--runtime-dir",
                                nd,
                                "--listen",
                                "unix:" + nd + "/events.sock",
                                "--http",
                                "127.0.0.1:" + std::to_string(http_port)};
  for (int k = 0; k < args.boards; ++k) {
    const RelayBoard& b = boards[static_cast<std::size_t>(d * args.boards + k)];
    a.insert(a.end(), {"--board", b.id + "=dgt:" + dir + "/" + b.node + "-" + b.id});
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  require_programs();
  std::printf("load average at start: %s", slurp("/proc/loadavg").c_str());
  const std::string dir = temp_dir("relaybench");
  ::mkdir((dir + "/broker").c_str(), 0700);
  Broker broker(dir + "/broker", free_tcp_port(), Broker::Persistence::kOff);
  if (!broker.start()) return 1;

  double longest = 0;  // the longest script's time; the broker goes away in its middle
  // Failures return from main, so that the broker's Child stops it.
  const auto scripts = make_scripts(dir, longest);
  if (!scripts) return 1;
  std::vector<RelayBoard> boards;
  for (int d = 0; d < args.daemons; ++d) {
    for (int k = 0; k < args.boards; ++k) {
      auto board = make_board(dir, d, k, (*scripts)[boards.size() % scripts->size()]);
      if (!board) return 1;
      board->start_delay =
          std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(
              args.stagger_ms * static_cast<double>(boards.size())));
      boards.push_back(std::move(*board));
    }
  }
  std::vector<std::unique_ptr<Child>> daemons;
  std::vector<std::uint16_t> http_ports;
  for (int d = 0; d < args.daemons; ++d) {
    http_ports.push_back(free_tcp_port());
    daemons.push_back(std::make_unique<Child>(
        daemon_argv(args, dir, boards, d, broker.port(), http_ports.back())));
  }
  const std::uint16_t relay_port = free_tcp_port();
  Child relay({kBin + "/eboard-relay", "--mqtt", "127.0.0.1:" + std::to_string(broker.port()),
               "--site", "bench", "--http", "127.0.0.1:" + std::to_string(relay_port)});
  if (!relay.wait_for_stderr("http: serving on", 20s)) {
    std::fprintf(stderr, "bench_relay: eboard-relay did not start: %s\n", relay.err().c_str());
    return 1;
  }
  // Children log to pipes: read them now and then so that none blocks on a full one (each
  // look waits up to 50 ms for output, so a round takes up to a second).
  const auto drain = [&] {
    const auto nothing = [](const std::string&, const std::string&) { return false; };
    for (auto& d : daemons) d->wait_for(nothing, 1ms);
    relay.wait_for(nothing, 1ms);
  };
  Subscriber timing(broker.port(), "eboard/v1/bench/+/+/events", "bench-relay-timing");

  std::atomic<bool> stop_play{false};
  std::atomic<bool> stop_watch{false};
  std::atomic<bool> played_all{false};
  std::mutex mutex;
  Arrivals arrivals;
  std::map<std::string, std::map<std::uint32_t, int>> seen;
  // The relay knows a board once its daemon published the retained state.
  poll_until(
      [&] {
        drain();
        return http_get(relay_port, "/").body.find("b" + std::to_string(args.boards)) !=
               std::string::npos;
      },
      60s);
  Arrivals at_daemon;
  std::thread daemon_watcher([&] {
    std::vector<std::string> nodes;
    for (int d = 0; d < args.daemons; ++d)
      nodes.push_back(boards[static_cast<std::size_t>(d * args.boards)].node);
    watch_daemons(nodes, dir, stop_watch, at_daemon);
  });
  double watch_cpu = 0;
  std::vector<double> watch_late_ms;
  std::thread watcher([&] {
    watch_cpu = watch(relay_port, boards, stop_watch, mutex, arrivals, seen, watch_late_ms);
  });
  const auto cpu_of = [&] {
    double sum = 0;
    for (auto& d : daemons) sum += process_cpu(d->pid()).cpu;
    return sum;
  };
  const double daemons0 = cpu_of();
  const double relay0 = process_cpu(relay.pid()).cpu;
  double broker_cpu = -process_cpu(child_named("mosquitto")).cpu;
  const auto machine0 = machine_jiffies();
  const auto started = Clock::now();
  eboard::bench::PlayStats play_stats;
  Clock::time_point played;
  // Plays until the end of the settling below: the boards keep answering their daemons.
  std::thread player(
      [&] { play_stats = eboard::bench::play(boards, args.speed, stop_play, played_all, played); });

  const auto wait_until = [&](Clock::time_point until, const std::atomic<bool>* done) {
    while (Clock::now() < until && !(done && *done)) {
      drain();
      std::this_thread::sleep_for(50ms);
    }
  };
  wait_until(started + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(longest / args.speed / 2)),
             nullptr);
  broker_cpu += process_cpu(child_named("mosquitto")).cpu;
  broker.stop();
  const auto down = Clock::now();
  wait_until(down + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(args.outage)),
             nullptr);
  broker.start();
  const auto up = Clock::now();
  // A board that never starts (its daemon did not come up) must not hold the run forever.
  wait_until(started + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(longest / args.speed + 120)),
             &played_all);
  // Read once: after played_all the player thread no longer writes `played`.
  const bool finished = played_all;
  const auto end_of_play = finished ? played : Clock::now();
  const double daemons_cpu = cpu_of() - daemons0;
  const double relay_cpu = process_cpu(relay.pid()).cpu - relay0;
  broker_cpu += process_cpu(child_named("mosquitto")).cpu;
  const auto machine1 = machine_jiffies();
  std::printf(
      "played: %.0f s%s, broker down %.1f s in the middle\n", seconds(end_of_play - started),
      finished ? "" : " (stopped: not every board finished its script)", seconds(up - down));

  // Settle: every board's PGN at the relay equal to its daemon's.
  std::size_t equal = 0;
  poll_until(
      [&] {
        drain();
        equal = 0;
        for (std::size_t i = 0; i < boards.size(); ++i) {
          const std::uint16_t port = http_ports[i / static_cast<std::size_t>(args.boards)];
          const std::string truth = http_get(port, "/boards/" + boards[i].id + ".pgn").body;
          const std::string got = http_get(relay_port, "/boards/" + boards[i].key() + ".pgn").body;
          equal += !truth.empty() && without_game_id(truth) == without_game_id(got);
        }
        return equal == boards.size();
      },
      60s);
  const auto relay_end = process_cpu(relay.pid());
  stop_play = true;
  player.join();
  stop_watch = true;
  watcher.join();
  daemon_watcher.join();
  const Arrivals at_broker = broker_arrivals(timing);

  std::vector<double> steady, during, to_broker, broker_to_relay, to_ask, ask_to_broker,
      ask_to_daemon, daemon_to_broker;
  std::size_t presses = 0, matched = 0, repeats = 0;
  std::vector<std::string> missing;
  FILE* samples = args.samples.empty() ? nullptr : std::fopen(args.samples.c_str(), "w");
  if (samples)
    std::fprintf(samples, "# broker down at %.4f s, up at %.4f s\n", seconds(down - started),
                 seconds(up - started));
  for (const RelayBoard& b : boards) {
    presses += b.presses.size();
    for (const auto& [seq, n] : seen[b.key()]) repeats += static_cast<std::size_t>(n - 1);
    const auto& relayed = arrivals[b.key()];
    const auto broker_it = at_broker.find(b.key());
    for (std::size_t p = 0; p < b.presses.size(); ++p) {
      const auto ply = static_cast<std::uint32_t>(p + 1);
      const auto found = relayed.find(ply);
      if (found == relayed.end()) {
        missing.push_back(b.key() + " press " + std::to_string(ply) + " of " +
                          std::to_string(b.presses.size()));
        continue;
      }
      ++matched;
      const double ms = seconds(found->second - b.presses[p]) * 1000;
      if (samples) {
        const auto rel = [&](std::optional<Clock::time_point> t) {
          return t ? seconds(*t - started) : -1.0;
        };
        const auto d = at_daemon.find(b.key());
        std::fprintf(
            samples, "%s %u %.4f %.4f %.4f %.4f %.4f\n", b.key().c_str(), ply, rel(b.presses[p]),
            rel(p < b.asked.size() && b.asked[p] != Clock::time_point{} ? std::optional(b.asked[p])
                                                                        : std::nullopt),
            rel(d != at_daemon.end() && d->second.contains(ply) ? std::optional(d->second.at(ply))
                                                                : std::nullopt),
            rel(broker_it != at_broker.end() && broker_it->second.contains(ply)
                    ? std::optional(broker_it->second.at(ply))
                    : std::nullopt),
            rel(found->second));
      }
      const bool affected = b.presses[p] >= down - 1s && b.presses[p] <= up + 2s;
      (affected ? during : steady).push_back(ms);
      if (affected || broker_it == at_broker.end()) continue;
      const auto via = broker_it->second.find(ply);
      if (via == broker_it->second.end()) continue;
      to_broker.push_back(seconds(via->second - b.presses[p]) * 1000);
      if (p < b.asked.size() && b.asked[p] != Clock::time_point{}) {
        to_ask.push_back(seconds(b.asked[p] - b.presses[p]) * 1000);
        ask_to_broker.push_back(seconds(via->second - b.asked[p]) * 1000);
        const auto d = at_daemon.find(b.key());
        if (d != at_daemon.end() && d->second.contains(ply)) {
          ask_to_daemon.push_back(seconds(d->second.at(ply) - b.asked[p]) * 1000);
          daemon_to_broker.push_back(seconds(via->second - d->second.at(ply)) * 1000);
        }
      }
      broker_to_relay.push_back(seconds(found->second - via->second) * 1000);
    }
  }
  const double wall = seconds(end_of_play - started);
  const auto share = [&](double cpu) { return 100 * cpu / wall; };
  std::printf("boards: %zu on %d daemons; presses %zu, moves seen at the relay %zu\n",
              boards.size(), args.daemons, presses, matched);
  std::printf("latency press -> relay (outside the outage): %s\n", percentiles(steady).c_str());
  std::printf("  of which press -> broker subscriber: %s\n", percentiles(to_broker).c_str());
  std::printf("    press -> the daemon asks the clock (DGT_SEND_CLK): %s\n",
              percentiles(to_ask).c_str());
  std::printf("    that ask -> broker subscriber: %s\n", percentiles(ask_to_broker).c_str());
  std::printf("      ask -> daemon's stream socket: %s\n", percentiles(ask_to_daemon).c_str());
  std::printf("      daemon's stream socket -> broker subscriber: %s\n",
              percentiles(daemon_to_broker).c_str());
  std::printf("  and broker subscriber -> relay client: %s\n",
              percentiles(broker_to_relay).c_str());
  std::printf(
      "this process: emulator pass outside poll: %s; WebSocket thread's 10 ms timer late: %s\n",
      percentiles(play_stats.pass_work_ms).c_str(), percentiles(watch_late_ms).c_str());
  std::printf("latency of presses within the outage (waiting for the broker): %s\n",
              percentiles(during).c_str());
  std::printf(
      "after the broker restart: %zu of %zu boards' PGN equal to the daemon's; %zu moves "
      "missing at the relay; %zu events repeated to the relay's clients\n",
      equal, boards.size(), missing.size(), repeats);
  for (std::size_t i = 0; i < missing.size() && i < 10; ++i)
    std::printf("  missing: %s\n", missing[i].c_str());
  std::printf(
      "CPU while playing (%.0f s, %% of one core): daemons %.1f%%, broker %.1f%%, relay %.1f%%, "
      "emulators %.1f%% (%llu passes), relay clients %.1f%%; machine busy %.0f%% of %ld cores\n",
      wall, share(daemons_cpu), share(broker_cpu), share(relay_cpu), share(play_stats.cpu_seconds),
      static_cast<unsigned long long>(play_stats.passes), share(watch_cpu),
      100 * (machine1.first - machine0.first) / (machine1.second - machine0.second),
      ::sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("relay: %.1f s CPU over %.0f s (%.1f%% of one core), peak RSS %.1f MiB\n",
              relay_end.cpu - relay0, seconds(Clock::now() - started),
              100 * (relay_end.cpu - relay0) / seconds(Clock::now() - started),
              static_cast<double>(relay_end.peak_kib) / 1024);
  std::printf("load average at the end: %s", slurp("/proc/loadavg").c_str());
  const std::string page = http_get(relay_port, "/").body;
  std::smatch m;
  if (std::regex_search(page, m, std::regex("fan-in: [^<]*"))) std::printf("%s\n", m.str().c_str());
  if (samples) std::fclose(samples);
  const bool whole =
      presses > 0 && finished && equal == boards.size() && missing.empty() && repeats == 0;
  return whole ? 0 : 1;
}
