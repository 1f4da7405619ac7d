#include "daemon/programs/eboardd/boards.h"

#include <cstdio>
#include <filesystem>

#include "daemon/core/command_journal.h"
#include "simulators/script/script_header.h"
#include "simulators/script/script_reader.h"

namespace eboard::daemon {

namespace v1 = eboard::v1;

namespace {

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

}  // namespace

Result<GameSetup> setup_for(const BoardConfig& board, const DaemonConfig& config) {
  GameSetup setup;
  setup.rules = config.rules;
  setup.clock = config.clock;
  if (board.spec.driver == "sim") {
    const script::ScriptFile file = script::read_script_file(board.spec.device);
    if (!file.ok()) return Error{file.error};
    const script::Header header = script::header_of(file);
    if (setup.rules.empty()) setup.rules = header.rules;
    if (setup.clock.empty()) setup.clock = header.clock;
    setup.params = header.params;
    setup.tags = header.tags;
    setup.start_fen = header.start_fen();
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

Result<BoardState> open_journal(std::size_t index, const BoardConfig& board,
                                const DaemonConfig& config, const std::string& boot_id,
                                EventHub& hub, Logger& logger) {
  BoardState recovered(board.name);
  if (config.journal_dir.empty()) return recovered;
  const auto say = logger.at(LogLevel::kInfo);
  std::error_code ignored;
  std::filesystem::create_directories(config.journal_dir, ignored);
  std::string warning;
  auto journal = Journal::open(
      config.journal_dir + "/" + board.name + ".journal", config.fsync,
      [&](const v1::Event& e) { recovered.apply(e); }, warning);
  if (!journal) return Error{journal.error()};
  if (!warning.empty()) logger.warning(warning);
  if (journal->damage().upgraded)
    say("board " + board.name + ": journal rewritten in the current format");
  if (journal->last_seq() > 0) {
    say("board " + board.name + ": journal has " + std::to_string(journal->last_seq()) +
        " events; " +
        (recovered.game_in_progress()
             ? "resuming the game at move " + std::to_string(recovered.snapshot().moves_size())
             : "no game in progress"));
  }
  hub.attach_journal(index, std::move(journal).value(), recovered);
  auto start =
      hub.start_numbering(index, boot_id,
                          config.fsync == FsyncPolicy::kAfterPublish ? EventHub::Reserve::kAhead
                                                                     : EventHub::Reserve::kNo);
  if (!start) return Error{"board " + board.name + ": " + start.error()};
  if (start->lost) {
    logger.warning("board " + board.name + ": seqs " + std::to_string(start->lost->first) + ".." +
                   std::to_string(start->lost->second) + " may have been published and are lost: " +
                   start->reason + "; numbering continues at " + std::to_string(start->next_seq));
  }
  return recovered;
}

Result<drivers::BoardSpec> start_emulator(Board& board, const DaemonConfig& config,
                                          const EmulatorRun& run) {
  drivers::BoardSpec spec = board.config.spec;
  const std::string link = run.runtime + "/" + board.config.name + ".pty";
  char speed[32];
  std::snprintf(speed, sizeof speed, "%g", run.speed);
  // The emulated DGT 3000 is set up for the game the daemon runs (setup_for): the
  // script's header unless --rules/--clock/--param override it.
  std::vector<std::string> args = {"dgt", "--link", link, "--speed", speed};
  // clock=none: a DGT board whose clock is not on its cable (docs/clockless.md).
  if (spec.clock == drivers::ClockSetting::kNone) args.push_back("--no-clock");
  if (!config.rules.empty()) args.insert(args.end(), {"--rules", config.rules});
  if (!config.clock.empty()) args.insert(args.end(), {"--clock", config.clock});
  for (const auto& [name, value] : config.params) {
    args.insert(args.end(), {"--param", name + "=" + value});
  }
  args.push_back(spec.device);
  auto sim = SimProcess::start(run.program, args);
  if (!sim) return Error{"board " + board.config.name + ": " + sim.error()};
  board.sim.emplace(std::move(sim).value());
  spec.driver = "dgt";
  spec.device = link;
  return spec;
}

CommandHandler command_path(EventHub& hub, std::vector<Board>& boards) {
  return [&hub, &boards](const v1::Command& command, const std::string& client) {
    const auto found = hub.find_board(command.board_id());
    v1::Ack ack;
    if (!found) {
      ack.set_code(v1::ACK_ERROR_UNKNOWN_BOARD);
      ack.set_error("command.board_id: no board '" + command.board_id() + "'");
      return ack;
    }
    Board& board = boards[*found];
    const Millis now = board.link->session_now();
    ack = command.has_recalibrate() ? recalibrate(command, *board.link)
                                    : board.session->command(command, now);
    if (ack.ok() && corrects_clock(command)) {
      if (const auto set = board.session->clock_setting(now)) board.link->send_clock(*set);
    }
    hub.publish(
        *found,
        command_applied(command, client, ack, hub.last_seq(*found), hub.state(*found).snapshot(),
                        static_cast<std::int32_t>(now.count()), board.session->ruled_seqs()));
    board.link->reschedule();
    return ack;
  };
}

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

}  // namespace eboard::daemon
