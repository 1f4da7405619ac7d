#include "daemon/programs/eboard_dump/dump_session.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>

#include "daemon/core/device_link.h"
#include "daemon/core/usb_watcher.h"
#include "drivers/clock_sides.h"
#include "simulators/script/script_writer.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
namespace script = eboard::script;
namespace asio = boost::asio;

// Prints what the link reports as sensor-script lines, timestamps since the start.
class DumpPrinter final : public LinkListener {
 public:
  DumpPrinter(const DumpOptions& options, std::ostream& lines, std::ostream& log)
      : options_(options), lines_(lines), log_(log), sides_(options.spec.white) {}

  const std::string& board_id() const override { return id_; }
  void on_link_up() override {}
  void device_status(v1::DeviceRole role, v1::DeviceState state, const std::string& detail,
                     Millis) override;
  void on_sensor(const drivers::SensorEvent& event, Millis now) override;

  bool ever_connected() const { return ever_connected_; }
  void on_fatal(std::function<void()> stop) { stop_ = std::move(stop); }
  // Set when the device failed before it ever worked: the one line to print.
  const std::optional<std::string>& fatal() const { return fatal_; }

 private:
  void print(const script::Body& body, Millis now);
  void print_placement(const drivers::Placement& placement, Millis now);

  const DumpOptions& options_;
  std::ostream& lines_;
  std::ostream& log_;
  drivers::ClockSides sides_;
  std::string id_ = "dump";
  std::optional<std::pair<long long, long long>> last_clock_;
  bool ever_connected_ = false;
  std::optional<std::string> fatal_;
  std::function<void()> stop_;
};

void DumpPrinter::device_status(v1::DeviceRole role, v1::DeviceState state,
                                const std::string& detail, Millis) {
  if (role == v1::DEVICE_ROLE_CLOCK) {
    log_ << "eboard-dump: no clock connected to the board\n";
    return;
  }
  switch (state) {
    case v1::DEVICE_STATE_CONNECTED:
      ever_connected_ = true;
      log_ << "eboard-dump: connected: " << detail << "\n";
      break;
    case v1::DEVICE_STATE_RESYNCING:
      log_ << "eboard-dump: resynchronising: " << detail << "\n";
      break;
    case v1::DEVICE_STATE_FAILED: log_ << "eboard-dump: " << detail << "\n"; break;
    case v1::DEVICE_STATE_DISCONNECTED: {
      const bool fixed = options_.spec.device != "auto" && options_.spec.device != "usb";
      if (fixed && !ever_connected_) {
        fatal_ = detail.substr(0, detail.rfind("; retrying"));
        if (stop_) stop_();
      } else {
        log_ << "eboard-dump: " << detail << "\n";
      }
      break;
    }
    case v1::DEVICE_STATE_CONNECTING:  // a path says nothing new; `auto` says what it seeks
      if (options_.spec.device == "auto" || options_.spec.device == "usb") {
        log_ << "eboard-dump: " << detail << "\n";
      }
      break;
    default: log_ << "eboard-dump: " << detail << "\n"; break;
  }
}

void DumpPrinter::print(const script::Body& body, Millis now) {
  script::write_statement(lines_, script::Statement{0, now, body});
  lines_.flush();
}

// Result pieces cannot stand in a FEN placement (digits are empty squares there), so they
// follow it as `put` lines at the same time.
void DumpPrinter::print_placement(const drivers::Placement& placement, Millis now) {
  script::Placement p;
  std::vector<script::Put> result_pieces;
  for (int sq = 0; sq < 64; ++sq) {
    const char c = drivers::piece_letter(placement[sq]);
    const bool result = c >= '1' && c <= '3';
    p.squares[sq] = result ? script::kEmptySquare : c;
    if (result) result_pieces.push_back(script::Put{sq, c});
  }
  print(p, now);
  for (const auto& put : result_pieces) print(put, now);
}

void DumpPrinter::on_sensor(const drivers::SensorEvent& event, Millis now) {
  if (const auto* seen = std::get_if<drivers::PlacementSeen>(&event)) {
    print_placement(seen->placement, now);
  } else if (const auto* change = std::get_if<drivers::SquareChanged>(&event)) {
    if (change->piece == drivers::Piece::kEmpty) {
      print(script::Lift{change->square}, now);
    } else {
      print(script::Put{change->square, drivers::piece_letter(change->piece)}, now);
    }
  } else if (const auto* lever = std::get_if<drivers::LeverPressed>(&event)) {
    print(script::Lever{sides_.is_white(lever->side) ? script::Side::kWhite : script::Side::kBlack},
          now);
  } else if (const auto* flag = std::get_if<drivers::FlagShown>(&event)) {
    print(script::Flag{sides_.is_white(flag->side) ? script::FlagSide::kWhite
                                                   : script::FlagSide::kBlack},
          now);
  } else if (std::holds_alternative<drivers::BothFlagsShown>(event)) {
    print(script::Flag{script::FlagSide::kBoth}, now);
  } else if (const auto* reading = std::get_if<drivers::ClockReading>(&event)) {
    sides_.observe(*reading);
    const bool white_left = sides_.white_side() == drivers::ClockSide::kLeft;
    const auto white = white_left ? reading->left : reading->right;
    const auto black = white_left ? reading->right : reading->left;
    const std::pair<long long, long long> shown{white.count(), black.count()};
    if (last_clock_ != shown) print(script::ClockTime{white, black, {}, {}}, now);
    last_clock_ = shown;
  }
}

}  // namespace

int run_dump(const DumpOptions& options, std::ostream& lines, std::ostream& log) {
  asio::io_context io(1);
  SystemClock clock;
  DumpPrinter printer(options, lines, log);
  std::unique_ptr<drivers::UsbBus> bus;
  std::string error;
  bus = options.usb_emulator.empty() ? drivers::make_libusb_bus(error)
                                     : drivers::make_emulated_bus(options.usb_emulator, error);
  if (!bus && !error.empty()) log << "eboard-dump: " << error << " (no USB boards)\n";
  std::unique_ptr<drivers::SerialPorts> serial_ports;
  if (!options.serial_emulator.empty()) {
    serial_ports = drivers::make_emulated_serial_ports(options.serial_emulator, error);
    if (!serial_ports) {
      log << "eboard-dump: " << error << "\n";
      return 2;
    }
  }
  LinkOptions link_options;
  link_options.usb = bus.get();
  link_options.serial = serial_ports.get();
  link_options.state_dir = options.state_dir;
  DeviceLink link(
      io, clock, clock.now(), options.spec, printer,
      [&log](LogLevel, const std::string& line) { log << "eboard-dump: " << line << "\n"; },
      link_options);
  std::optional<UsbWatcher> watcher;
  const auto hotplug = [&link](const auto& events) { link.on_usb_events(events); };
  if (bus) watcher.emplace(io, *bus, hotplug);
  std::optional<UsbWatcher> serial_watcher;
  if (serial_ports) serial_watcher.emplace(io, *serial_ports, hotplug);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&io](const boost::system::error_code& e, int) {
    if (!e) io.stop();
  });
  asio::steady_timer end(io);
  if (options.duration) {
    end.expires_after(*options.duration);
    end.async_wait([&io](const boost::system::error_code& e) {
      if (!e) io.stop();
    });
  }
  // A fixed path that fails before it ever worked ends the run.
  printer.on_fatal([&io] { io.stop(); });
  if (options.recalibrate && !link.recalibrate()) {
    log << "eboard-dump: " << options.spec.driver << " boards need no calibration\n";
  }
  link.start();
  if (!printer.fatal()) io.run();
  link.stop();
  if (printer.fatal()) {
    log << "eboard-dump: " << *printer.fatal() << "\n";
    return 2;
  }
  if (!printer.ever_connected()) {
    log << "eboard-dump: " << options.spec.driver << ":" << options.spec.device
        << ": no board answered\n";
    return 2;
  }
  return 0;
}

}  // namespace eboard::daemon
