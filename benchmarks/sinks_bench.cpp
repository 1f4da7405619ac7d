// Broadcast sinks' figures (BENCHMARKS.md): latency from the hub publishing an
// event to (a) an MQTT subscriber through a local mosquitto broker and (b) a WebSocket
// client of /ws, p50/p99 over many events; and publish throughput with 64 boards until
// the broker acknowledged every event. Real broker process, real sockets; the sinks run
// on one Asio loop thread exactly as in eboardd, the clients on their own threads.
//
//   bench_sinks [EVENTS]   (default 2000 latency samples)
#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <iostream>
#include <thread>

#include "daemon/core/event_hub.h"
#include "daemon/sinks/http_server.h"
#include "daemon/sinks/mqtt_publisher.h"
#include "daemon/sinks/sinks.h"
#include "eboard/v1/json.h"
#include "tests/daemon/sinks/broadcast_helpers.h"

namespace {

using namespace eboard::daemon;
using namespace eboard::daemon::broadcast_test;
using Clock = std::chrono::steady_clock;
namespace v1 = eboard::v1;

struct Samples {
  std::mutex mutex;
  std::map<std::uint32_t, Clock::time_point> received;
};

void report(const char* what, const std::map<std::uint32_t, Clock::time_point>& sent,
            Samples& got) {
  std::vector<double> us;
  std::lock_guard lock(got.mutex);
  for (const auto& [seq, at] : sent) {
    auto it = got.received.find(seq);
    if (it != got.received.end())
      us.push_back(std::chrono::duration<double, std::micro>(it->second - at).count());
  }
  std::sort(us.begin(), us.end());
  if (us.empty()) {
    std::cout << what << ": nothing received\n";
    return;
  }
  std::cout << what << ": " << us.size() << "/" << sent.size() << " events, p50 "
            << us[us.size() / 2] / 1000 << " ms, p99 " << us[us.size() * 99 / 100] / 1000
            << " ms, max " << us.back() / 1000 << " ms\n";
}

v1::Event clock_event(int i) {
  v1::Event e;
  e.set_visibility(v1::VISIBILITY_PUBLIC);
  e.set_at_ms(i);
  e.mutable_clock()->set_white_ms(180000 - i);
  e.mutable_clock()->set_black_ms(180000);
  e.mutable_clock()->set_running(v1::SIDE_WHITE);
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 2000;
  const std::string dir = temp_dir("bench");
  Broker broker(dir, free_tcp_port());
  if (!broker.start()) return 1;

  std::vector<std::string> ids;
  for (int b = 0; b < 64; ++b) ids.push_back("b" + std::to_string(b));
  eboard::daemon::Logger log(std::cerr, "sinks-bench");
  EventHub hub(ids, log);
  boost::asio::io_context io(1);
  SinkConfig config;
  config.mqtt = MqttOptions{};
  config.mqtt->port = broker.port();
  config.mqtt->site = "bench";
  config.mqtt->node = "n";
  config.http = HttpOptions{"127.0.0.1", free_tcp_port()};
  auto sinks = install_sinks(io, hub, config, "", {}, {}, [](const std::string&) {});
  if (!sinks) {
    std::cerr << sinks.error() << "\n";
    return 1;
  }

  Samples mqtt_got;
  Subscriber sub(broker.port(), "eboard/v1/bench/n/b0/events", "bench-sub");
  std::atomic<bool> done{false};

  Samples ws_got;
  std::thread ws_thread([&] {
    boost::asio::io_context client;
    boost::beast::websocket::stream<boost::asio::ip::tcp::socket> ws(client);
    ws.next_layer().connect({boost::asio::ip::make_address("127.0.0.1"), config.http->port});
    ws.handshake("127.0.0.1", "/ws?board=b0");
    boost::beast::error_code error;
    while (!done) {
      boost::beast::flat_buffer buffer;
      ws.read(buffer, error);
      if (error) break;
      const auto now = Clock::now();
      auto frame = eboard::proto::frame_from_json(boost::beast::buffers_to_string(buffer.data()));
      if (frame.ok() && frame->has_event()) {
        std::lock_guard lock(ws_got.mutex);
        ws_got.received.emplace(frame->event().seq(), now);
      }
    }
  });

  // Latency: one event every 2 ms on board b0, once the publisher is connected.
  std::map<std::uint32_t, Clock::time_point> sent;
  boost::asio::steady_timer timer(io);
  int i = 0;
  std::function<void()> tick = [&] {
    timer.expires_after(std::chrono::milliseconds(2));
    timer.async_wait([&](const boost::system::error_code&) {
      if (!(*sinks)->mqtt()->connected() || (*sinks)->http()->websocket_clients() == 0)
        return tick();
      const auto at = Clock::now();
      sent[hub.publish(0, clock_event(i))] = at;
      if (++i < samples)
        tick();
      else
        io.stop();
    });
  };
  tick();
  io.run();
  io.restart();
  io.run_for(std::chrono::milliseconds(500));
  for (const auto& m : sub.messages()) {
    v1::Event e;
    if (e.ParseFromString(m.payload)) mqtt_got.received.emplace(e.seq(), m.at);
  }
  report("hub -> MQTT subscriber (QoS 1, local mosquitto)", sent, mqtt_got);
  report("hub -> WebSocket client (JSON)", sent, ws_got);

  // Throughput: 64 boards x N events as fast as the loop takes them, until every one is
  // acknowledged by the broker (PUBACK).
  const int per_board = 300;
  const auto start = Clock::now();
  int published = 0;
  std::function<void()> burst = [&] {
    boost::asio::post(io, [&] {
      for (std::size_t b = 0; b < 64; ++b) hub.publish(b, clock_event(published));
      if (++published < per_board) burst();
    });
  };
  burst();
  boost::asio::steady_timer check(io);
  std::function<void()> wait_acked = [&] {
    check.expires_after(std::chrono::milliseconds(1));
    check.async_wait([&](const boost::system::error_code&) {
      bool all = published == per_board;
      for (std::size_t b = 0; all && b < 64; ++b)
        all = (*sinks)->mqtt()->acked_seq(b) == hub.last_seq(b);
      if (all)
        io.stop();
      else
        wait_acked();
    });
  };
  wait_acked();
  io.restart();
  io.run();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << "64 boards x " << per_board
            << " events published and acknowledged: " << 64 * per_board / seconds << " events/s ("
            << seconds << " s)\n";
  done = true;
  (*sinks)->shutdown();
  io.restart();
  io.run_for(std::chrono::milliseconds(200));
  ws_thread.join();
  broker.stop();
  return 0;
}
