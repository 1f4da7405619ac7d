#include "daemon/core/device_link.h"

#include <algorithm>

#include "drivers/transport/serial_ports.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using boost::system::error_code;
namespace asio = boost::asio;

constexpr auto kProbeTime = std::chrono::seconds(3);

std::string looking_for(const drivers::BoardSpec& spec) {
  if (spec.device != "auto") return spec.device;
  return spec.serial ? "looking for serial " + *spec.serial : "looking for a DGT board";
}

}  // namespace

DeviceLink::DeviceLink(asio::io_context& io, const Clock& clock, SteadyTime epoch,
                       drivers::BoardSpec spec, BoardSession& session, Log log, double time_scale)
    : io_(io),
      clock_(clock),
      epoch_(epoch),
      spec_(std::move(spec)),
      session_(session),
      log_(std::move(log)),
      timer_(io),
      time_scale_(time_scale > 0 ? time_scale : 1.0) {}

DeviceLink::~DeviceLink() { stop(); }

Millis DeviceLink::now_ms() const {
  if (time_scale_ == 1.0) return std::chrono::duration_cast<Millis>(clock_.now() - epoch_);
  const std::chrono::duration<double, std::milli> real = clock_.now() - epoch_;
  return std::chrono::duration_cast<Millis>(real * time_scale_);
}

void DeviceLink::start() {
  session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_CONNECTING, looking_for(spec_),
                         now_ms());
  try_connect();
}

void DeviceLink::stop() {
  stopped_ = true;
  timer_.cancel();
  close_port();
}

void DeviceLink::close_port() {
  if (stream_) {
    stream_->cancel();
    stream_->release();  // the TtyPort owns and closes the fd
    stream_.reset();
  }
  if (port_) claims_->release(device_path_);
  port_.reset();
}

bool DeviceLink::wanted_serial(const std::string& serial) const {
  return spec_.serial ? serial == *spec_.serial : !claims_->serial_named(serial);
}

bool DeviceLink::open_port(const std::string& path) {
  if (!claims_->claim(path)) {
    if (!failure_reported_) {
      session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_DISCONNECTED,
                             path + ": another board holds it; retrying", now_ms());
      failure_reported_ = true;
    }
    return false;
  }
  auto opened = drivers::TtyPort::open(path);
  if (auto* error = std::get_if<drivers::IoError>(&opened)) {
    claims_->release(path);
    if (!failure_reported_) {
      session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_DISCONNECTED,
                             path + ": " + error->message + "; retrying", now_ms());
      failure_reported_ = true;
    }
    return false;
  }
  port_.emplace(std::move(std::get<drivers::TtyPort>(opened)));
  stream_.emplace(io_, port_->fd());
  device_path_ = path;
  unsent_.clear();
  writing_ = false;
  drivers::DecoderOutput out;
  driver_.on_connected(clock_.now(), out);
  if (!probing_) session_.on_link_up();
  handle(out);
  wait_readable();
  return true;
}

void DeviceLink::try_connect() {
  if (stopped_) return;
  reconnect_at_.reset();
  if (spec_.device != "auto") {
    if (!open_port(spec_.device)) schedule_reconnect();
    rearm_timer();
    return;
  }
  if (next_candidate_ == 0) {
    candidates_.clear();
    if (lister_) {
      candidates_ = lister_();
    } else {
      for (const auto& port : drivers::dgt_candidates(drivers::list_serial_ports())) {
        candidates_.push_back(port.path);
      }
    }
  }
  while (next_candidate_ < candidates_.size()) {
    const std::string path = candidates_[next_candidate_++];
    if (claims_->taken(path)) continue;  // another board's, or being probed by one
    probing_ = true;
    if (open_port(path)) {
      probe_deadline_ = clock_.now() + kProbeTime;
      rearm_timer();
      return;
    }
  }
  probing_ = false;
  next_candidate_ = 0;
  if (!failure_reported_) {
    session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_DISCONNECTED,
                           (spec_.serial ? "no board with serial " + *spec_.serial + " found"
                                         : std::string("no free DGT board found")) +
                               "; retrying",
                           now_ms());
    failure_reported_ = true;
  }
  schedule_reconnect();
  rearm_timer();
}

void DeviceLink::schedule_reconnect() { reconnect_at_ = clock_.now() + backoff_.next_delay(); }

void DeviceLink::lose(const std::string& reason) {
  const bool was_probing = probing_;
  driver_.on_disconnected();
  close_port();
  unsent_.clear();
  writing_ = false;
  probe_deadline_.reset();
  if (was_probing) {
    try_connect();  // the next candidate
    return;
  }
  session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_DISCONNECTED,
                         device_path_ + ": " + reason + "; retrying", now_ms());
  failure_reported_ = true;
  if (spec_.device == "auto") next_candidate_ = 0;
  schedule_reconnect();
  rearm_timer();
}

void DeviceLink::wait_readable() {
  if (!stream_) return;
  stream_->async_wait(asio::posix::stream_descriptor::wait_read, [this](const error_code& error) {
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
  driver_.on_bytes(std::span(buffer, std::get<std::size_t>(n)), clock_.now(), out);
  handle(out);
  if (port_) wait_readable();
}

void DeviceLink::flush() {
  if (!port_ || unsent_.empty()) return;
  const auto written = port_->write_some(unsent_);
  if (auto* error = std::get_if<drivers::IoError>(&written)) {
    lose(error->message);
    return;
  }
  unsent_.erase(unsent_.begin(),
                unsent_.begin() + static_cast<long>(std::get<std::size_t>(written)));
  if (!unsent_.empty()) wait_writable();
}

bool DeviceLink::send_clock(const drivers::ClockCommand& command) {
  if (!connected()) return false;
  drivers::DecoderOutput out;
  const bool queued = driver_.send_clock(command, clock_.now(), out);
  handle(out);
  return queued;
}

void DeviceLink::handle(drivers::DecoderOutput& out) {
  const Millis now = now_ms();
  for (const drivers::SensorEvent& event : out.events) {
    if (const auto* status = std::get_if<drivers::LinkStatus>(&event)) {
      switch (status->state) {
        case drivers::LinkState::kConfirmed:
          if (!probing_) {
            backoff_.reset();
            failure_reported_ = false;
            session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_CONNECTED,
                                   device_path_ + ": " + status->detail, now);
          }
          break;
        case drivers::LinkState::kResync:
          if (!probing_) {
            session_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_RESYNCING,
                                   device_path_ + ": " + status->detail, now);
          }
          break;
        case drivers::LinkState::kNoAnswer:
        case drivers::LinkState::kSilent: {
          // `status` lives in out.events: keep the text before the events are dropped.
          const std::string detail = status->detail;
          out.events.clear();
          lose(detail);
          return;
        }
      }
      continue;
    }
    if (const auto* info = std::get_if<drivers::DeviceInfo>(&event)) {
      if (probing_ && info->kind == drivers::InfoKind::kSerial) {
        if (wanted_serial(info->text)) {
          // Found: start over on this port so the session sees a fresh handshake and dump.
          probing_ = false;
          probe_deadline_.reset();
          next_candidate_ = 0;
          driver_.on_disconnected();
          drivers::DecoderOutput again;
          driver_.on_connected(clock_.now(), again);
          session_.on_link_up();
          out.events.clear();
          out.to_send.insert(out.to_send.end(), again.to_send.begin(), again.to_send.end());
          break;
        }
        out.events.clear();
        lose("serial " + info->text +
             (spec_.serial ? " is not " + *spec_.serial : " is another board's"));
        return;
      }
      if (info->kind == drivers::InfoKind::kSerial || info->kind == drivers::InfoKind::kVersion) {
        log_("board " + session_.board_id() + ": " +
             (info->kind == drivers::InfoKind::kSerial ? "serial " : "version ") + info->text);
      }
      continue;
    }
    if (const auto* failed = std::get_if<drivers::ClockCommandFailed>(&event)) {
      log_("board " + session_.board_id() + ": clock command failed: " + failed->reason);
      continue;
    }
    if (!probing_) session_.on_sensor(event, now);
  }
  out.events.clear();
  unsent_.insert(unsent_.end(), out.to_send.begin(), out.to_send.end());
  out.to_send.clear();
  flush();
  rearm_timer();
}

void DeviceLink::rearm_timer() {
  if (stopped_) return;
  std::optional<SteadyTime> wake = reconnect_at_;
  const auto earliest = [&wake](SteadyTime t) {
    if (!wake || t < *wake) wake = t;
  };
  if (port_) {
    if (const auto deadline = driver_.next_deadline()) earliest(*deadline);
  }
  if (probe_deadline_) earliest(*probe_deadline_);
  if (const auto game = session_.next_deadline()) {
    // Rounded up, so that now_ms() has reached the deadline when the timer fires.
    const std::chrono::duration<double, std::milli> real(game->count() / time_scale_);
    earliest(epoch_ + std::chrono::ceil<SteadyTime::duration>(real));
  }
  wake_ = wake;
  if (!wake) {
    timer_.cancel();
    return;
  }
  // The asio timer waits on the real steady clock for the time left on clock_ (the same
  // thing with SystemClock); a ManualClock's test calls on_timer() itself.
  timer_.expires_after(std::max(SteadyTime::duration::zero(), *wake - clock_.now()));
  timer_.async_wait([this](const error_code& error) {
    if (!error) on_timer();
  });
}

void DeviceLink::on_timer() {
  const SteadyTime now = clock_.now();
  if (reconnect_at_ && now >= *reconnect_at_) {
    try_connect();
    return;
  }
  if (probe_deadline_ && now >= *probe_deadline_) {
    lose("no serial number within the probe time");
    return;
  }
  session_.advance(now_ms());
  drivers::DecoderOutput out;
  if (port_) {
    const auto deadline = driver_.next_deadline();
    if (deadline && *deadline <= now) driver_.on_timer(now, out);
  }
  handle(out);
}

}  // namespace eboard::daemon
