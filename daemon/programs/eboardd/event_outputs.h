// eboardd's listeners that only read the events: --print on standard output, the end of
// the demo game, and the archive of finished games' PGN in the journal directory.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>

#include "daemon/core/config.h"
#include "daemon/core/event_hub.h"
#include "daemon/core/game_archive.h"
#include "daemon/core/log.h"
#include "daemon/programs/eboardd/print_out.h"

namespace eboard::daemon {

// Made and added to the hub as the configuration asks; they stay the hub's listeners for
// the object's life, which must end after the hub's last event.
class EventOutputs {
 public:
  EventOutputs(boost::asio::io_context& io, EventHub& hub, const DaemonConfig& config,
               int events_fd, Logger& logger, EventHub::Schedule archive_retries);
  ~EventOutputs();
  EventOutputs(const EventOutputs&) = delete;
  EventOutputs& operator=(const EventOutputs&) = delete;

 private:
  std::unique_ptr<PrintOut> print_out_;
  std::unique_ptr<EventListener> printer_;
  std::unique_ptr<EventListener> demo_end_;
  std::unique_ptr<GameArchive> archive_;
};

}  // namespace eboard::daemon
