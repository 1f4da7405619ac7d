// The broadcast sinks of one daemon (docs/design.md data flow): the live PGN shared
// by everyone, the MQTT publisher, the HTTP/WebSocket server and the DGT 3000 display
// messages, installed on the event hub as one EventListener. daemon.cpp calls
// install_sinks() after the hub exists and shutdown() when the loop stops.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <string>

#include "daemon/core/event_source.h"
#include "daemon/core/sink_config.h"
#include "daemon/sinks/console_http.h"
#include "drivers/sensor_event.h"
#include "util/result.h"

namespace eboard::daemon {

class BroadcastBoards;
class ClockDisplay;
class ConsoleHttp;
class HttpServer;
class MqttPublisher;

// What the arbiter console may do (console_http.h): the control token ("" = read-only),
// the command path of the stream sockets and their status query.
struct ConsoleControl {
  std::string token;
  ConsoleCommands commands;
  ConsoleStatus status;
};

// Sends a clock command to a board's clock (its driver's command queue); false when the
// board has no clock right now.
using ClockSender = std::function<bool(std::size_t board, const drivers::ClockCommand& command)>;

class Sinks final : public EventListener {
 public:
  using Log = std::function<void(const std::string&)>;

  Sinks(boost::asio::io_context& io, EventSource& hub, const SinkConfig& config,
        const std::string& journal_dir, ClockSender clock, ConsoleControl control, Log log);
  ~Sinks() override;

  std::optional<Error> start();
  void on_event(std::size_t board, const eboard::v1::Event& event,
                const SharedBytes& frame) override;
  // Says "offline" on MQTT and closes the web clients; let the loop run briefly after.
  void shutdown();

  const BroadcastBoards& boards() const { return *boards_; }
  MqttPublisher* mqtt() { return mqtt_.get(); }
  HttpServer* http() { return http_.get(); }

 private:
  EventSource& hub_;
  SinkConfig config_;
  Log log_;
  std::unique_ptr<BroadcastBoards> boards_;
  std::unique_ptr<MqttPublisher> mqtt_;
  std::unique_ptr<ConsoleHttp> console_;
  std::unique_ptr<HttpServer> http_;
  std::unique_ptr<ClockDisplay> display_;
};

// The daemon's one call: nothing (nullptr) when no sink is configured, else started
// sinks listening on the hub; an error (bind failure) is one line for the log.
Result<std::unique_ptr<Sinks>> install_sinks(boost::asio::io_context& io, EventSource& hub,
                                             const SinkConfig& config,
                                             const std::string& journal_dir, ClockSender clock,
                                             ConsoleControl control, Sinks::Log log);

}  // namespace eboard::daemon
