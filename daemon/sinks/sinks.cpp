#include "daemon/sinks/sinks.h"

#include <algorithm>

#include "daemon/core/tls_context.h"
#include "daemon/sinks/broadcast_boards.h"
#include "daemon/sinks/clock_display.h"
#include "daemon/sinks/http_server.h"
#include "daemon/sinks/mqtt_publisher.h"

namespace eboard::daemon {

namespace {

std::vector<std::string> board_ids(const EventSource& hub) {
  std::vector<std::string> ids;
  for (std::size_t b = 0; b < hub.board_count(); ++b) ids.push_back(hub.board_id(b));
  return ids;
}

}  // namespace

Sinks::Sinks(boost::asio::io_context& io, EventSource& hub, const SinkConfig& config,
             const std::string& journal_dir, ClockSender clock, ConsoleControl control, Log log)
    : hub_(hub),
      config_(config),
      log_(std::move(log)),
      boards_(std::make_unique<BroadcastBoards>(board_ids(hub))) {
  if (config_.mqtt) {
    MqttOptions options = *config_.mqtt;
    if (options.state_file.empty() && !journal_dir.empty()) {
      options.state_file = journal_dir + "/mqtt-acked";
    }
    mqtt_ = std::make_unique<MqttPublisher>(
        io, hub, options,
        [this](std::size_t b) { return std::make_pair(boards_->version(b), &boards_->pgn(b)); },
        log_);
  }
  if (config_.http || config_.https) {
    console_ = std::make_unique<ConsoleHttp>(
        io.get_executor(), hub, std::move(control.token), config_.console_session,
        std::move(control.commands), std::move(control.status),
        [] { return std::chrono::steady_clock::now(); }, log_);
    http_ = std::make_unique<HttpServer>(io, hub, *boards_, config_.ws_queue_bytes, console_.get(),
                                         log_);
  }
  if (!config_.clock_display.empty() && clock) {
    std::vector<bool> enabled(hub.board_count());
    for (std::size_t b = 0; b < hub.board_count(); ++b) {
      const auto& list = config_.clock_display;
      enabled[b] = std::find(list.begin(), list.end(), "all") != list.end() ||
                   std::find(list.begin(), list.end(), hub.board_id(b)) != list.end();
    }
    display_ = std::make_unique<ClockDisplay>(io, std::move(enabled), std::move(clock));
  }
}

Sinks::~Sinks() { hub_.remove_listener(this); }

std::optional<Error> Sinks::start() {
  // The journal already holds the boards' past: fold it so /live.pgn and the retained
  // PGN are complete after a restart.
  for (std::size_t b = 0; b < hub_.board_count(); ++b) {
    for (const auto& bytes : hub_.replay(b, 1)) {
      eboard::v1::Event event;
      if (event.ParseFromString(bytes)) boards_->apply(b, event);
    }
  }
  std::size_t listener = 0;
  if (config_.http) {
    if (auto error = http_->listen(config_.http->host, config_.http->port)) return error;
    log_("http: serving on " + config_.http->host + ":" + std::to_string(http_->port(listener++)));
  }
  if (config_.https) {
    auto tls = make_server_tls(config_.tls);
    if (!tls) return Error{tls.error()};
    if (auto error = http_->listen(config_.https->host, config_.https->port, tls.value())) {
      return error;
    }
    log_("https: serving on " + config_.https->host + ":" + std::to_string(http_->port(listener)));
  }
  if (mqtt_) mqtt_->start();
  return std::nullopt;
}

void Sinks::on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes& frame) {
  boards_->apply(board, event);
  if (mqtt_) mqtt_->on_event(board, event, frame);
  if (http_) http_->on_event(board, event, frame);
  if (display_) display_->on_event(board, event);
}

void Sinks::shutdown() {
  if (mqtt_) mqtt_->shutdown();
  if (http_) http_->shutdown();
}

Result<std::unique_ptr<Sinks>> install_sinks(boost::asio::io_context& io, EventSource& hub,
                                             const SinkConfig& config,
                                             const std::string& journal_dir, ClockSender clock,
                                             ConsoleControl control, Sinks::Log log) {
  if (!config.mqtt && !config.http && !config.https && config.clock_display.empty()) {
    return std::unique_ptr<Sinks>();
  }
  for (const auto& name : config.clock_display) {
    if (name != "all" && !hub.find_board(name)) {
      return Error{"--clock-display: no board '" + name + "'"};
    }
  }
  auto sinks = std::make_unique<Sinks>(io, hub, config, journal_dir, std::move(clock),
                                       std::move(control), std::move(log));
  if (auto error = sinks->start()) return *error;
  hub.add_listener(sinks.get());
  return sinks;
}

}  // namespace eboard::daemon
