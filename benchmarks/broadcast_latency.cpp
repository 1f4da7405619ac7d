// Broadcast latency end to end (BENCHMARKS.md): from a field update
// on the emulated board to the event's arrival at (a) an MQTT subscriber through a local
// mosquitto broker and (b) a WebSocket client of the daemon's /ws, in one run:
//
//   emulator (this process, on a pty) -> eboardd (DGT driver, tracker, journal, hub)
//     -> MQTT publisher -> mosquitto -> subscriber (libmosquitto thread, this process)
//     -> HTTP/WebSocket sink -> WebSocket client (own thread, this process)
//
// For every clock press the sample runs from the press's bytes being written to the pty
// to the arrival of that press's moveCompleted (matched by seq) at each client; a Unix
// socket consumer tells which seq each press produced.
//
//   bench_broadcast_latency [--pace-ms N] [--fsync always|interval|never]
#include <sys/socket.h>
#include <sys/un.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "benchmarks/demo_on_pty.h"
#include "eboard/v1/json.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace {

using namespace eboard::daemon::broadcast_test;
using eboard::bench::Clock;
namespace v1 = eboard::v1;

int connect_unix(const std::string& path) {
  int fd = -1;
  poll_until(
      [&] {
        fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un sa{};
        sa.sun_family = AF_UNIX;
        std::snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path.c_str());
        if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0) return true;
        ::close(fd);
        fd = -1;
        return false;
      },
      10s);
  return fd;
}

// Reads /ws?board=b1 until `done`, noting when each event (by seq) arrived.
void read_websocket(std::uint16_t port, std::atomic<bool>& done, std::mutex& mutex,
                    std::map<std::uint32_t, Clock::time_point>& arrived) {
  boost::asio::io_context io;
  boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws(io);
  boost::beast::error_code error;
  const bool up = poll_until(
      [&] {
        ws.next_layer().close(error);
        ws.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), port}, error);
        return !error;
      },
      10s);
  if (!up) return;
  ws.handshake("127.0.0.1", "/ws?board=b1", error);
  while (!error && !done) {
    boost::beast::flat_buffer buffer;
    ws.read(buffer, error);
    if (error) break;
    const auto now = Clock::now();
    const auto frame =
        eboard::proto::frame_from_json(boost::beast::buffers_to_string(buffer.data()));
    if (frame.ok() && frame->has_event()) {
      std::lock_guard lock(mutex);
      arrived.emplace(frame->event().seq(), now);
    }
  }
}

void report(const char* path, const std::vector<eboard::bench::PressSample>& presses,
            const std::map<std::uint32_t, Clock::time_point>& arrived) {
  std::vector<double> us;
  for (const auto& p : presses) {
    const auto it = arrived.find(p.seq);
    if (it != arrived.end())
      us.push_back(std::chrono::duration<double, std::micro>(it->second - p.written).count());
  }
  using eboard::bench::percentile;
  std::printf("%s: %zu/%zu presses, p50 %.0f us, p99 %.0f us, max %.0f us\n", path, us.size(),
              presses.size(), percentile(us, 0.5), percentile(us, 0.99), percentile(us, 1.0));
}

}  // namespace

int main(int argc, char** argv) {
  int pace_ms = 0;
  std::string fsync = "always";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string name = argv[i];
    if (name == "--pace-ms")
      pace_ms = std::atoi(argv[i + 1]);
    else if (name == "--fsync")
      fsync = argv[i + 1];
  }
  const std::string dir = temp_dir("broadcast-bench");
  Broker broker(dir, free_tcp_port());
  if (!broker.start()) return 1;
  eboard::sim::PtyLink link(dir + "/board.pty");
  if (std::holds_alternative<eboard::sim::PtyError>(link.open())) return 1;
  eboard::sim::DgtEmulator board = eboard::bench::demo_board();
  const std::uint16_t http_port = free_tcp_port();
  Child daemon({kBin + "/eboardd", "--board", "b1=dgt:" + dir + "/board.pty", "--listen",
                "unix:" + dir + "/s.sock", "--journal", dir + "/journal", "--journal-fsync", fsync,
                "--runtime-dir", dir, "--mqtt", "127.0.0.1:" + std::to_string(broker.port()),
                "--mqtt-site", "bench", "--mqtt-node", "n", "--http",
                "127.0.0.1:" + std::to_string(http_port)});
  Subscriber subscriber(broker.port(), "eboard/v1/bench/n/b1/events", "latency-sub");
  std::atomic<bool> done{false};
  std::mutex ws_mutex;
  std::map<std::uint32_t, Clock::time_point> ws_arrived;
  std::thread ws_thread([&] { read_websocket(http_port, done, ws_mutex, ws_arrived); });
  const int consumer = connect_unix(dir + "/s.sock");
  if (consumer < 0) return 1;

  const auto presses = eboard::bench::play_demo_on_pty(link, board, consumer, pace_ms);
  poll_until([&] { return subscriber.events("b1").size() >= presses.size(); }, 2s);
  std::map<std::uint32_t, Clock::time_point> mqtt_arrived;
  for (const auto& m : subscriber.messages()) {
    v1::Event e;
    if (e.ParseFromString(m.payload)) mqtt_arrived.emplace(e.seq(), m.at);
  }
  std::printf("broadcast latency: pace %d ms, fsync %s\n", pace_ms, fsync.c_str());
  report("field update -> MQTT subscriber (QoS 1, local mosquitto)", presses, mqtt_arrived);
  {
    std::lock_guard lock(ws_mutex);
    report("field update -> WebSocket client (JSON)", presses, ws_arrived);
  }
  done = true;
  daemon.kill(SIGTERM);
  daemon.wait(10s);
  ws_thread.join();
  broker.stop();
  return presses.empty() ? 1 : 0;
}
