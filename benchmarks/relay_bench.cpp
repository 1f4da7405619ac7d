// A whole event on one machine (BENCHMARKS.md "The event relay"): one mosquitto broker
// without persistence, D eboardd with B emulated DGT boards each (default 20 x 10 = 200),
// every board playing a real game of the shared corpus, and eboard-relay:
//
//   emulators (this process, one pty each) -> eboardd (DGT driver, tracker, journal, MQTT
//   publisher) -> mosquitto -> eboard-relay (fan-in, live PGN) -> WebSocket (this process)
//
// Latency: for every clock press, from its bytes being written to the pty to the arrival
// of that ply's moveCompleted on the relay's WebSocket for the board (the relay hands an
// event to its WebSocket clients as it applies it; clean scripts: press n completes ply
// n). The broker is stopped in the middle for --outage seconds and started again empty:
// presses in that window wait for it and are reported apart. At the end each board's
// PGN at the relay is compared with its daemon's own (/boards/ID.pgn): what differs is
// lost; an event seen twice on a WebSocket is repeated. The relay's CPU time and peak
// memory come from /proc.
//
//   bench_relay [--daemons D] [--boards B] [--speed X] [--outage S] [--fsync F]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include "eboard/v1/json.h"
#include "simulators/dgt/dgt_emulator.h"
#include "simulators/dgt/pty_link.h"
#include "simulators/script/script_reader.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace {

using namespace eboard::daemon::broadcast_test;
using Clock = std::chrono::steady_clock;
namespace v1 = eboard::v1;
namespace script = eboard::script;
namespace sim = eboard::sim;

struct Args {
  int daemons = 20;
  int boards = 10;
  double speed = 2.0;
  double outage = 3.0;
  std::string fsync = "after-publish";
};

// One emulated board: its pty, its script's sensor statements, and when each press went out.
struct Board {
  std::string id;    // "nNN-bMM"
  std::string node;  // "nNN"
  std::unique_ptr<sim::PtyLink> link;
  std::unique_ptr<sim::DgtEmulator> emulator;
  std::vector<script::Statement> timed;
  std::size_t next = 0;
  std::optional<Clock::time_point> start;
  std::vector<Clock::time_point> presses;  // press n-1 completes ply n
  std::string pending;                     // bytes not yet taken by the pty
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Plays every board's script on its pty until all are done (or `stop`), answering the
// daemons' commands; the one thread owning every master fd.
void play(std::vector<Board>& boards, double speed, std::atomic<bool>& stop) {
  std::vector<pollfd> fds(boards.size());
  for (;;) {
    const auto now = Clock::now();
    bool all_done = true;
    for (Board& b : boards) {
      if (!b.start && b.emulator->host_has_board()) b.start = now;
      if (!b.start) {
        all_done = false;
        continue;
      }
      const auto script_now = std::chrono::duration_cast<script::Millis>((now - *b.start) * speed);
      while (b.next < b.timed.size() && *b.timed[b.next].at <= script_now) {
        const script::Statement& s = b.timed[b.next++];
        const auto bytes = b.emulator->apply(s);
        b.pending.append(bytes.begin(), bytes.end());
        if (std::holds_alternative<script::Lever>(s.body)) b.presses.push_back(Clock::now());
      }
      const auto tick = b.emulator->advance_clock(script_now);
      b.pending.append(tick.begin(), tick.end());
      if (b.next < b.timed.size()) all_done = false;
    }
    if (all_done || stop) return;
    for (std::size_t i = 0; i < boards.size(); ++i) {
      fds[i] = {boards[i].link->master_fd(),
                static_cast<short>(POLLIN | (boards[i].pending.empty() ? 0 : POLLOUT)), 0};
    }
    ::poll(fds.data(), fds.size(), 5);
    for (std::size_t i = 0; i < boards.size(); ++i) {
      Board& b = boards[i];
      if (fds[i].revents & POLLIN) {
        std::uint8_t buffer[512];
        const ssize_t n = ::read(b.link->master_fd(), buffer, sizeof buffer);
        if (n > 0) {
          const auto reply =
              b.emulator->on_host_bytes(std::span(buffer, static_cast<std::size_t>(n)));
          b.pending.append(reply.begin(), reply.end());
        }
      }
      if (!b.pending.empty()) {
        const ssize_t n = ::write(b.link->master_fd(), b.pending.data(), b.pending.size());
        if (n > 0) b.pending.erase(0, static_cast<std::size_t>(n));
      }
    }
  }
}

struct Arrival {
  Clock::time_point at;
  std::uint32_t ply;
  std::uint32_t seq;
};

// One WebSocket client per board on the relay, in one thread; records moveCompleted
// arrivals and every seq seen.
void watch(std::uint16_t port, const std::vector<Board>& boards, std::atomic<bool>& stop,
           std::mutex& mutex, std::map<std::string, std::vector<Arrival>>& arrivals,
           std::map<std::string, std::map<std::uint32_t, int>>& seen) {
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
        if (frame->event().has_move_completed()) {
          arrivals[cp->key].push_back(
              {at, frame->event().move_completed().ply(), frame->event().seq()});
        }
      }
      read(*cp);
    });
  };
  for (const Board& b : boards) {
    auto c = std::make_unique<Client>();
    c->key = b.node + "/" + b.id;
    c->ws = std::make_unique<beast::websocket::stream<asio::ip::tcp::socket>>(io);
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
  while (!stop) io.run_for(50ms);
}

// utime + stime of a process, in seconds; its peak resident memory in KiB.
std::pair<double, long> cpu_and_peak(pid_t pid) {
  std::istringstream stat(slurp("/proc/" + std::to_string(pid) + "/stat"));
  std::string field;
  double ticks = 0;
  for (int i = 1; stat >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  long peak = 0;
  std::istringstream status(slurp("/proc/" + std::to_string(pid) + "/status"));
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmHWM:")) peak = std::stol(line.substr(6));
  }
  return {ticks / static_cast<double>(::sysconf(_SC_CLK_TCK)), peak};
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

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const std::string v = argv[i + 1];
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
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  std::printf("load average at start: %s", slurp("/proc/loadavg").c_str());
  const std::string dir = temp_dir("relaybench");
  ::mkdir((dir + "/broker").c_str(), 0700);
  Broker broker(dir + "/broker", free_tcp_port(), Broker::Persistence::kOff);
  if (!broker.start()) return 1;

  // Scripts: the corpus' games 1..20, clean, reused round-robin.
  std::vector<std::string> scripts;
  for (int g = 1; g <= 20; ++g) scripts.push_back(make_script(dir, "g" + std::to_string(g), g));
  std::vector<Board> boards;
  for (int d = 0; d < args.daemons; ++d) {
    for (int k = 0; k < args.boards; ++k) {
      Board b;
      char node[16], id[16];
      std::snprintf(node, sizeof node, "n%02d", d + 1);
      std::snprintf(id, sizeof id, "b%02d", k + 1);
      b.node = node;
      b.id = id;
      const std::string path = scripts[boards.size() % scripts.size()];
      const script::ScriptFile file = script::read_script_file(path);
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
      if (std::holds_alternative<sim::PtyError>(b.link->open())) return 1;
      boards.push_back(std::move(b));
    }
  }
  std::vector<std::unique_ptr<Child>> daemons;
  std::vector<std::uint16_t> http_ports;
  for (int d = 0; d < args.daemons; ++d) {
    const std::string node = boards[static_cast<std::size_t>(d * args.boards)].node;
    const std::string nd = dir + "/" + node;
    ::mkdir(nd.c_str(), 0700);
    http_ports.push_back(free_tcp_port());
    std::vector<std::string> a = {kBin + "/eboardd",
                                  "--mqtt",
                                  "127.0.0.1:" + std::to_string(broker.port()),
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
                                  "127.0.0.1:" + std::to_string(http_ports.back())};
    for (int k = 0; k < args.boards; ++k) {
      const Board& b = boards[static_cast<std::size_t>(d * args.boards + k)];
      a.insert(a.end(), {"--board", b.id + "=dgt:" + dir + "/" + b.node + "-" + b.id});
    }
    daemons.push_back(std::make_unique<Child>(a));
  }
  const std::uint16_t relay_port = free_tcp_port();
  Child relay({kBin + "/eboard-relay", "--mqtt", "127.0.0.1:" + std::to_string(broker.port()),
               "--site", "bench", "--http", "127.0.0.1:" + std::to_string(relay_port)});
  if (!relay.wait_for_stderr("http: serving on", 20s)) return 1;
  const auto [cpu0, peak0] = cpu_and_peak(relay.pid());
  (void)peak0;

  std::atomic<bool> stop_play{false};
  std::atomic<bool> stop_watch{false};
  std::mutex mutex;
  std::map<std::string, std::vector<Arrival>> arrivals;
  std::map<std::string, std::map<std::uint32_t, int>> seen;
  // The relay knows a board once its daemon published the retained state.
  poll_until(
      [&] {
        return http_get(relay_port, "/").body.find("b" + std::to_string(args.boards)) !=
               std::string::npos;
      },
      60s);
  std::thread watcher([&] { watch(relay_port, boards, stop_watch, mutex, arrivals, seen); });
  const auto started = Clock::now();
  std::thread player([&] { play(boards, args.speed, stop_play); });

  // The longest script's wall time; the broker goes away in its middle.
  double longest = 0;
  for (const auto& s : scripts) longest = std::max(longest, script_seconds(s));
  const auto middle = started + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(longest / args.speed / 2));
  while (Clock::now() < middle) {
    for (auto& d : daemons)
      d->wait_for([](const std::string&, const std::string&) { return false; }, 1ms);
    relay.wait_for([](const std::string&, const std::string&) { return false; }, 1ms);
    std::this_thread::sleep_for(200ms);
  }
  broker.stop();
  const auto down = Clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(args.outage));
  broker.start();
  const auto up = Clock::now();
  player.join();
  const auto played = Clock::now();
  std::printf("played: %.0f s, broker down %.1f s in the middle\n", seconds(played - started),
              seconds(up - down));

  // Settle: every board's PGN at the relay equal to its daemon's.
  std::size_t equal = 0;
  std::size_t lost_moves = 0;
  poll_until(
      [&] {
        for (auto& d : daemons)
          d->wait_for([](const std::string&, const std::string&) { return false; }, 1ms);
        relay.wait_for([](const std::string&, const std::string&) { return false; }, 1ms);
        equal = 0;
        for (std::size_t i = 0; i < boards.size(); ++i) {
          const std::uint16_t port = http_ports[i / static_cast<std::size_t>(args.boards)];
          const std::string truth = http_get(port, "/boards/" + boards[i].id + ".pgn").body;
          const std::string got =
              http_get(relay_port, "/boards/" + boards[i].node + "/" + boards[i].id + ".pgn").body;
          equal += !truth.empty() && without_game_id(truth) == without_game_id(got);
        }
        return equal == boards.size();
      },
      60s);
  const auto [cpu1, peak1] = cpu_and_peak(relay.pid());
  stop_watch = true;
  watcher.join();

  std::vector<double> steady, during;
  std::size_t presses = 0, matched = 0, repeats = 0;
  for (const Board& b : boards) {
    const std::string key = b.node + "/" + b.id;
    presses += b.presses.size();
    std::map<std::uint32_t, Clock::time_point> first;
    for (const Arrival& a : arrivals[key]) first.try_emplace(a.ply, a.at);
    for (const auto& [seq, n] : seen[key]) repeats += static_cast<std::size_t>(n - 1);
    for (std::size_t p = 0; p < b.presses.size(); ++p) {
      const auto found = first.find(static_cast<std::uint32_t>(p + 1));
      if (found == first.end()) continue;
      ++matched;
      const double ms = seconds(found->second - b.presses[p]) * 1000;
      const bool affected = b.presses[p] >= down - 1s && b.presses[p] <= up + 2s;
      (affected ? during : steady).push_back(ms);
    }
  }
  for (std::size_t i = 0; i < boards.size(); ++i) {
    const std::string got =
        http_get(relay_port, "/boards/" + boards[i].node + "/" + boards[i].id + ".pgn").body;
    std::size_t n = 0;
    for (auto p = got.find("[%clk"); p != std::string::npos; p = got.find("[%clk", p + 1)) ++n;
    if (n < boards[i].presses.size()) lost_moves += boards[i].presses.size() - n;
  }
  std::printf("boards: %zu on %d daemons; presses %zu, moves seen at the relay %zu\n",
              boards.size(), args.daemons, presses, matched);
  std::printf("latency press -> relay (outside the outage): %s\n", percentiles(steady).c_str());
  std::printf("latency of presses within the outage (waiting for the broker): %s\n",
              percentiles(during).c_str());
  std::printf(
      "after the broker restart: %zu of %zu boards' PGN equal to the daemon's; %zu moves "
      "missing at the relay; %zu events repeated to the relay's clients\n",
      equal, boards.size(), lost_moves, repeats);
  std::printf("relay: %.1f s CPU over %.0f s (%.1f%% of one core), peak RSS %.1f MiB\n",
              cpu1 - cpu0, seconds(Clock::now() - started),
              100 * (cpu1 - cpu0) / seconds(Clock::now() - started),
              static_cast<double>(peak1) / 1024);
  std::printf("load average at the end: %s", slurp("/proc/loadavg").c_str());
  const std::string page = http_get(relay_port, "/").body;
  std::smatch m;
  if (std::regex_search(page, m, std::regex("fan-in: [^<]*"))) std::printf("%s\n", m.str().c_str());
  return equal == boards.size() ? 0 : 1;
}
