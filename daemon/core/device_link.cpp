#include "daemon/core/device_link.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "drivers/transport/serial_ports.h"
#include "drivers/transport/tty_port.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using boost::system::error_code;
namespace asio = boost::asio;

constexpr auto kProbeTime = std::chrono::seconds(3);
// With hot-plug, a board that is not there is looked for on arrivals; this rescan only
// catches ports that come without a USB arrival (a Bluetooth rfcomm bound later).
constexpr auto kSafetyRescan = std::chrono::seconds(30);
// A USB serial adapter's tty appears a moment after the USB device itself.
constexpr auto kTtyAppears = std::chrono::milliseconds(500);

class SessionListener final : public LinkListener {
 public:
  explicit SessionListener(BoardSession& session) : session_(session) {}
  const std::string& board_id() const override { return session_.board_id(); }
  void on_link_up() override { session_.on_link_up(); }
  void on_sensor(const drivers::SensorEvent& event, Millis now) override {
    session_.on_sensor(event, now);
  }
  void on_sensor_read(const drivers::SensorEvent& event, Millis read_at, Millis now) override {
    session_.on_sensor_read(event, read_at, now);
  }
  void device_status(v1::DeviceRole role, v1::DeviceState state, const std::string& detail,
                     Millis now) override {
    session_.device_status(role, state, detail, now);
  }
  void advance(Millis now) override { session_.advance(now); }
  std::optional<Millis> next_deadline() const override { return session_.next_deadline(); }

 private:
  BoardSession& session_;
};

std::string calibration_path(const LinkOptions& options, const std::string& board) {
  return options.state_dir.empty() ? "" : options.state_dir + "/" + board + ".calibration";
}

std::string read_text(const std::string& path) {
  if (path.empty()) return "";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

DeviceLink::DeviceLink(asio::io_context& io, const Clock& clock, SteadyTime epoch,
                       drivers::BoardSpec spec, LinkListener& listener, Log log,
                       LinkOptions options)
    : DeviceLink(io, clock, epoch, std::move(spec), nullptr, &listener, std::move(log),
                 std::move(options)) {}

DeviceLink::DeviceLink(asio::io_context& io, const Clock& clock, SteadyTime epoch,
                       drivers::BoardSpec spec, BoardSession& session, Log log, LinkOptions options)
    : DeviceLink(io, clock, epoch, std::move(spec), std::make_unique<SessionListener>(session),
                 nullptr, std::move(log), std::move(options)) {}

DeviceLink::DeviceLink(asio::io_context& io, const Clock& clock, SteadyTime epoch,
                       drivers::BoardSpec spec, std::unique_ptr<LinkListener> owned,
                       LinkListener* listener, Log log, LinkOptions options)
    : io_(io),
      clock_(clock),
      epoch_(epoch),
      spec_(std::move(spec)),
      owned_listener_(std::move(owned)),
      listener_(owned_listener_ ? *owned_listener_ : *listener),
      log_(std::move(log)),
      options_(std::move(options)),
      info_(drivers::find_driver(spec_.driver)),
      timer_(io) {
  if (options_.time_scale <= 0) options_.time_scale = 1.0;
  if (info_ == nullptr) info_ = drivers::find_driver("dgt");
  drivers::DecoderContext context;
  context.calibration = read_text(calibration_path(options_, listener_.board_id()));
  decoder_ = drivers::make_decoder(spec_, context);
  if (!decoder_) {  // not a factory driver: config.cpp lets none through; DGT as before
    drivers::BoardSpec dgt = spec_;
    dgt.driver = "dgt";
    decoder_ = drivers::make_decoder(dgt);
  }
}

DeviceLink::~DeviceLink() { stop(); }

Millis DeviceLink::now_ms() const { return session_time(clock_.now()); }

Millis DeviceLink::session_time(SteadyTime at) const {
  if (options_.time_scale == 1.0) return std::chrono::duration_cast<Millis>(at - epoch_);
  const std::chrono::duration<double, std::milli> real = at - epoch_;
  return std::chrono::duration_cast<Millis>(real * options_.time_scale);
}

void DeviceLink::start() {
  const std::string board(info_->board);
  std::string looking = spec_.device;
  if (spec_.device == "auto" || spec_.device == "usb") {
    looking = spec_.serial ? "looking for the " + board + " with serial " + *spec_.serial
                           : "looking for a " + board;
  }
  listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_CONNECTING, looking, now_ms());
  if (spec_.device == "auto") {
    claims_->wait_for_release(this, [this](const std::string& path) { on_port_released(path); });
  }
  try_connect();
}

void DeviceLink::stop() {
  stopped_ = true;
  timer_.cancel();
  claims_->stop_waiting(this);
  close_port();
}

// Another link let go of a port this one passed over as held: look again now (from
// inside that link, so only scheduled). A probe of this link's own is looked at when it
// ends (try_connect()).
void DeviceLink::on_port_released(const std::string& path) {
  if (stopped_ || port_ || held_skipped_.count(path) == 0) return;
  held_skipped_.clear();
  reconnect_at_ = clock_.now();
  rearm_timer();
}

void DeviceLink::close_port() {
  if (stream_) {
    stream_->cancel();
    stream_->release();  // the transport owns and closes the fd
    stream_.reset();
  }
  port_.reset();
  if (!claimed_.empty()) claims_->release(claimed_);
  claimed_.clear();
}

// Held while the link probes or uses the port (or USB device): no other link opens it.
bool DeviceLink::claim(const std::string& path) {
  if (!claims_->claim(path)) {
    report_failure(path + ": another board holds it");
    return false;
  }
  claimed_ = path;
  return true;
}

// A board's own serial number (DGT): `serial=N` takes that board only; without, a board
// that no `serial=N` board is named by.
bool DeviceLink::wanted_serial(const std::string& serial) const {
  return spec_.serial ? serial == *spec_.serial : !claims_->serial_named(serial);
}

void DeviceLink::report_failure(const std::string& detail) {
  if (failure_reported_) return;
  listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_DISCONNECTED,
                          detail + "; retrying", now_ms());
  failure_reported_ = true;
}

void DeviceLink::attach(drivers::TransportPtr port) {
  port_ = std::move(port);
  stream_.emplace(io_, port_->fd());
  ++opened_;
  reading_ = false;
  device_path_ = port_->name();
  unsent_.clear();
  writing_ = false;
  drivers::DecoderOutput out;
  decoder_->on_connected(clock_.now(), out);
  if (!probing_) listener_.on_link_up();
  handle(out);
  wait_readable();
}

bool DeviceLink::open_serial(const std::string& path) {
  if (!claim(path)) return false;
  auto opened = drivers::TtyPort::open(path, info_->line);
  if (auto* error = std::get_if<drivers::IoError>(&opened)) {
    claims_->forget(path);
    close_port();
    report_failure(error->message);  // it names the path
    return false;
  }
  attach(std::make_unique<drivers::TtyPort>(std::move(std::get<drivers::TtyPort>(opened))));
  return true;
}

bool DeviceLink::ours_usb(const drivers::UsbDeviceInfo& device) const {
  return std::any_of(info_->usb.begin(), info_->usb.end(), [&](const auto& id) {
    return id.matches(device.vendor_id, device.product_id);
  });
}

bool DeviceLink::wanted_usb(const drivers::UsbDeviceInfo& device) const {
  if (!ours_usb(device) || claims_->taken(device.location)) return false;
  return spec_.serial ? device.serial == *spec_.serial
                      : device.serial.empty() || !claims_->serial_named(device.serial);
}

bool DeviceLink::open_usb(const drivers::UsbDeviceInfo& device) {
  if (!claim(device.location)) return false;
  auto opened = options_.usb->open_hid(device);
  if (auto* error = std::get_if<drivers::IoError>(&opened)) {
    close_port();
    report_failure(error->message);
    return false;
  }
  if (known_serial_ && !device.serial.empty() && *known_serial_ != device.serial) {
    log_(LogLevel::kWarning, "board " + listener_.board_id() + ": another board, serial " +
                                 device.serial + ", was plugged in (serial " + *known_serial_ +
                                 " before)");
  }
  if (!device.serial.empty()) known_serial_ = device.serial;
  attach(std::move(std::get<drivers::TransportPtr>(opened)));
  return true;
}

// A family without its own serial number (ChessLink, Certabo): its USB adapter's.
bool DeviceLink::wanted_adapter(const std::string& usb_serial) const {
  if (spec_.serial) return usb_serial == *spec_.serial;
  return usb_serial.empty() || !claims_->serial_named(usb_serial);
}

// The ports to probe, in the listing's order but those known to hold this link's board
// first; what the listing no longer shows is forgotten.
std::vector<DeviceLink::Candidate> DeviceLink::list_candidates() {
  std::vector<Candidate> found;
  std::set<std::string> listed;
  if (lister_) {
    for (auto& path : lister_()) {
      listed.insert(path);
      found.push_back({std::move(path), {}});
    }
  } else {
    const auto ports = options_.serial ? options_.serial->ports() : drivers::list_serial_ports();
    for (const auto& port : ports) listed.insert(port.path);
    for (const auto& port : drivers::serial_candidates(ports, info_->usb, info_->probe_others)) {
      // A family without its own serial number is picked by the USB adapter's.
      if (!info_->device_names_serial && !wanted_adapter(port.usb_serial)) continue;
      found.push_back({port.path, {port.description, port.usb_serial}});
    }
  }
  claims_->forget_unlisted(listed);
  std::stable_partition(found.begin(), found.end(),
                        [this](const Candidate& c) { return known_wanted(c); });
  return found;
}

// Another link's probe (or an earlier one of this link) read the board on the port.
bool DeviceLink::known_unwanted(const Candidate& candidate) const {
  const auto board = claims_->known(candidate.path, candidate.identity);
  if (!board) return false;
  if (board->driver != info_->name) return true;
  return info_->device_names_serial && !wanted_serial(board->serial);
}

bool DeviceLink::known_wanted(const Candidate& candidate) const {
  const auto board = claims_->known(candidate.path, candidate.identity);
  return board && board->driver == info_->name &&
         (!info_->device_names_serial || wanted_serial(board->serial));
}

// What the board on the port is, for every link that would probe it (auto only: a fixed
// path is not listed).
void DeviceLink::learn(const std::string& serial) {
  if (spec_.device != "auto" || !port_) return;
  claims_->learn(device_path_, port_identity_, {std::string(info_->name), serial});
}

bool DeviceLink::try_candidates() {
  if (next_candidate_ == 0) {
    held_skipped_.clear();
    candidates_ = list_candidates();
  }
  while (next_candidate_ < candidates_.size()) {
    const Candidate candidate = candidates_[next_candidate_++];
    if (known_unwanted(candidate)) continue;  // not opened again while it stays plugged in
    if (claims_->taken(candidate.path)) {     // another board's, or being probed by one
      held_skipped_.insert(candidate.path);
      continue;
    }
    probing_ = true;
    port_identity_ = candidate.identity;
    if (open_serial(candidate.path)) {
      if (port_) probe_deadline_ = clock_.now() + kProbeTime;
      return true;
    }
  }
  probing_ = false;
  next_candidate_ = 0;
  return false;
}

void DeviceLink::try_connect() {
  if (stopped_) return;
  reconnect_at_.reset();
  // "no DGT board with serial 24680", "no free Certabo board"
  const std::string none = spec_.serial
                               ? "no " + std::string(info_->board) + " with serial " + *spec_.serial
                               : "no free " + std::string(info_->board);
  if (info_->transport == drivers::TransportKind::kUsbHid) {
    bool opened = false;
    skipped_held_ = false;
    if (options_.usb) {
      for (const auto& device : options_.usb->devices()) {
        skipped_held_ = skipped_held_ || (ours_usb(device) && claims_->taken(device.location));
        if (wanted_usb(device) && (opened = open_usb(device))) break;
      }
    }
    if (!opened) {
      report_failure(options_.usb ? none + " on " + options_.usb->name()
                                  : std::string("no USB bus"));
      schedule_reconnect(!skipped_held_);
    }
  } else if (spec_.device != "auto") {
    if (!open_serial(spec_.device)) schedule_reconnect(false);
  } else if (!try_candidates()) {
    report_failure(none + " found");
    // A port another link held and let go while this one probed is looked at now; one
    // still held wakes this link when it is let go (on_port_released()).
    const bool released = std::any_of(held_skipped_.begin(), held_skipped_.end(),
                                      [this](const std::string& p) { return !claims_->taken(p); });
    if (released) {
      held_skipped_.clear();
      reconnect_at_ = clock_.now();
    } else {
      schedule_reconnect(true);
    }
    if (arrival_look_at_ && *arrival_look_at_ > clock_.now() && *arrival_look_at_ < *reconnect_at_)
      reconnect_at_ = arrival_look_at_;
  }
  rearm_timer();
}

void DeviceLink::schedule_reconnect(bool found_nothing) {
  const bool hotplug = (options_.usb && options_.usb->hotplug_fd() >= 0) ||
                       (options_.serial && options_.serial->hotplug_fd() >= 0);
  reconnect_at_ = clock_.now() +
                  (found_nothing && hotplug
                       ? std::chrono::duration_cast<SteadyTime::duration>(kSafetyRescan)
                       : std::chrono::duration_cast<SteadyTime::duration>(backoff_.next_delay()));
}

void DeviceLink::on_usb_events(const std::vector<drivers::UsbEvent>& events) {
  const bool hid = info_->transport == drivers::TransportKind::kUsbHid;
  for (const auto& event : events) {
    if (event.change == drivers::UsbChange::kLeft) {
      if (!hid) claims_->forget_usb(event.device.serial);
      if (hid && port_ && event.device.location == device_path_) {
        lose("unplugged");
        return;
      }
      continue;
    }
    if (port_ || stopped_ || (hid && !wanted_usb(event.device))) continue;
    if (!hid && spec_.device != "auto") continue;  // a fixed path retries on its own
    const auto soon =
        clock_.now() + (hid ? SteadyTime::duration::zero()
                            : std::chrono::duration_cast<SteadyTime::duration>(kTtyAppears));
    if (!reconnect_at_ || soon < *reconnect_at_) reconnect_at_ = soon;
    if (!hid) arrival_look_at_ = soon;
    rearm_timer();
  }
}

void DeviceLink::lose(const std::string& reason, PortGone gone) {
  const bool was_probing = probing_;
  if (gone == PortGone::kMaybe && spec_.device == "auto") claims_->forget(device_path_);
  decoder_->on_disconnected();
  close_port();
  unsent_.clear();
  writing_ = false;
  probe_deadline_.reset();
  if (was_probing) {
    try_connect();  // the next candidate
    return;
  }
  // Transport errors name the device already.
  const bool named = reason.rfind(device_path_, 0) == 0;
  listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_DISCONNECTED,
                          (named ? reason : device_path_ + ": " + reason) + "; retrying", now_ms());
  failure_reported_ = true;
  next_candidate_ = 0;
  schedule_reconnect(info_->transport == drivers::TransportKind::kUsbHid || spec_.device == "auto");
  rearm_timer();
}

// One read wait per port at a time. A port can be replaced from inside its own read (a
// probe dropped, the next candidate opened): the new port's wait is armed by attach(),
// and on_readable() must not arm a second, whose read would find nothing - which a tty
// with VMIN 0 reports as end of file, a hang-up.
void DeviceLink::wait_readable() {
  if (!stream_ || reading_) return;
  reading_ = true;
  stream_->async_wait(asio::posix::stream_descriptor::wait_read,
                      [this, opened = opened_](const error_code& error) {
                        if (opened != opened_) return;  // a port closed since
                        reading_ = false;
                        if (error || !port_) return;
                        on_readable();
                      });
}

void DeviceLink::wait_writable() {
  if (!stream_ || writing_) return;
  writing_ = true;
  stream_->async_wait(asio::posix::stream_descriptor::wait_write, [this](const error_code& error) {
    writing_ = false;
    if (error || !port_) return;
    flush();
  });
}

void DeviceLink::on_readable() {
  std::uint8_t buffer[4096];
  const auto n = port_->read_some(buffer);
  if (auto* error = std::get_if<drivers::IoError>(&n)) {
    lose(error->message);
    return;
  }
  drivers::DecoderOutput out;
  decoder_->on_bytes(std::span(buffer, std::get<std::size_t>(n)), clock_.now(), out);
  handle(out);
  if (port_) wait_readable();
}

void DeviceLink::flush() {
  while (port_ && !unsent_.empty()) {
    const auto written = port_->write_some(unsent_);
    if (auto* error = std::get_if<drivers::IoError>(&written)) {
      lose(error->message);
      return;
    }
    const std::size_t n = std::get<std::size_t>(written);
    if (n == 0) break;
    unsent_.erase(unsent_.begin(), unsent_.begin() + static_cast<long>(n));
  }
  if (port_ && !unsent_.empty()) wait_writable();
}

bool DeviceLink::send_clock(const drivers::ClockCommand& command) {
  if (!connected()) return false;
  drivers::DecoderOutput out;
  const bool queued = decoder_->send_clock(command, clock_.now(), out);
  handle(out);
  return queued;
}

bool DeviceLink::set_lights(const drivers::Lights& lights) {
  if (!connected()) return false;
  drivers::DecoderOutput out;
  const bool shown = decoder_->set_lights(lights, clock_.now(), out);
  handle(out);
  return shown;
}

bool DeviceLink::recalibrate() {
  drivers::DecoderOutput out;
  const bool started = decoder_->recalibrate(clock_.now(), out);
  handle(out);
  return started;
}

void DeviceLink::store_calibration(const std::string& text) {
  const std::string path = calibration_path(options_, listener_.board_id());
  log_(LogLevel::kInfo, "board " + listener_.board_id() + ": calibrated" +
                            (path.empty() ? "" : ", kept in " + path));
  if (path.empty()) return;
  const std::string temporary = path + ".new";
  std::ofstream(temporary) << text;
  std::rename(temporary.c_str(), path.c_str());
}

}  // namespace eboard::daemon
