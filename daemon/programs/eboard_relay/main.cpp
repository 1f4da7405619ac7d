// eboard-relay --mqtt HOST:PORT --site NAME [--http HOST:PORT] [--push URL
// --push-token-file FILE] [--round N] (docs/interfaces.md §7.1): follows every board of a site
// through the broker, gap-free (§7.2), and serves the round's PGN, each board's, an
// event page and the overlays; with --push it sends the round to a lichess broadcast.
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "daemon/core/sink_config.h"
#include "daemon/programs/eboard_events/mqtt_fan_in.h"
#include "daemon/programs/eboard_relay/event_games.h"
#include "daemon/programs/eboard_relay/mqtt_link.h"
#include "daemon/programs/eboard_relay/push_client.h"
#include "daemon/programs/eboard_relay/relay_http.h"
#include "eboard/version.h"

namespace po = boost::program_options;
namespace asio = boost::asio;
using namespace eboard::daemon;

namespace {

struct Options {
  MqttLink::Options mqtt;
  std::string site;
  std::string http_host = "127.0.0.1";
  std::uint16_t http_port = 8380;
  std::optional<PushUrl> push;
  std::string token;
  std::string round;
};

int usage_error(const std::string& message) {
  std::cerr << "eboard-relay: " << message << "\n";
  return 2;
}

std::optional<std::string> read_secret(const std::string& path, std::string& out) {
  std::ifstream in(path);
  if (!in) return path + ": cannot be read";
  std::getline(in, out);
  while (!out.empty() && (out.back() == '\r' || out.back() == ' ')) out.pop_back();
  if (out.empty()) return path + ": empty";
  return std::nullopt;
}

// Fills `o`; the error is one line naming the option.
std::optional<std::string> fill(const po::variables_map& vm, Options& o) {
  if (!vm.count("mqtt") || !vm.count("site")) return "--mqtt HOST:PORT and --site NAME are needed";
  if (auto e = parse_host_port(vm["mqtt"].as<std::string>(), "--mqtt", o.mqtt.host, o.mqtt.port))
    return e;
  o.site = vm["site"].as<std::string>();
  if (vm.count("http")) {
    if (auto e = parse_host_port(vm["http"].as<std::string>(), "--http", o.http_host, o.http_port))
      return e;
  }
  if (vm.count("mqtt-user")) o.mqtt.user = vm["mqtt-user"].as<std::string>();
  if (vm.count("mqtt-password-file")) {
    if (auto e = read_secret(vm["mqtt-password-file"].as<std::string>(), o.mqtt.password))
      return "--mqtt-password-file " + *e;
  }
  if (vm.count("push") != vm.count("push-token-file"))
    return "--push and --push-token-file go together";
  if (vm.count("push")) {
    auto url = parse_push_url(vm["push"].as<std::string>());
    if (!url.ok()) return url.error();
    o.push = url.value();
    if (auto e = read_secret(vm["push-token-file"].as<std::string>(), o.token))
      return "--push-token-file " + *e;
  }
  if (vm.count("round")) {
    o.round = vm["round"].as<std::string>();
    if (o.round.empty() || o.round.find_first_not_of("0123456789") != std::string::npos)
      return "--round: '" + o.round + "' is not a round number";
  }
  return std::nullopt;
}

void log_line(const std::string& line) { std::cerr << "eboard-relay: " << line << std::endl; }

int run(const Options& o) {
  asio::io_context io;
  EventGames games(o.round);
  std::unique_ptr<PushClient> push;
  RelayHttp* http_ptr = nullptr;
  FanInOptions fan_options;
  fan_options.site = o.site;
  fan_options.start = FanInStart::kSnapshot;
  MqttLink* link_ptr = nullptr;
  MqttFanIn fan(
      fan_options,
      {.event =
           [&](const BoardKey& key, const eboard::v1::Event& event) {
             const bool changed = games.apply(key, event);
             if (http_ptr) http_ptr->on_event(key, event);
             if (push && (changed || event.has_game_started())) push->changed();
           },
       .state = [&](const BoardKey& key, const eboard::v1::Snapshot& s) { games.state(key, s); },
       .status = [&](const std::string& node,
                     const std::string& status) { games.status(node, status); },
       .publish =
           [&](const std::string& topic, const std::string& payload) {
             if (link_ptr) link_ptr->publish(topic, payload);
           }});
  if (o.push) {
    push = std::make_unique<PushClient>(
        io, *o.push, o.token,
        [&games] {
          std::vector<std::string> texts;
          for (const auto& g : games.games()) texts.push_back(g.text);
          return std::make_pair(games.version(), std::move(texts));
        },
        log_line);
  }
  RelayHttp http(io, games, fan, push.get(), o.site, log_line);
  http_ptr = &http;
  if (auto error = http.listen(o.http_host, o.http_port)) return usage_error(error->message);
  log_line("http: serving on " + o.http_host + ":" + std::to_string(http.port()));

  MqttLink::Options mqtt = o.mqtt;
  mqtt.filters = fan.filters();
  MqttLink link(
      io, mqtt,
      [&](const std::string& topic, const std::string& payload) {
        fan.message(topic, payload, std::chrono::steady_clock::now());
      },
      log_line);
  link_ptr = &link;
  link.start();

  // The fan-in's requests fall due on their own schedule: look every 50 ms.
  asio::steady_timer ticker(io);
  std::function<void()> tick = [&] {
    fan.tick(std::chrono::steady_clock::now());
    ticker.expires_after(std::chrono::milliseconds(50));
    ticker.async_wait([&](const boost::system::error_code& e) {
      if (!e) tick();
    });
  };
  tick();
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code&, int) { io.stop(); });
  io.run();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help and exit")
    ("version", "print the version and exit")
    ("mqtt", po::value<std::string>()->value_name("HOST:PORT"), "the venue's MQTT broker")
    ("site", po::value<std::string>()->value_name("NAME"), "the event's name in the topics")
    ("mqtt-user", po::value<std::string>()->value_name("NAME"), "broker user name")
    ("mqtt-password-file", po::value<std::string>()->value_name("FILE"), "broker password")
    ("http", po::value<std::string>()->value_name("HOST:PORT"),
     "serve /round.pgn, /boards/NODE/BOARD.pgn, / and the overlays here "
     "(default 127.0.0.1:8380)")
    ("push", po::value<std::string>()->value_name("URL"),
     "a lichess broadcast round's push endpoint "
     "(https://lichess.org/api/broadcast/round/ID/push)")
    ("push-token-file", po::value<std::string>()->value_name("FILE"),
     "the API token (scope study:write) for --push")
    ("round", po::value<std::string>()->value_name("N"),
     "list only the games of round N (their Round tag is N or N.B)");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(d).run(), vm);
    po::notify(vm);
  } catch (const po::error& error) {
    return usage_error(error.what());
  }
  if (vm.count("help")) {
    std::cout << "usage: eboard-relay --mqtt HOST:PORT --site NAME [--http HOST:PORT]\n"
                 "                    [--push URL --push-token-file FILE] [--round N]\n"
                 "Follows every board of a site through the MQTT broker, gap-free, and\n"
                 "serves the round's PGN for a lichess broadcast (or pushes it there).\n\n"
              << d;
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "eboard-relay " << eboard::kVersion << "\n";
    return 0;
  }
  Options options;
  if (auto error = fill(vm, options)) return usage_error(*error);
  return run(options);
}
