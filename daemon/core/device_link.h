// The I/O side of one board: its tty (a real port or an emulator's pty), its DGT driver,
// reconnection with capped backoff, and the one timer that serves the driver's and the
// game's deadlines - all on the event loop, never blocking (style.md "Event loop and I/O").
// What the driver reports goes to the board's BoardSession; link changes become
// deviceStatus events (connect, loss, resync).
//
// `dgt:auto,serial=N` tries each candidate port in turn (serial_ports.h): a candidate
// is kept once the board on it names the wanted serial number, and is then handshaken
// again so the session gets a fresh full dump; candidates that answer with another
// serial, or not within kProbeTime, are closed. `dgt:auto` without serial= keeps the first
// board whose serial no other board is named by (port_claims.h); with the PortClaims of
// share_ports() it skips ports other links hold.
//
// A failure here is this board's alone: every error ends in "disconnected, retrying".
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "daemon/core/board_session.h"
#include "daemon/core/clock.h"
#include "daemon/core/port_claims.h"
#include "drivers/board_spec.h"
#include "drivers/dgt/dgt_driver.h"
#include "drivers/reconnect.h"
#include "drivers/transport/tty_port.h"

namespace eboard::daemon {

class DeviceLink {
 public:
  using Log = std::function<void(const std::string&)>;

  // `time_scale`: how much faster than real time the board's game runs. 1 for a real
  // board; a `sim:` board's emulator speed, so the game tracker's clock model and timings
  // run at the emulated clock's pace (with 1 a 10x emulator's clock disagrees with the
  // model by 9 s a second). Only the game's time line is scaled; the driver's link
  // timeouts stay in real time.
  DeviceLink(boost::asio::io_context& io, const Clock& clock, SteadyTime epoch,
             drivers::BoardSpec spec, BoardSession& session, Log log, double time_scale = 1.0);
  ~DeviceLink();
  DeviceLink(const DeviceLink&) = delete;
  DeviceLink& operator=(const DeviceLink&) = delete;

  // The daemon's boards share one PortClaims (before start()); without it, this link's
  // own. `lister` replaces the serial-port enumeration of `dgt:auto` (tests: ptys).
  using PortLister = std::function<std::vector<std::string>()>;
  void share_ports(PortClaims& claims) { claims_ = &claims; }
  void set_port_lister(PortLister lister) { lister_ = std::move(lister); }
  void start();
  void stop();
  bool connected() const { return port_.has_value() && !probing_; }
  // `now` on the board's game time line (what BoardSession calls take).
  Millis session_now() const { return now_ms(); }
  // When the link's timer is due (the earliest of reconnect, probe, driver and game
  // deadlines), and its handler: the daemon's asio timer calls on_timer() then; tests
  // with a ManualClock advance it to next_wake() and call on_timer() themselves.
  std::optional<SteadyTime> next_wake() const { return wake_; }
  void on_timer();
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
  bool wanted_serial(const std::string& serial) const;
  void close_port();

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
  double time_scale_ = 1.0;
  std::optional<SteadyTime> wake_;
  PortClaims own_claims_;
  PortClaims* claims_ = &own_claims_;
  PortLister lister_;
};

}  // namespace eboard::daemon
