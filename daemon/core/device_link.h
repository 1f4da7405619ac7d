// The I/O side of one board: its tty (a real port or an emulator's pty), its DGT driver,
// reconnection with capped backoff, and the one timer that serves the driver's and the
// game's deadlines - all on the event loop, never blocking (style.md "Event loop and I/O").
// What the driver reports goes to the board's BoardSession; link changes become
// deviceStatus events (issue 6 item 4: connect, loss, resync).
//
// `dgt:auto,serial=N` tries each candidate port in turn (serial_ports.h): a candidate
// is kept once the board on it names the wanted serial number, and is then handshaken
// again so the session gets a fresh full dump; candidates that answer with another
// serial, or not within kProbeTime, are closed.
//
// A failure here is this board's alone: every error ends in "disconnected, retrying".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "daemon/core/board_session.h"
#include "daemon/core/clock.h"
#include "drivers/board_spec.h"
#include "drivers/dgt/dgt_driver.h"
#include "drivers/reconnect.h"
#include "drivers/transport/tty_port.h"

namespace eboard::daemon {

class DeviceLink {
 public:
  using Log = std::function<void(const std::string&)>;

  DeviceLink(boost::asio::io_context& io, const Clock& clock, SteadyTime epoch,
             drivers::BoardSpec spec, BoardSession& session, Log log);
  ~DeviceLink();
  DeviceLink(const DeviceLink&) = delete;
  DeviceLink& operator=(const DeviceLink&) = delete;

  void start();
  void stop();
  bool connected() const { return port_.has_value() && !probing_; }
  // Re-arms the timer after something outside the link (a command) moved a deadline.
  void reschedule() { rearm_timer(); }
  // Queues a clock command on the driver (DGT 3000 display texts, daemon/sinks); false
  // without a confirmed link or a clock.
  bool send_clock(const drivers::ClockCommand& command);

 private:
  Millis now_ms() const;
  void try_connect();
  bool open_port(const std::string& path);
  void lose(const std::string& reason);
  void schedule_reconnect();
  void wait_readable();
  void wait_writable();
  void on_readable();
  void flush();
  void handle(drivers::DecoderOutput& out);
  void rearm_timer();
  void on_timer();

  boost::asio::io_context& io_;
  const Clock& clock_;
  SteadyTime epoch_;
  drivers::BoardSpec spec_;
  BoardSession& session_;
  Log log_;
  drivers::dgt::DgtDriver driver_;
  drivers::Backoff backoff_{std::chrono::milliseconds(100), std::chrono::milliseconds(4000)};
  std::optional<drivers::TtyPort> port_;
  std::optional<boost::asio::posix::stream_descriptor> stream_;
  boost::asio::steady_timer timer_;
  std::vector<std::uint8_t> unsent_;
  bool writing_ = false;
  std::optional<SteadyTime> reconnect_at_;
  bool failure_reported_ = false;
  bool stopped_ = false;
  // dgt:auto probing
  bool probing_ = false;
  std::vector<std::string> candidates_;
  std::size_t next_candidate_ = 0;
  std::optional<SteadyTime> probe_deadline_;
  std::string device_path_;
};

}  // namespace eboard::daemon
