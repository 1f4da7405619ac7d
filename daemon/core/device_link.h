// The I/O side of one board: its transport (a tty, an emulator's pty, a USB HID device),
// its family's decoder from the factory (drivers/factory.h), reconnection with capped
// backoff, hot-plug, and the one timer that serves the decoder's and the game's
// deadlines - all on the event loop, never blocking (style.md "Event loop and I/O").
// What the decoder reports goes to a LinkListener (the board's BoardSession in the
// daemon, the printer in eboard-dump); link changes become deviceStatus calls (connect,
// loss, resync, refusal).
//
// Finding the device (the spec's DEVICE):
// - a path: opened as it is, with the family's line settings;
// - `auto` (serial families): each candidate port in turn (serial_ports.h); with
//   `serial=N` a DGT candidate is kept once the board on it names that serial number and
//   is then handshaken again so the listener gets a fresh full dump, another family's
//   candidate is picked by its USB serial number; without, the first that confirms and
//   whose serial number no other board is named by (a DGT board's own, another family's
//   USB adapter's);
// - `usb` (USB HID families): the first device on the USB bus with the family's ids (and
//   the serial number, if given; without, one whose serial no other board is named by).
// The daemon's links share one PortClaims (port_claims.h, share_ports()): a port or USB
// device that another link holds or probes is skipped, and an auto board never probes a
// port another board's spec names, so several auto boards of one or several families
// share the ports. What a probe learns is shared too: a port known to hold a board of
// another family, or a DGT board of a serial number this link does not want, is passed
// over without being opened (until the port goes away), and a port known to hold this
// link's board is probed first. A link that skipped a port another link held is woken
// when that port is let go (a probe that passed the board over ends), not on a timer.
// A board that names another serial number than `serial=` on a fixed path is refused
// (not taken, retried); without `serial=`, a different board showing up on the same path
// after a reconnect is taken with a warning naming both serial numbers.
//
// Hot-plug: with a USB bus that reports arrivals and
// departures (usb_bus.h), or emulated serial ports that do (serial_ports.h), a board that
// is not there is looked for again when a device arrives (after a moment for a serial
// port, whose tty appears after the USB device), not on a timer; only where there is no
// hot-plug, and for fixed paths, the backoff timer retries. A USB board that leaves is
// detached at once; a serial one when its tty reads as hung up.
//
// A failure here is this board's alone: every error ends in "disconnected, retrying".
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "daemon/core/board_session.h"
#include "daemon/core/clock.h"
#include "daemon/core/log.h"
#include "daemon/core/port_claims.h"
#include "drivers/board_spec.h"
#include "drivers/decoder.h"
#include "drivers/factory.h"
#include "drivers/reconnect.h"
#include "drivers/transport/serial_ports.h"
#include "drivers/transport/transport.h"
#include "drivers/transport/usb_bus.h"

namespace eboard::daemon {

// Who hears a link: BoardSession's calls of the same names.
class LinkListener {
 public:
  virtual ~LinkListener() = default;
  virtual const std::string& board_id() const = 0;
  virtual void on_link_up() = 0;
  virtual void on_sensor(const drivers::SensorEvent& event, Millis now) = 0;
  // A clock reading, or a press it showed, that the driver reports later than the reading
  // arrived (`read_at`, on the game's time line like `now`, and not after it).
  virtual void on_sensor_read(const drivers::SensorEvent& event, Millis /*read_at*/, Millis now) {
    on_sensor(event, now);
  }
  virtual void device_status(eboard::v1::DeviceRole role, eboard::v1::DeviceState state,
                             const std::string& detail, Millis now) = 0;
  virtual void advance(Millis /*now*/) {}
  virtual std::optional<Millis> next_deadline() const { return std::nullopt; }
};

struct LinkOptions {
  // How much faster than real time the board's game runs: 1 for a real board; a `sim:`
  // board's emulator speed, so the game tracker's clock model and timings run at the
  // emulated clock's pace. Only the game's time line is scaled; link timeouts stay real.
  double time_scale = 1.0;
  drivers::UsbBus* usb = nullptr;  // the daemon's bus (libusb or emulated); may be null
  // Where `auto` finds serial ports (libserialport or emulated); null: libserialport.
  drivers::SerialPorts* serial = nullptr;
  // Where a board's calibration is kept (Certabo), as DIR/BOARD.calibration; "" = nowhere.
  std::string state_dir;
};

class DeviceLink {
 public:
  // Lines for the log (the daemon's Logger; eboard-dump prints them).
  using Log = std::function<void(LogLevel, const std::string&)>;

  // `spec.driver` must be one the factory knows (config.cpp checks).
  DeviceLink(boost::asio::io_context& io, const Clock& clock, SteadyTime epoch,
             drivers::BoardSpec spec, LinkListener& listener, Log log, LinkOptions options);
  DeviceLink(boost::asio::io_context& io, const Clock& clock, SteadyTime epoch,
             drivers::BoardSpec spec, BoardSession& session, Log log, LinkOptions options);
  DeviceLink(boost::asio::io_context& io, const Clock& clock, SteadyTime epoch,
             drivers::BoardSpec spec, BoardSession& session, Log log, double time_scale = 1.0)
      : DeviceLink(io, clock, epoch, std::move(spec), session, std::move(log),
                   LinkOptions{time_scale, nullptr, nullptr, ""}) {}
  ~DeviceLink();
  DeviceLink(const DeviceLink&) = delete;
  DeviceLink& operator=(const DeviceLink&) = delete;

  // The daemon's boards share one PortClaims (before start()); without it, this link's
  // own. `lister` replaces the serial-port enumeration of `auto` (tests: ptys).
  using PortLister = std::function<std::vector<std::string>()>;
  void share_ports(PortClaims& claims) { claims_ = &claims; }
  void set_port_lister(PortLister lister) { lister_ = std::move(lister); }
  void start();
  void stop();
  bool connected() const { return port_ != nullptr && !probing_; }
  // `now` on the board's game time line (what BoardSession calls take).
  Millis session_now() const { return now_ms(); }
  // When the link's timer is due (the earliest of reconnect, probe, decoder and game
  // deadlines), and its handler: the daemon's asio timer calls on_timer() then; tests
  // with a ManualClock advance it to next_wake() and call on_timer() themselves.
  std::optional<SteadyTime> next_wake() const { return wake_; }
  void on_timer();
  // Re-arms the timer after something outside the link (a command) moved a deadline.
  void reschedule() { rearm_timer(); }
  // Queues a clock command on the decoder (DGT 3000 display texts, daemon/sinks); false
  // without a confirmed link or a clock.
  bool send_clock(const drivers::ClockCommand& command);
  // The board's LEDs (board_lights.h); false when it has none or the link is down.
  bool set_lights(const drivers::Lights& lights);
  // Learn the pieces again from the next start position (Certabo); false if not needed.
  bool recalibrate();
  // Devices came or went on the USB bus (the daemon's hot-plug watcher).
  void on_usb_events(const std::vector<drivers::UsbEvent>& events);
  const drivers::DriverInfo& driver() const { return *info_; }

 private:
  DeviceLink(boost::asio::io_context& io, const Clock& clock, SteadyTime epoch,
             drivers::BoardSpec spec, std::unique_ptr<LinkListener> owned, LinkListener* listener,
             Log log, LinkOptions options);
  Millis now_ms() const;
  Millis session_time(SteadyTime at) const;  // `at` on the game's time line (time_scale)
  void try_connect();
  struct Candidate {
    std::string path;
    PortClaims::PortIdentity identity;  // empty for a lister's paths
  };
  bool try_candidates();
  std::vector<Candidate> list_candidates();
  bool known_unwanted(const Candidate& candidate) const;
  bool known_wanted(const Candidate& candidate) const;
  void learn(const std::string& serial);
  void on_port_released(const std::string& path);
  bool open_serial(const std::string& path);
  bool open_usb(const drivers::UsbDeviceInfo& device);
  void attach(drivers::TransportPtr port);
  void report_failure(const std::string& detail);
  // kMaybe: the port may be gone or hold another board now (what was learned of it is
  // forgotten); kNo: the board on it is known and stays (passed over, refused).
  enum class PortGone : std::uint8_t { kMaybe, kNo };
  void lose(const std::string& reason, PortGone gone = PortGone::kMaybe);
  void schedule_reconnect(bool found_nothing);
  void wait_readable();
  void wait_writable();
  void on_readable();
  void flush();
  void handle(drivers::DecoderOutput& out);
  enum class Next : std::uint8_t { kGoOn, kStop, kDropped };
  Next handle_link_status(const drivers::LinkStatus& status, Millis now);
  Next handle_info(const drivers::DeviceInfo& info, drivers::DecoderOutput& out);
  void store_calibration(const std::string& text);
  void rearm_timer();
  bool ours_usb(const drivers::UsbDeviceInfo& device) const;
  bool wanted_usb(const drivers::UsbDeviceInfo& device) const;
  bool wanted_serial(const std::string& serial) const;
  bool wanted_adapter(const std::string& usb_serial) const;
  bool claim(const std::string& path);
  void close_port();

  boost::asio::io_context& io_;
  const Clock& clock_;
  SteadyTime epoch_;
  drivers::BoardSpec spec_;
  std::unique_ptr<LinkListener> owned_listener_;  // the adapter when given a BoardSession
  LinkListener& listener_;
  Log log_;
  LinkOptions options_;
  const drivers::DriverInfo* info_;
  std::unique_ptr<drivers::Decoder> decoder_;
  drivers::Backoff backoff_{std::chrono::milliseconds(100), std::chrono::milliseconds(4000)};
  drivers::TransportPtr port_;
  std::optional<boost::asio::posix::stream_descriptor> stream_;
  boost::asio::steady_timer timer_;
  std::vector<std::uint8_t> unsent_;
  bool writing_ = false;
  bool reading_ = false;      // a read wait is armed on the port
  std::uint64_t opened_ = 0;  // ports attached so far: a wait for an older one is stale
  std::optional<SteadyTime> reconnect_at_;
  // auto: the look after a device arrived, once its tty is there; kept when a port let go
  // brings a look forward (on_port_released()).
  std::optional<SteadyTime> arrival_look_at_;
  bool failure_reported_ = false;
  bool stopped_ = false;
  // auto / usb: probing candidates
  bool probing_ = false;
  std::vector<Candidate> candidates_;
  PortClaims::PortIdentity port_identity_;  // of the port probed or used
  std::size_t next_candidate_ = 0;
  std::optional<SteadyTime> probe_deadline_;
  std::string device_path_;
  std::optional<std::string> known_serial_;  // the serial number the board on it named
  std::string refusal_logged_;
  std::set<std::string> passed_over_logged_;  // candidates of other serial numbers, logged
  std::optional<SteadyTime> wake_;
  PortClaims own_claims_;
  PortClaims* claims_ = &own_claims_;
  std::string claimed_;                 // the port or USB device this link holds in claims_, or ""
  bool skipped_held_ = false;           // the last search passed over a port another link held
  std::set<std::string> held_skipped_;  // auto: the ports the last search found held
  PortLister lister_;
};

}  // namespace eboard::daemon
