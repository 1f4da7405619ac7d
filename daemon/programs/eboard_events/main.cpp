// eboard-events [--connect unix:PATH|tcp:HOST:PORT] [--board NAME] [--from-seq N]
// [--format json|text] (docs/interfaces.md §2): prints a running daemon's events.
#include <boost/program_options.hpp>
#include <iostream>

#include "daemon/core/option_number.h"
#include "daemon/core/sink_config.h"
#include "daemon/programs/eboard_events/events_client.h"
#include "daemon/programs/eboard_events/mqtt_view.h"
#include "eboard/version.h"

namespace po = boost::program_options;

// --mqtt HOST:PORT --site NAME: the event-wide view through the broker.
int run_mqtt(const po::variables_map& vm, const eboard::daemon::EventsOptions& options) {
  eboard::daemon::MqttViewOptions view;
  if (auto error = eboard::daemon::parse_host_port(vm["mqtt"].as<std::string>(), "--mqtt",
                                                   view.host, view.port)) {
    std::cerr << "eboard-events: " << *error << "\n";
    return 2;
  }
  if (!vm.count("site")) {
    std::cerr << "eboard-events: --mqtt needs --site NAME\n";
    return 2;
  }
  view.site = vm["site"].as<std::string>();
  view.boards = options.boards;
  view.json = options.format == eboard::daemon::EventsOptions::Format::kJson;
  view.public_only = options.public_only;
  view.timeout = options.timeout;
  if (vm.count("from-seq")) view.from_seq = options.from_seq;
  return eboard::daemon::run_mqtt_view(view, std::cout, std::cerr);
}

int main(int argc, char** argv) {
  po::options_description d("Options");
  // clang-format off
  d.add_options()
    ("help,h", "print this help and exit")
    ("version", "print the version and exit")
    ("connect", po::value<std::string>()->value_name("unix:PATH|tcp:HOST:PORT"),
     "the daemon's socket; default unix:/run/eboardd/events.sock")
    ("board", po::value<std::vector<std::string>>()->value_name("NAME"),
     "only this board's events (repeatable); default every board")
    ("from-seq", po::value<std::string>()->value_name("N"),
     "first each board's events from sequence number N on, as far as the journal has "
     "them, then the live ones")
    ("format", po::value<std::string>()->value_name("json|text"),
     "json: one eboard.v1.Event JSON line each (docs/interfaces.md §4); text (default): a "
     "readable line each and the board drawn with clocks and last moves")
    ("public-only", "only events players may see (docs/rules.md D14)")
    ("until-game-end", "exit 0 after printing a gameEnded event")
    ("timeout", po::value<double>()->value_name("SECONDS"),
     "give up after SECONDS (exit 3)")
    ("mqtt", po::value<std::string>()->value_name("HOST:PORT"),
     "read a whole event's boards from this MQTT broker instead (with --site)")
    ("site", po::value<std::string>()->value_name("NAME"), "the event's name in the MQTT topics");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(d).run(), vm);
    po::notify(vm);
  } catch (const po::error& error) {
    std::cerr << "eboard-events: " << error.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "usage: eboard-events [--connect unix:PATH|tcp:HOST:PORT] [--board NAME]\n"
                 "                     [--from-seq N] [--format json|text]\n"
                 "Connects to eboardd and prints its events as they arrive. Reading needs no\n"
                 "token, over TCP either.\n\n"
              << d;
    return 0;
  }
  if (vm.count("version")) {
    std::cout << "eboard-events " << eboard::kVersion << "\n";
    return 0;
  }
  eboard::daemon::EventsOptions options;
  if (vm.count("connect")) options.connect = vm["connect"].as<std::string>();
  if (vm.count("board")) options.boards = vm["board"].as<std::vector<std::string>>();
  if (vm.count("from-seq")) {
    auto seq = eboard::daemon::parse_bounded("--from-seq", vm["from-seq"].as<std::string>(), 0,
                                             0xFFFFFFFFu);
    if (!seq) {
      std::cerr << "eboard-events: " << seq.error() << "\n";
      return 2;
    }
    options.from_seq = static_cast<std::uint32_t>(seq.value());
  }
  if (vm.count("format")) {
    const std::string format = vm["format"].as<std::string>();
    if (format == "json") {
      options.format = eboard::daemon::EventsOptions::Format::kJson;
    } else if (format != "text") {
      std::cerr << "eboard-events: --format: '" << format << "' is not json or text\n";
      return 2;
    }
  }
  options.public_only = vm.count("public-only") > 0;
  options.until_game_end = vm.count("until-game-end") > 0;
  if (vm.count("timeout")) {
    const double seconds = vm["timeout"].as<double>();
    if (!(seconds > 0 && seconds <= 86400)) {
      std::cerr << "eboard-events: --timeout must be more than 0 and at most 86400 seconds\n";
      return 2;
    }
    options.timeout = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
  }
  if (vm.count("mqtt")) return run_mqtt(vm, options);  // mqtt_view.h
  return eboard::daemon::run_events_client(options, std::cout, std::cerr);
}
