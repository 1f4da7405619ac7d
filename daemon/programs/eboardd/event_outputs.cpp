#include "daemon/programs/eboardd/event_outputs.h"

#include <unistd.h>

#include <csignal>
#include <sstream>
#include <string>

#include "daemon/core/text_view.h"
#include "eboard/v1/json.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace v1 = eboard::v1;

// Prints every event on stdout (--print, the demo), through a queue that never blocks the
// event loop (print_out.h).
class Printer final : public EventListener {
 public:
  Printer(PrintOut& out, PrintFormat format, bool terminal)
      : out_(out),
        format_(format),
        view_(text_, terminal ? TextView::Mode::kScreen : TextView::Mode::kLines) {}
  void on_event(std::size_t, const v1::Event& event, const SharedBytes&) override {
    if (format_ == PrintFormat::kJson) {
      out_.write(proto::to_json_line(event) + "\n");
      return;
    }
    view_.event(event);
    out_.write(text_.str());
    text_.str({});
  }

 private:
  PrintOut& out_;
  PrintFormat format_;
  std::ostringstream text_;
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

}  // namespace

EventOutputs::EventOutputs(asio::io_context& io, EventHub& hub, const DaemonConfig& config,
                           int events_fd, Logger& logger, EventHub::Schedule archive_retries) {
  if (config.print != PrintFormat::kNone) {
    // A reader of the printed events that goes away must not end the daemon: the write
    // fails with EPIPE instead, and printing stops (print_out.h).
    ::signal(SIGPIPE, SIG_IGN);
    print_out_ =
        std::make_unique<PrintOut>(io, events_fd, kPrintQueueBytes,
                                   [&logger](const std::string& text) { logger.warning(text); });
    printer_ = std::make_unique<Printer>(*print_out_, config.print, isatty(events_fd) == 1);
    hub.add_listener(printer_.get());
  }
  if (config.demo) {
    demo_end_ = std::make_unique<DemoEnd>(io);
    hub.add_listener(demo_end_.get());
  }
  if (!config.journal_dir.empty()) {
    archive_ =
        std::make_unique<GameArchive>(hub, config.journal_dir, logger, std::move(archive_retries));
    hub.add_listener(archive_.get());
  }
}

EventOutputs::~EventOutputs() = default;

}  // namespace eboard::daemon
