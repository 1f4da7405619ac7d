// DeviceLink's side that reads what the decoder reports (device_link.h): link states,
// device identity, calibrations, and the sensor events passed on to the listener; and
// the one timer.
#include <algorithm>

#include "daemon/core/device_link.h"

namespace eboard::daemon {
namespace {
namespace v1 = eboard::v1;
using boost::system::error_code;

// When the reading a clock event came from arrived, if the driver reports it later.
std::optional<SteadyTime> read_time(const drivers::SensorEvent& event) {
  if (const auto* press = std::get_if<drivers::LeverPressed>(&event)) return press->read_at;
  if (const auto* reading = std::get_if<drivers::ClockReading>(&event)) return reading->read_at;
  return std::nullopt;
}
}  // namespace

// kDropped: the link was dropped (the rest of the batch, and what it would send, is moot).
DeviceLink::Next DeviceLink::handle_link_status(const drivers::LinkStatus& status, Millis now) {
  switch (status.state) {
    case drivers::LinkState::kConfirmed:
      if (probing_ && !info_->device_names_serial) {
        // No serial number of its own to check (the candidates were picked by their USB
        // adapter's): the first board that answers is it.
        probing_ = false;
        probe_deadline_.reset();
        next_candidate_ = 0;
        learn("");
        listener_.on_link_up();
      }
      if (!probing_) {
        backoff_.reset();
        failure_reported_ = false;
        listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_CONNECTED,
                                device_path_ + ": " + status.detail, now);
      }
      return Next::kGoOn;
    case drivers::LinkState::kResync:
      if (!probing_) {
        listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_RESYNCING,
                                device_path_ + ": " + status.detail, now);
        listener_.on_sensor(status, now);
      }
      return Next::kGoOn;
    case drivers::LinkState::kInSync:
      if (!probing_) listener_.on_sensor(status, now);
      return Next::kGoOn;
    case drivers::LinkState::kRefused:
      if (!probing_) {
        listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_FAILED,
                                device_path_ + ": " + status.detail, now);
        log_(LogLevel::kWarning, "board " + listener_.board_id() + ": " + status.detail);
      }
      return Next::kGoOn;
    case drivers::LinkState::kNoAnswer:
    case drivers::LinkState::kSilent: lose(status.detail); return Next::kDropped;
  }
  return Next::kGoOn;
}

DeviceLink::Next DeviceLink::handle_info(const drivers::DeviceInfo& info,
                                         drivers::DecoderOutput& out) {
  const bool serial = info.kind == drivers::InfoKind::kSerial;
  if (serial) learn(info.text);
  if (probing_ && serial) {
    if (!wanted_serial(info.text)) {
      const std::string why = "serial " + info.text +
                              (spec_.serial ? " is not " + *spec_.serial : " is another board's");
      // Why a board that is plugged in is not taken; once per port and serial number, not
      // at every rescan.
      const std::string passed_over = device_path_ + ": " + why + ": passed over";
      if (passed_over_logged_.insert(passed_over).second) {
        log_(LogLevel::kInfo, "board " + listener_.board_id() + ": " + passed_over);
      }
      lose(why, PortGone::kNo);
      return Next::kDropped;
    }
    // Found: start over on this port so the listener sees a fresh handshake and dump.
    probing_ = false;
    probe_deadline_.reset();
    next_candidate_ = 0;
    known_serial_ = info.text;
    decoder_->on_disconnected();
    drivers::DecoderOutput again;
    decoder_->on_connected(clock_.now(), again);
    listener_.on_link_up();
    out.to_send.insert(out.to_send.end(), again.to_send.begin(), again.to_send.end());
    return Next::kStop;
  }
  if (probing_) return Next::kGoOn;
  const std::string& board = listener_.board_id();
  if (serial && spec_.serial && info.text != *spec_.serial) {
    // A fixed path with serial=: another board there is not the one configured.
    const std::string why =
        "the board here has serial " + info.text + ", not " + *spec_.serial + ": not taken";
    if (why != refusal_logged_) {
      log_(LogLevel::kWarning, "board " + board + ": " + device_path_ + ": " + why);
    }
    refusal_logged_ = why;  // once, not at every retry
    lose(why, PortGone::kNo);
    return Next::kDropped;
  }
  if (serial && known_serial_ && *known_serial_ != info.text) {
    const std::string warning = device_path_ + ": now board " + info.text + ", not board " +
                                *known_serial_ + " as before: another board on the same port";
    log_(LogLevel::kWarning, "board " + board + ": " + warning);
    listener_.device_status(v1::DEVICE_ROLE_BOARD, v1::DEVICE_STATE_CONNECTED, warning, now_ms());
  }
  if (serial) known_serial_ = info.text;
  static constexpr const char* kNames[] = {"version",   "serial",      "long serial",
                                           "trademark", "bus address", "clock version",
                                           "battery",   "model",       "orientation"};
  const auto kind = static_cast<std::size_t>(info.kind);
  if (info.kind != drivers::InfoKind::kBusAddress && info.kind != drivers::InfoKind::kTrademark) {
    log_(LogLevel::kInfo, "board " + board + ": " +
                              (kind < std::size(kNames) ? kNames[kind] : "info") + " " + info.text);
  }
  return Next::kGoOn;
}

void DeviceLink::handle(drivers::DecoderOutput& out) {
  const Millis now = now_ms();
  Next next = Next::kGoOn;
  for (std::size_t i = 0; next == Next::kGoOn && i < out.events.size(); ++i) {
    // A handler may drop the link, which clears nothing here: copy what is kept.
    const drivers::SensorEvent event = out.events[i];
    if (const auto* status = std::get_if<drivers::LinkStatus>(&event)) {
      next = handle_link_status(*status, now);
    } else if (const auto* info = std::get_if<drivers::DeviceInfo>(&event)) {
      next = handle_info(*info, out);
    } else if (const auto* failed = std::get_if<drivers::ClockCommandFailed>(&event)) {
      log_(LogLevel::kInfo,
           "board " + listener_.board_id() + ": clock command failed: " + failed->reason);
    } else if (const auto* calibration = std::get_if<drivers::Calibration>(&event)) {
      store_calibration(calibration->text);
    } else if (const auto read_at = read_time(event); read_at && !probing_) {
      listener_.on_sensor_read(event, std::min(session_time(*read_at), now), now);
    } else if (!probing_) {
      listener_.on_sensor(event, now);
    }
  }
  out.events.clear();
  if (next == Next::kDropped) {
    out.to_send.clear();
    return;  // lose() has re-armed the timer (and may be on another port already)
  }
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
    if (const auto deadline = decoder_->next_deadline()) earliest(*deadline);
  }
  if (probe_deadline_) earliest(*probe_deadline_);
  if (const auto game = listener_.next_deadline()) {
    // Rounded up, so that now_ms() has reached the deadline when the timer fires.
    const std::chrono::duration<double, std::milli> real(game->count() / options_.time_scale);
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
    lose("no answer within the probe time");
    return;
  }
  listener_.advance(now_ms());
  drivers::DecoderOutput out;
  if (port_) {
    const auto deadline = decoder_->next_deadline();
    if (deadline && *deadline <= now) decoder_->on_timer(now, out);
  }
  handle(out);
}

}  // namespace eboard::daemon
