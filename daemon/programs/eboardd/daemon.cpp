#include "daemon/programs/eboardd/daemon.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include "daemon/core/board_lights.h"
#include "daemon/core/board_session.h"
#include "daemon/core/command_journal.h"
#include "daemon/core/demo_game.h"
#include "daemon/core/device_link.h"
#include "daemon/core/event_hub.h"
#include "daemon/core/game_archive.h"
#include "daemon/core/log.h"
#include "daemon/core/sim_process.h"
#include "daemon/core/stream_server.h"
#include "daemon/core/systemd_notify.h"
#include "daemon/core/text_view.h"
#include "daemon/core/tls_context.h"
#include "daemon/core/tls_listener.h"
#include "daemon/core/usb_watcher.h"
#include "daemon/sinks/sinks.h"
#include "eboard/v1/json.h"
#include "engine/rules/rule_set.h"
#include "simulators/script/script_reader.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace v1 = eboard::v1;

constexpr auto kLogRepeatWindow = std::chrono::seconds(60);

// Prints every event on stdout (--print, the demo).
class Printer final : public EventListener {
 public:
  Printer(std::ostream& out, PrintFormat format)
      : out_(out),
        format_(format),
        view_(out, isatty(STDOUT_FILENO) ? TextView::Mode::kScreen : TextView::Mode::kLines) {}
  void on_event(std::size_t, const v1::Event& event, const SharedBytes&) override {
    if (format_ == PrintFormat::kJson) {
      out_ << proto::to_json_line(event) << "\n";
      out_.flush();
    } else {
      view_.event(event);
    }
  }

 private:
  std::ostream& out_;
  PrintFormat format_;
  TextView view_;
};

// Stops the loop shortly after the demo game ends (the last clock events still show).
class DemoEnd final : public EventListener {
 public:
  explicit DemoEnd(asio::io_context& io) : io_(io), timer_(io) {}
  void on_event(std::size_t, const v1::Event& event, const SharedBytes&) override {
    if (!event.has_game_ended() || armed_) return;
    armed_ = true;
    timer_.expires_after(std::chrono::milliseconds(300));
    timer_.async_wait([this](const boost::system::error_code& error) {
      if (!error) io_.stop();
    });
  }

 private:
  asio::io_context& io_;
  asio::steady_timer timer_;
  bool armed_ = false;
};

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

// A sim: board's game comes from its script's header; --rules/--clock/--param override.
Result<GameSetup> setup_for(const BoardConfig& board, const DaemonConfig& config) {
  GameSetup setup;
  setup.rules = config.rules;
  setup.clock = config.clock;
  if (board.spec.driver == "sim") {
    const script::ScriptFile file = script::read_script_file(board.spec.device);
    if (!file.ok()) return Error{file.error};
    std::string rules;
    std::string clock;
    for (const auto& s : file.statements) {
      if (s.at) break;
      if (const auto* r = std::get_if<script::RulesName>(&s.body)) rules = r->name;
      if (const auto* c = std::get_if<script::TimeControl>(&s.body)) clock = c->text;
      if (const auto* p = std::get_if<script::Param>(&s.body))
        setup.params.emplace_back(p->name, p->value);
      if (const auto* t = std::get_if<script::Tag>(&s.body))
        setup.tags.emplace_back(t->name, t->value);
      if (const auto* st = std::get_if<script::Start>(&s.body)) {
        setup.start_fen = st->fen == "startpos" ? "" : st->fen;
      }
    }
    if (setup.rules.empty()) setup.rules = rules;
    if (setup.clock.empty()) setup.clock = clock;
  }
  if (setup.rules.empty()) setup.rules = engine::kDefaultRuleSetName;
  for (const auto& p : config.params) setup.params.push_back(p);
  // --round-file: the board's game of the round, with its tags (docs/interfaces.md §6.2).
  if (const auto round = config.round_tags.find(board.name); round != config.round_tags.end()) {
    setup.tags = round->second;
  }
  if (auto checked = make_tracker_config(setup); !checked) {
    return Error{"board " + board.name + ": " + checked.error()};
  }
  return setup;
}

// The serial numbers and device paths boards are named by: an auto board without
// serial= takes none of them (port_claims.h). A serial number is a DGT board's own or, for
// the families without one, their USB adapter's (device_link.h).
PortClaims named_ports(const std::vector<BoardConfig>& boards) {
  PortClaims ports;
  for (const auto& board : boards) {
    if (board.spec.driver == "sim") continue;  // its pty is the daemon's own
    if (board.spec.serial) ports.name_serial(*board.spec.serial);
    if (board.spec.device != "auto" && board.spec.device != "usb") {
      ports.name_path(board.spec.device);
    }
  }
  return ports;
}

// The USB bus when a board needs one: a USB board, or one found by `auto` (hot-plug).
std::unique_ptr<drivers::UsbBus> open_usb_bus(const DaemonConfig& config, Logger& logger) {
  const bool needed = std::any_of(config.boards.begin(), config.boards.end(), [](const auto& b) {
    return b.spec.device == "auto" || b.spec.device == "usb";
  });
  if (!needed) return nullptr;
  std::string error;
  auto bus = config.usb_emulator.empty() ? drivers::make_libusb_bus(error)
                                         : drivers::make_emulated_bus(config.usb_emulator, error);
  if (!bus) {
    logger.warning(error + ": no USB boards, no hot-plug (ports are rescanned instead)");
  } else if (bus->hotplug_fd() < 0) {
    logger.info(bus->name() + " has no hot-plug support: rescanning every 2 s");
  }
  return bus;
}

struct Board {
  BoardConfig config;
  std::unique_ptr<BoardSession> session;
  std::unique_ptr<DeviceLink> link;
  std::optional<SimProcess> sim;
};

// The arbiter's clock corrections, which a hardware clock must be told of.
bool corrects_clock(const v1::Command& c) {
  return c.has_add_time() || c.has_set_clock() || c.has_pause() || c.has_resume();
}

// Recalibrate is the device's business, not the game's (a Certabo board's RFID tags).
v1::Ack recalibrate(const v1::Command& command, DeviceLink& link) {
  v1::Ack ack;
  ack.set_command_id(command.command_id());
  ack.set_ok(link.recalibrate());
  if (!ack.ok()) {
    ack.set_code(v1::ACK_ERROR_REJECTED);
    ack.set_error("recalibrate: board '" + command.board_id() + "' needs no calibration");
  }
  return ack;
}

// eboard-ctl status/proposals (frame.proto StatusRequest): each board's folded state and
// its session's open proposals, now.
v1::Frame status_reply(const v1::StatusRequest& request, const EventHub& hub,
                       const std::vector<Board>& boards) {
  v1::Frame frame;
  std::vector<std::size_t> chosen;
  for (const auto& id : request.board_ids()) {
    const auto board = hub.find_board(id);
    if (!board) {
      v1::Ack* ack = frame.mutable_ack();
      ack->set_command_id(request.command_id());
      ack->set_code(v1::ACK_ERROR_UNKNOWN_BOARD);
      ack->set_error("status_request.board_ids: no board '" + id + "'");
      return frame;
    }
    chosen.push_back(*board);
  }
  if (chosen.empty()) {
    for (std::size_t b = 0; b < boards.size(); ++b) chosen.push_back(b);
  }
  v1::StatusReply* reply = frame.mutable_status_reply();
  reply->set_command_id(request.command_id());
  for (const std::size_t b : chosen) {
    v1::BoardStatus* status = reply->add_boards();
    *status->mutable_snapshot() = hub.state(b).snapshot();
    for (auto& p : boards[b].session->open_proposals())
      *status->add_open_proposals() = std::move(p);
  }
  return frame;
}

}  // namespace

int run_daemon(const DaemonConfig& original, const Clock& clock, std::ostream& events_out,
               std::ostream& log) {
  DaemonConfig config = original;
  Logger logger(log, "eboardd");
  const auto say = logger.at(LogLevel::kInfo);
  const auto fail = [&logger](const std::string& text) {
    logger.error(text);
    return 1;
  };
  // A board's game set-up (its script's header with --rules/--clock/--param) is part of
  // the configuration: checked before anything is created or written (exit 2).
  for (const BoardConfig& board : config.boards) {
    if (auto setup = setup_for(board, config); !setup) {
      logger.error(setup.error());
      return 2;
    }
  }
  bool runtime_created = false;
  const std::string runtime = runtime_directory(config, runtime_created);
  ::mkdir(runtime.c_str(), 0750);
  const std::string sim_program =
      config.sim_program.empty() ? program_directory() + "/eboard-sim" : config.sim_program;
  double sim_speed = config.sim_speed;
  if (config.demo) {
    auto script = demo_script();
    if (!script) return fail(script.error());
    const std::string path = runtime + "/demo.ebs";
    std::ofstream(path) << script.value();
    config.boards.push_back(parse_board_option("demo=sim:" + path).value());
    sim_speed = config.demo_speed;
  }

  for (const std::string& line : config.round_log) say(line);
  std::vector<std::string> ids;
  for (const auto& b : config.boards) ids.push_back(b.name);
  EventHub hub(ids, logger);
  asio::io_context io(1);
  hub.set_group_commit([&io](std::function<void()> task) { asio::post(io, std::move(task)); });
  // Journal retries after a refused write (event_hub.h): one timer, re-armed each time.
  asio::steady_timer retry_timer(io);
  hub.set_retry_schedule([&retry_timer](std::chrono::milliseconds delay, std::function<void()> f) {
    retry_timer.expires_after(delay);
    retry_timer.async_wait([f = std::move(f)](const boost::system::error_code& error) {
      if (!error) f();
    });
  });
  const SteadyTime epoch = clock.now();
  const std::string boot_id = read_boot_id(config.boot_id_file);
  if (config.fsync == FsyncPolicy::kAfterPublish && boot_id.empty()) {
    logger.warning(config.boot_id_file +
                   ": no boot id; an unclean stop will count as a power cut (seqs skipped)");
  }

  PortClaims ports = named_ports(config.boards);  // outlives the links, which hold ports
  std::vector<Board> boards(config.boards.size());
  for (std::size_t i = 0; i < boards.size(); ++i) {
    Board& board = boards[i];
    board.config = config.boards[i];
    auto setup = setup_for(board.config, config);
    if (!setup) return fail(setup.error());
    BoardState recovered(board.config.name);
    if (!config.journal_dir.empty()) {
      std::error_code ignored;
      std::filesystem::create_directories(config.journal_dir, ignored);
      std::string warning;
      auto journal = Journal::open(
          config.journal_dir + "/" + board.config.name + ".journal", config.fsync,
          [&](const v1::Event& e) { recovered.apply(e); }, warning);
      if (!journal) return fail(journal.error());
      if (!warning.empty()) logger.warning(warning);
      if (journal->damage().upgraded) {
        say("board " + board.config.name + ": journal rewritten in the current format");
      }
      if (journal->last_seq() > 0) {
        say("board " + board.config.name + ": journal has " + std::to_string(journal->last_seq()) +
            " events; " +
            (recovered.game_in_progress()
                 ? "resuming the game at move " + std::to_string(recovered.snapshot().moves_size())
                 : "no game in progress"));
      }
      hub.attach_journal(i, std::move(journal).value(), recovered);
      auto start =
          hub.start_numbering(i, boot_id,
                              config.fsync == FsyncPolicy::kAfterPublish ? EventHub::Reserve::kAhead
                                                                         : EventHub::Reserve::kNo);
      if (!start) return fail("board " + board.config.name + ": " + start.error());
      if (start->lost) {
        logger.warning("board " + board.config.name + ": seqs " +
                       std::to_string(start->lost->first) + ".." +
                       std::to_string(start->lost->second) +
                       " may have been published and are lost: " + start->reason +
                       "; numbering continues at " + std::to_string(start->next_seq));
      }
    }
    board.session = std::make_unique<BoardSession>(
        board.config.name, setup.value(), board.config.spec.white,
        [&hub, i](v1::Event event) { return hub.publish(i, std::move(event)); });
    board.session->set_clock_setting(board.config.spec.clock, Millis{0});
    if (auto error = board.session->resume(recovered)) return fail(error->message);
    if (!board.session->resume_warning().empty()) {
      logger.warning(board.session->resume_warning());
    }
  }

  std::unique_ptr<Printer> printer;
  if (config.print != PrintFormat::kNone) {
    printer = std::make_unique<Printer>(events_out, config.print);
    hub.add_listener(printer.get());
  }
  DemoEnd demo_end(io);
  if (config.demo) hub.add_listener(&demo_end);
  asio::steady_timer archive_timer(io);
  std::unique_ptr<GameArchive> archive;
  if (!config.journal_dir.empty()) {
    archive = std::make_unique<GameArchive>(
        hub, config.journal_dir, logger,
        [&archive_timer](std::chrono::milliseconds delay, std::function<void()> f) {
          archive_timer.expires_after(delay);
          archive_timer.async_wait([f = std::move(f)](const boost::system::error_code& error) {
            if (!error) f();
          });
        });
    hub.add_listener(archive.get());
  }
  // The one command path of the stream sockets and the arbiter console: applied, the
  // clock corrected where the command set it, and recorded (commandApplied) with its client.
  const CommandHandler run_command = [&](const v1::Command& command, const std::string& client) {
    const auto board = hub.find_board(command.board_id());
    v1::Ack ack;
    if (!board) {
      ack.set_code(v1::ACK_ERROR_UNKNOWN_BOARD);
      ack.set_error("command.board_id: no board '" + command.board_id() + "'");
      return ack;
    }
    const Millis now = boards[*board].link->session_now();
    ack = command.has_recalibrate() ? recalibrate(command, *boards[*board].link)
                                    : boards[*board].session->command(command, now);
    if (ack.ok() && corrects_clock(command)) {
      if (const auto set = boards[*board].session->clock_setting(now)) {
        boards[*board].link->send_clock(*set);
      }
    }
    hub.publish(*board, command_applied(command, client, ack, hub.last_seq(*board),
                                        hub.state(*board).snapshot(),
                                        static_cast<std::int32_t>(now.count()),
                                        boards[*board].session->ruled_seqs()));
    boards[*board].link->reschedule();
    return ack;
  };
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
  const DeviceLink::Log link_log = [&logger](LogLevel level, const std::string& line) {
    logger.log(level, line);
  };

  for (std::size_t i = 0; i < boards.size(); ++i) {
    Board& board = boards[i];
    drivers::BoardSpec spec = board.config.spec;
    if (spec.driver == "sim") {
      const std::string link = runtime + "/" + board.config.name + ".pty";
      char speed[32];
      std::snprintf(speed, sizeof speed, "%g", sim_speed);
      // The emulated DGT 3000 is set up for the game the daemon runs (setup_for): the
      // script's header unless --rules/--clock/--param override it.
      std::vector<std::string> sim_args = {"dgt", "--link", link, "--speed", speed};
      // clock=none: a DGT board whose clock is not on its cable (docs/clockless.md).
      if (spec.clock == drivers::ClockSetting::kNone) sim_args.push_back("--no-clock");
      if (!config.rules.empty()) sim_args.insert(sim_args.end(), {"--rules", config.rules});
      if (!config.clock.empty()) sim_args.insert(sim_args.end(), {"--clock", config.clock});
      for (const auto& [name, value] : config.params) {
        sim_args.insert(sim_args.end(), {"--param", name + "=" + value});
      }
      sim_args.push_back(spec.device);
      auto sim = SimProcess::start(sim_program, sim_args);
      if (!sim) return fail("board " + board.config.name + ": " + sim.error());
      board.sim.emplace(std::move(sim).value());
      spec.driver = "dgt";
      spec.device = link;
    }
    // A sped-up emulator's game runs on a sped-up time line (device_link.h).
    LinkOptions link_options;
    link_options.time_scale = board.sim && sim_speed > 0 ? sim_speed : 1.0;
    link_options.usb = usb_bus.get();
    link_options.state_dir = config.journal_dir;
    // A resumed game's time line goes on from the journal's (BoardSession::resume_at).
    const std::chrono::duration<double, std::milli> resumed(
        double(board.session->resume_at().count()) / link_options.time_scale);
    const SteadyTime board_epoch =
        epoch - std::chrono::duration_cast<SteadyTime::duration>(resumed);
    board.link = std::make_unique<DeviceLink>(io, clock, board_epoch, spec, *board.session,
                                              link_log, link_options);
    board.link->share_ports(ports);
  }
  std::optional<UsbWatcher> usb_watcher;
  if (usb_bus) {
    usb_watcher.emplace(io, *usb_bus, [&boards](const std::vector<drivers::UsbEvent>& events) {
      for (auto& board : boards) board.link->on_usb_events(events);
    });
  }
  std::unique_ptr<BoardLights> lights;
  if (!config.board_lights.empty()) {
    std::vector<bool> enabled;
    for (const auto& board : boards) {
      const auto& names = config.board_lights;
      enabled.push_back(std::find(names.begin(), names.end(), "all") != names.end() ||
                        std::find(names.begin(), names.end(), board.config.name) != names.end());
    }
    lights = std::make_unique<BoardLights>(io, clock, enabled,
                                           [&boards](std::size_t b, const drivers::Lights& l) {
                                             return boards[b].link->set_lights(l);
                                           });
    hub.add_listener(lights.get());
  }

  ConsumerContext context{
      hub,
      run_command,
      config.control_token,
      config.consumer_queue_bytes,
      kDaemonVersion,
      [] {
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        return std::string(host);
      }(),
      say,
      config.limits.frame_timeout,
      [&](const v1::StatusRequest& request) { return status_reply(request, hub, boards); }};
  StreamServer server(io, context, logger, config.limits);
  if (auto error = server.listen(config.listen)) return fail(error->message);
  std::vector<std::unique_ptr<TlsStreamListener>> tls_listeners;
  for (const ListenAddress& address : config.listen) {
    if (address.kind != ListenAddress::Kind::kTls) continue;
    auto tls = make_server_tls(config.sinks.tls);
    if (!tls) return fail(tls.error());
    tls_listeners.push_back(std::make_unique<TlsStreamListener>(
        io, tls.value(), [&server, text = address.text](Consumer::Socket socket, std::string peer) {
          server.adopt(text, std::move(socket), std::move(peer));
        }));
    if (auto error = tls_listeners.back()->listen(address)) return fail(error->message);
    say("listening on " + address.text + " (port " + std::to_string(tls_listeners.back()->port()) +
        ")");
  }

  for (auto& board : boards) board.link->start();

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& error, int number) {
    if (error) return;
    say(std::string("stopping on ") + (number == SIGINT ? "SIGINT" : "SIGTERM"));
    io.stop();
  });
  asio::steady_timer sync_timer(io);
  std::function<void()> sync_every_second = [&] {
    sync_timer.expires_after(std::chrono::seconds(1));
    sync_timer.async_wait([&](const boost::system::error_code& error) {
      if (error) return;
      hub.sync_journals();
      sync_every_second();
    });
  };
  if (config.fsync == FsyncPolicy::kInterval) sync_every_second();
  // Errors and warnings repeated within a minute are one line with a count (log.h).
  asio::steady_timer repeats_timer(io);
  std::function<void()> report_repeats = [&] {
    repeats_timer.expires_after(kLogRepeatWindow);
    repeats_timer.async_wait([&](const boost::system::error_code& error) {
      if (error) return;
      logger.report_repeats();
      report_repeats();
    });
  };
  report_repeats();

  SystemdNotifier notifier(io);
  const std::string status = std::to_string(boards.size()) + " board(s), " +
                             std::to_string(config.listen.size()) + " listener(s)";
  notifier.ready(status);
  notifier.start_watchdog();
  say("ready: " + status);

  io.run();

  notifier.stopping();
  for (auto& listener : tls_listeners) listener->shutdown();
  server.shutdown();
  if (*sinks) (*sinks)->shutdown();
  io.restart();
  io.run_for(std::chrono::milliseconds(100));  // let goodbyes go out
  for (auto& board : boards) {
    board.link->stop();
    if (board.sim) board.sim->stop();
  }
  hub.close();
  if (config.fsync == FsyncPolicy::kAfterPublish) {
    say(std::to_string(hub.reservation_waits()) + " event(s) waited for a seq reservation sync");
  }
  logger.report_repeats();
  if (runtime_created) {
    std::error_code ignored;
    std::filesystem::remove_all(runtime, ignored);
  }
  return 0;
}

}  // namespace eboard::daemon
