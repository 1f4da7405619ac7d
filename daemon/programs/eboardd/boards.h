// eboardd's boards, as run_daemon (daemon.h) builds them: for each configured board its
// game set-up, journal, session, emulator and link, and the two paths that reach a board
// by its id from outside, the command path and the status reply.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"
#include "daemon/core/config.h"
#include "daemon/core/consumer.h"
#include "daemon/core/device_link.h"
#include "daemon/core/event_hub.h"
#include "daemon/core/log.h"
#include "daemon/core/port_claims.h"
#include "daemon/core/sim_process.h"
#include "eboard/v1/frame.pb.h"
#include "util/result.h"

namespace eboard::daemon {

struct Board {
  BoardConfig config;
  std::unique_ptr<BoardSession> session;
  std::unique_ptr<DeviceLink> link;
  std::optional<SimProcess> sim;  // a sim: board's emulator
};

// A board's game: --rules/--clock/--param, over a sim: board's script header, and the
// round file's tags. Checked as the tracker will take it.
Result<GameSetup> setup_for(const BoardConfig& board, const DaemonConfig& config);

// The serial numbers and device paths boards are named by: an auto board without
// serial= takes none of them (port_claims.h).
PortClaims named_ports(const std::vector<BoardConfig>& boards);

// The USB bus when a board needs one (a USB board, or one found by `auto`), else null.
std::unique_ptr<drivers::UsbBus> open_usb_bus(const DaemonConfig& config, Logger& logger);

// Board `index`'s journal under --journal: read (folded into the state returned, for the
// session to resume), attached to the hub, and numbering started. Without --journal, an
// empty state.
Result<BoardState> open_journal(std::size_t index, const BoardConfig& board,
                                const DaemonConfig& config, const std::string& boot_id,
                                EventHub& hub, Logger& logger);

// How a sim: board's emulator runs.
struct EmulatorRun {
  std::string program;  // eboard-sim
  std::string runtime;  // where its pty is made
  double speed = 1.0;
};
// Starts a sim: board's emulator (board.sim) set up for the game the daemon runs; returns
// the spec the link opens instead: the emulated DGT board on its pty.
Result<drivers::BoardSpec> start_emulator(Board& board, const DaemonConfig& config,
                                          const EmulatorRun& run);

// The one command path of the stream sockets and the arbiter console: applied, the clock
// corrected where the command set it, and recorded (commandApplied) with its client.
CommandHandler command_path(EventHub& hub, std::vector<Board>& boards);

// eboard-ctl status/proposals (frame.proto StatusRequest): each board's folded state and
// its session's open proposals, now.
eboard::v1::Frame status_reply(const eboard::v1::StatusRequest& request, const EventHub& hub,
                               const std::vector<Board>& boards);

}  // namespace eboard::daemon
