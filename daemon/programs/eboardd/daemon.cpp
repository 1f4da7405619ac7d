#include "daemon/programs/eboardd/daemon.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "daemon/core/board_lights.h"
#include "daemon/core/demo_game.h"
#include "daemon/core/game_archive.h"
#include "daemon/core/stream_server.h"
#include "daemon/core/systemd_notify.h"
#include "daemon/core/tls_context.h"
#include "daemon/core/tls_listener.h"
#include "daemon/core/usb_watcher.h"
#include "daemon/programs/eboardd/boards.h"
#include "daemon/programs/eboardd/event_outputs.h"
#include "daemon/sinks/sinks.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace v1 = eboard::v1;

constexpr auto kLogRepeatWindow = std::chrono::seconds(60);

std::string runtime_directory(const DaemonConfig& config, bool& created) {
  created = false;
  if (!config.runtime_dir.empty()) return config.runtime_dir;
  if (const char* dir = std::getenv("RUNTIME_DIRECTORY"); dir && *dir) {
    std::string text = dir;
    return text.substr(0, text.find(':'));
  }
  char pattern[] = "/tmp/eboardd-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return "/tmp";
  created = true;
  return pattern;
}

// Where sim: boards' emulators run, and the demo's board added when asked for. The
// runtime directory is made here (`created` when it is the daemon's own, removed at exit).
Result<EmulatorRun> prepare_emulators(DaemonConfig& config, bool& created) {
  EmulatorRun run;
  run.runtime = runtime_directory(config, created);
  ::mkdir(run.runtime.c_str(), 0750);
  run.program =
      config.sim_program.empty() ? program_directory() + "/eboard-sim" : config.sim_program;
  run.speed = config.sim_speed;
  if (config.demo) {
    auto script = demo_script();
    if (!script) return Error{script.error()};
    const std::string path = run.runtime + "/demo.ebs";
    std::ofstream(path) << script.value();
    config.boards.push_back(parse_board_option("demo=sim:" + path).value());
    run.speed = config.demo_speed;
  }
  return run;
}

// Every board's link closed and its emulator, if any, stopped.
void stop_boards(std::vector<Board>& boards) {
  for (auto& board : boards) {
    board.link->stop();
    if (board.sim) board.sim->stop();
  }
}

using Schedule = std::function<void(std::chrono::milliseconds, std::function<void()>)>;

// A one-shot schedule on `timer`, each call replacing the last (the hub's journal retries,
// the archive's PGN retries).
Schedule one_shot(asio::steady_timer& timer) {
  return [&timer](std::chrono::milliseconds delay, std::function<void()> task) {
    timer.expires_after(delay);
    timer.async_wait([task = std::move(task)](const boost::system::error_code& error) {
      if (!error) task();
    });
  };
}

// Runs `task` every `period` on the loop, until the loop stops.
void every(asio::steady_timer& timer, asio::steady_timer::duration period,
           std::function<void()> task) {
  timer.expires_after(period);
  timer.async_wait(
      [&timer, period, task = std::move(task)](const boost::system::error_code& error) {
        if (error) return;
        task();
        every(timer, period, task);
      });
}

// Each board's journal read and its session resumed from it, before any link opens.
std::optional<Error> make_sessions(std::vector<Board>& boards, const DaemonConfig& config,
                                   const std::string& boot_id, EventHub& hub, Logger& logger) {
  for (std::size_t i = 0; i < boards.size(); ++i) {
    Board& board = boards[i];
    board.config = config.boards[i];
    auto setup = setup_for(board.config, config);
    if (!setup) return Error{setup.error()};
    auto recovered = open_journal(i, board.config, config, boot_id, hub, logger);
    if (!recovered) return Error{recovered.error()};
    board.session = std::make_unique<BoardSession>(
        board.config.name, setup.value(), board.config.spec.white,
        [&hub, i](v1::Event event) { return hub.publish(i, std::move(event)); });
    board.session->set_clock_setting(board.config.spec.clock, Millis{0});
    if (auto error = board.session->resume(recovered.value())) return error;
    if (!board.session->resume_warning().empty()) {
      logger.warning(board.session->resume_warning());
    }
  }
  return std::nullopt;
}

// What every board's link shares: the loop, the clock, the daemon's start, the bus.
struct LinkContext {
  asio::io_context& io;
  const Clock& clock;
  SteadyTime epoch;
  drivers::UsbBus* usb = nullptr;
  PortClaims& ports;
  DeviceLink::Log log;
  drivers::SerialPorts* serial = nullptr;  // --serial-emulator's ports; null: the system's
};

// Each board's link (a sim: board's emulator started first), not yet started.
std::optional<Error> make_links(std::vector<Board>& boards, const DaemonConfig& config,
                                const EmulatorRun& emulator, const LinkContext& context) {
  for (Board& board : boards) {
    drivers::BoardSpec spec = board.config.spec;
    if (spec.driver == "sim") {
      auto emulated = start_emulator(board, config, emulator);
      if (!emulated) return Error{emulated.error()};
      spec = emulated.value();
    }
    // A sped-up emulator's game runs on a sped-up time line (device_link.h).
    LinkOptions options;
    options.time_scale = board.sim && emulator.speed > 0 ? emulator.speed : 1.0;
    options.usb = context.usb;
    options.serial = context.serial;
    options.state_dir = config.journal_dir;
    // A resumed game's time line goes on from the journal's (BoardSession::resume_at).
    const std::chrono::duration<double, std::milli> resumed(
        double(board.session->resume_at().count()) / options.time_scale);
    const SteadyTime board_epoch =
        context.epoch - std::chrono::duration_cast<SteadyTime::duration>(resumed);
    board.link = std::make_unique<DeviceLink>(context.io, context.clock, board_epoch, spec,
                                              *board.session, context.log, options);
    board.link->share_ports(context.ports);
  }
  return std::nullopt;
}

// --board-lights: the boards named (or `all`) show the last move and what needs a hand.
std::unique_ptr<BoardLights> make_lights(asio::io_context& io, const Clock& clock,
                                         const DaemonConfig& config, std::vector<Board>& boards) {
  if (config.board_lights.empty()) return nullptr;
  const auto& names = config.board_lights;
  std::vector<bool> enabled;
  for (const auto& board : boards) {
    enabled.push_back(std::find(names.begin(), names.end(), "all") != names.end() ||
                      std::find(names.begin(), names.end(), board.config.name) != names.end());
  }
  return std::make_unique<BoardLights>(
      io, clock, enabled,
      [&boards](std::size_t b, const drivers::Lights& l) { return boards[b].link->set_lights(l); });
}

// The tls: stream listeners, each handing its sockets to the stream server once the
// handshake is done.
std::optional<Error> listen_tls(asio::io_context& io, const DaemonConfig& config,
                                StreamServer& server,
                                std::vector<std::unique_ptr<TlsStreamListener>>& listeners,
                                const std::function<void(const std::string&)>& say) {
  for (const ListenAddress& address : config.listen) {
    if (address.kind != ListenAddress::Kind::kTls) continue;
    auto tls = make_server_tls(config.sinks.tls);
    if (!tls) return Error{tls.error()};
    listeners.push_back(std::make_unique<TlsStreamListener>(
        io, tls.value(), [&server, text = address.text](Consumer::Socket socket, std::string peer) {
          server.adopt(text, std::move(socket), std::move(peer));
        }));
    if (auto error = listeners.back()->listen(address)) return error;
    say("listening on " + address.text + " (port " + std::to_string(listeners.back()->port()) +
        ")");
  }
  return std::nullopt;
}

std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

// A board's game set-up (its script's header with --rules/--clock/--param) is part of
// the configuration: checked before anything is created or written.
bool setups_valid(const DaemonConfig& config, Logger& logger) {
  for (const BoardConfig& board : config.boards) {
    if (auto setup = setup_for(board, config); !setup) {
      logger.error(setup.error());
      return false;
    }
  }
  return true;
}

// What runs on the loop by the clock: the stop on SIGINT/SIGTERM, the journals' sync under
// --fsync interval, the log's summary of repeated lines (log.h).
class LoopTimers {
 public:
  LoopTimers(asio::io_context& io, EventHub& hub, const DaemonConfig& config, Logger& logger)
      : signals_(io, SIGINT, SIGTERM), sync_timer_(io), repeats_timer_(io) {
    signals_.async_wait([&io, &logger](const boost::system::error_code& error, int number) {
      if (error) return;
      logger.info(std::string("stopping on ") + (number == SIGINT ? "SIGINT" : "SIGTERM"));
      io.stop();
    });
    if (config.fsync == FsyncPolicy::kInterval) {
      every(sync_timer_, std::chrono::seconds(1), [&hub] { hub.sync_journals(); });
    }
    every(repeats_timer_, kLogRepeatWindow, [&logger] { logger.report_repeats(); });
  }

 private:
  asio::signal_set signals_;
  asio::steady_timer sync_timer_;
  asio::steady_timer repeats_timer_;
};

// The stream server and every TLS listener in front of it, listening.
std::optional<Error> listen_all(asio::io_context& io, const DaemonConfig& config,
                                StreamServer& server,
                                std::vector<std::unique_ptr<TlsStreamListener>>& tls_listeners,
                                const std::function<void(const std::string&)>& say) {
  if (auto error = server.listen(config.listen)) return error;
  return listen_tls(io, config, server, tls_listeners, say);
}

// The loop has stopped: every client is told goodbye (the loop runs a moment more for
// that), then every board's link closes.
void shut_down(asio::io_context& io, StreamServer& server,
               std::vector<std::unique_ptr<TlsStreamListener>>& tls_listeners, Sinks* sinks,
               std::vector<Board>& boards) {
  for (auto& listener : tls_listeners) listener->shutdown();
  server.shutdown();
  if (sinks) sinks->shutdown();
  io.restart();
  io.run_for(std::chrono::milliseconds(100));
  stop_boards(boards);
}

}  // namespace

int run_daemon(const DaemonConfig& original, const Clock& clock, int events_fd, std::ostream& log) {
  DaemonConfig config = original;
  Logger logger(log, "eboardd");
  const auto say = logger.at(LogLevel::kInfo);
  const auto fail = [&logger](const std::string& text) {
    logger.error(text);
    return 1;
  };
  if (!setups_valid(config, logger)) return 2;
  bool runtime_created = false;
  auto emulated = prepare_emulators(config, runtime_created);
  if (!emulated) return fail(emulated.error());
  const EmulatorRun& emulator = emulated.value();

  for (const std::string& line : config.round_log) say(line);
  std::vector<std::string> ids;
  for (const auto& b : config.boards) ids.push_back(b.name);
  EventHub hub(ids, logger);
  asio::io_context io(1);
  hub.set_group_commit([&io](std::function<void()> task) { asio::post(io, std::move(task)); });
  asio::steady_timer retry_timer(io);  // journal retries after a refused write (event_hub.h)
  hub.set_retry_schedule(one_shot(retry_timer));
  const SteadyTime epoch = clock.now();
  const std::string boot_id = read_boot_id(config.boot_id_file);
  if (config.fsync == FsyncPolicy::kAfterPublish && boot_id.empty()) {
    logger.warning(config.boot_id_file +
                   ": no boot id; an unclean stop will count as a power cut (seqs skipped)");
  }

  asio::steady_timer archive_timer(io);           // the archive's PGN retries (game_archive.h)
  PortClaims ports = named_ports(config.boards);  // outlives the links, which hold ports
  std::vector<Board> boards(config.boards.size());
  if (auto error = make_sessions(boards, config, boot_id, hub, logger)) {
    return fail(error->message);
  }
  EventOutputs outputs(io, hub, config, events_fd, logger, one_shot(archive_timer));
  const CommandHandler run_command = command_path(hub, boards);
  auto sinks = install_sinks(
      io, hub, config.sinks, config.journal_dir,
      [&boards](std::size_t b, const drivers::ClockCommand& c) {
        return boards[b].link && boards[b].link->send_clock(c);
      },
      {config.control_token, run_command,
       [&hub, &boards] { return status_reply({}, hub, boards).status_reply(); }},
      say);
  if (!sinks) return fail(sinks.error());

  // The USB bus: hot-plug for boards found by serial number, and the Chessnut's HID link.
  std::unique_ptr<drivers::UsbBus> usb_bus = open_usb_bus(config, logger);
  // --serial-emulator: `auto` finds its ports there, and sees them come and go.
  std::unique_ptr<drivers::SerialPorts> serial_ports;
  if (!config.serial_emulator.empty()) {
    std::string error;
    serial_ports = drivers::make_emulated_serial_ports(config.serial_emulator, error);
    if (!serial_ports) return fail(error);
  }
  const LinkContext links{
      io,
      clock,
      epoch,
      usb_bus.get(),
      ports,
      [&logger](LogLevel level, const std::string& line) { logger.log(level, line); },
      serial_ports.get()};
  if (auto error = make_links(boards, config, emulator, links)) return fail(error->message);
  const auto hotplug = [&boards](const std::vector<drivers::UsbEvent>& events) {
    for (auto& board : boards) board.link->on_usb_events(events);
  };
  std::optional<UsbWatcher> usb_watcher;
  if (usb_bus) usb_watcher.emplace(io, *usb_bus, hotplug);
  std::optional<UsbWatcher> serial_watcher;
  if (serial_ports) serial_watcher.emplace(io, *serial_ports, hotplug);
  std::unique_ptr<BoardLights> lights = make_lights(io, clock, config, boards);
  if (lights) hub.add_listener(lights.get());

  ConsumerContext context{
      hub,
      run_command,
      config.control_token,
      config.consumer_queue_bytes,
      kDaemonVersion,
      host_name(),
      say,
      config.limits.frame_timeout,
      [&](const v1::StatusRequest& request) { return status_reply(request, hub, boards); }};
  StreamServer server(io, context, logger, config.limits);
  std::vector<std::unique_ptr<TlsStreamListener>> tls_listeners;
  if (auto error = listen_all(io, config, server, tls_listeners, say)) {
    return fail(error->message);
  }

  for (auto& board : boards) board.link->start();
  LoopTimers timers(io, hub, config, logger);
  SystemdNotifier notifier(io);
  const std::string status = std::to_string(boards.size()) + " board(s), " +
                             std::to_string(config.listen.size()) + " listener(s)";
  notifier.ready(status);
  notifier.start_watchdog();
  say("ready: " + status);

  io.run();

  notifier.stopping();
  shut_down(io, server, tls_listeners, sinks->get(), boards);
  hub.close();
  if (config.fsync == FsyncPolicy::kAfterPublish) {
    say(std::to_string(hub.reservation_waits()) + " event(s) waited for a seq reservation sync");
  }
  logger.report_repeats();
  if (runtime_created) {
    std::error_code ignored;
    std::filesystem::remove_all(emulator.runtime, ignored);
  }
  return 0;
}

}  // namespace eboard::daemon
