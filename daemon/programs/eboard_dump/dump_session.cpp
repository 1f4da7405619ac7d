#include "daemon/programs/eboard_dump/dump_session.h"

#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>

#include "drivers/clock_sides.h"
#include "drivers/dgt/dgt_driver.h"
#include "drivers/reconnect.h"
#include "drivers/transport/serial_ports.h"
#include "drivers/transport/tty_port.h"
#include "simulators/script/script_writer.h"

namespace eboard::daemon {
namespace {

using drivers::DecoderOutput;
using drivers::TimePoint;
using std::chrono::milliseconds;
namespace script = eboard::script;

TimePoint clock_now() { return std::chrono::steady_clock::now(); }

const char* info_name(drivers::InfoKind kind) {
  switch (kind) {
    case drivers::InfoKind::kVersion: return "version";
    case drivers::InfoKind::kSerial: return "serial";
    case drivers::InfoKind::kLongSerial: return "long serial";
    case drivers::InfoKind::kTrademark: return "trademark";
    case drivers::InfoKind::kBusAddress: return "bus address";
    case drivers::InfoKind::kClockVersion: return "clock version";
    case drivers::InfoKind::kBattery: return "battery";
  }
  return "info";
}

// Waits for the board at `path` to confirm itself and name its serial number.
std::optional<std::string> probe_serial(const std::string& path, milliseconds limit) {
  auto opened = drivers::TtyPort::open(path);
  if (!std::holds_alternative<drivers::TtyPort>(opened)) return std::nullopt;
  drivers::TtyPort& port = std::get<drivers::TtyPort>(opened);
  drivers::dgt::DgtDriver driver;
  DecoderOutput out;
  driver.on_connected(clock_now(), out);
  const TimePoint end = clock_now() + limit;
  while (clock_now() < end) {
    if (!out.to_send.empty()) {
      (void)port.write_some(out.to_send);
      out.to_send.clear();
    }
    for (const auto& event : out.events) {
      const auto* info = std::get_if<drivers::DeviceInfo>(&event);
      if (info && info->kind == drivers::InfoKind::kSerial) return info->text;
    }
    out.events.clear();
    pollfd fd{port.fd(), POLLIN, 0};
    poll(&fd, 1, 50);
    std::uint8_t buffer[512];
    const auto n = port.read_some(buffer);
    if (!std::holds_alternative<std::size_t>(n)) return std::nullopt;
    driver.on_bytes(std::span(buffer, std::get<std::size_t>(n)), clock_now(), out);
    driver.on_timer(clock_now(), out);
  }
  return std::nullopt;
}

class DumpSession {
 public:
  DumpSession(const DumpOptions& options, std::ostream& lines, std::ostream& log)
      : options_(options), lines_(lines), log_(log), sides_(options.spec.white) {}

  int run();

 private:
  void try_connect(TimePoint now);
  void lose_link(TimePoint now, const std::string& reason);
  void handle(DecoderOutput& out, TimePoint now);
  void print(const script::Body& body, TimePoint now);
  void print_placement(const drivers::Placement& placement, TimePoint now);
  std::optional<std::string> resolve_device();

  const DumpOptions& options_;
  std::ostream& lines_;
  std::ostream& log_;
  drivers::ClockSides sides_;
  drivers::dgt::DgtDriver driver_;
  drivers::Backoff backoff_;
  std::optional<drivers::TtyPort> port_;
  std::vector<std::uint8_t> unsent_;
  TimePoint start_ = clock_now();
  TimePoint reconnect_at_ = start_;
  std::optional<std::pair<long long, long long>> last_clock_;
  bool failed_before_ = false;
};

std::optional<std::string> DumpSession::resolve_device() {
  if (options_.spec.device != "auto") return options_.spec.device;
  for (const auto& candidate : drivers::dgt_candidates(drivers::list_serial_ports())) {
    const auto serial = probe_serial(candidate.path, milliseconds(3000));
    if (serial && (!options_.spec.serial || *serial == *options_.spec.serial)) {
      log_ << "eboard-dump: found board " << *serial << " at " << drivers::describe_port(candidate)
           << "\n";
      return candidate.path;
    }
  }
  return std::nullopt;
}

void DumpSession::try_connect(TimePoint now) {
  const auto path = resolve_device();
  std::string error = "no matching board found";
  if (path) {
    auto opened = drivers::TtyPort::open(*path);
    if (auto* port = std::get_if<drivers::TtyPort>(&opened)) {
      port_ = std::move(*port);
      log_ << "eboard-dump: opened " << *path
           << (port_->opened_with_libserialport() ? " (libserialport)" : " (termios)") << "\n";
      DecoderOutput out;
      driver_.on_connected(now, out);
      handle(out, now);
      failed_before_ = false;
      return;
    }
    error = std::get<drivers::IoError>(opened).message;
  }
  const auto delay = backoff_.next_delay();
  if (!failed_before_) log_ << "eboard-dump: " << error << "; retrying\n";
  failed_before_ = true;
  reconnect_at_ = now + delay;
}

void DumpSession::lose_link(TimePoint now, const std::string& reason) {
  log_ << "eboard-dump: device lost: " << reason << "\n";
  driver_.on_disconnected();
  port_.reset();
  unsent_.clear();
  reconnect_at_ = now + backoff_.next_delay();
}

void DumpSession::print(const script::Body& body, TimePoint now) {
  const auto at = std::chrono::duration_cast<script::Millis>(now - start_);
  script::write_statement(lines_, script::Statement{0, at, body});
  lines_.flush();
}

// Result pieces cannot stand in a FEN placement (digits are empty squares there), so they
// follow it as `put` lines at the same time.
void DumpSession::print_placement(const drivers::Placement& placement, TimePoint now) {
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

void DumpSession::handle(DecoderOutput& out, TimePoint now) {
  for (const auto& event : out.events) {
    if (const auto* seen = std::get_if<drivers::PlacementSeen>(&event)) {
      print_placement(seen->placement, now);
    } else if (const auto* change = std::get_if<drivers::SquareChanged>(&event)) {
      if (change->piece == drivers::Piece::kEmpty) {
        print(script::Lift{change->square}, now);
      } else {
        print(script::Put{change->square, drivers::piece_letter(change->piece)}, now);
      }
    } else if (const auto* lever = std::get_if<drivers::LeverPressed>(&event)) {
      print(
          script::Lever{sides_.is_white(lever->side) ? script::Side::kWhite : script::Side::kBlack},
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
    } else if (const auto* info = std::get_if<drivers::DeviceInfo>(&event)) {
      log_ << "eboard-dump: " << info_name(info->kind) << " " << info->text << "\n";
    } else if (const auto* status = std::get_if<drivers::LinkStatus>(&event)) {
      if (status->state == drivers::LinkState::kConfirmed) backoff_.reset();
      if (status->state == drivers::LinkState::kResync) {
        log_ << "eboard-dump: resynchronising: " << status->detail << "\n";
      }
      if (status->state == drivers::LinkState::kNoAnswer ||
          status->state == drivers::LinkState::kSilent) {
        out.events.clear();
        lose_link(now, status->detail);
        return;
      }
    } else if (std::holds_alternative<drivers::ClockAbsent>(event)) {
      log_ << "eboard-dump: no clock connected to the board\n";
    } else if (const auto* failed = std::get_if<drivers::ClockCommandFailed>(&event)) {
      log_ << "eboard-dump: clock command " << int{failed->command} << " failed: " << failed->reason
           << "\n";
    }
  }
  out.events.clear();
  unsent_.insert(unsent_.end(), out.to_send.begin(), out.to_send.end());
  out.to_send.clear();
}

int DumpSession::run() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigprocmask(SIG_BLOCK, &signals, nullptr);
  const int signal_fd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  for (;;) {
    TimePoint now = clock_now();
    if (options_.duration && now - start_ >= *options_.duration) return 0;
    if (!port_ && now >= reconnect_at_) try_connect(now);
    if (port_ && !unsent_.empty()) {
      const auto written = port_->write_some(unsent_);
      if (auto* error = std::get_if<drivers::IoError>(&written)) {
        lose_link(now, error->message);
      } else {
        unsent_.erase(unsent_.begin(),
                      unsent_.begin() + static_cast<long>(std::get<std::size_t>(written)));
      }
    }
    std::optional<TimePoint> wake = port_ ? driver_.next_deadline() : reconnect_at_;
    if (options_.duration)
      wake = std::min(wake.value_or(start_ + *options_.duration), start_ + *options_.duration);
    int timeout_ms = 1000;
    if (wake) {
      timeout_ms = static_cast<int>(
          std::clamp<long long>(std::chrono::ceil<milliseconds>(*wake - now).count(), 0, 1000));
    }
    pollfd fds[2] = {{signal_fd, POLLIN, 0}, {port_ ? port_->fd() : -1, POLLIN, 0}};
    if (port_ && !unsent_.empty()) fds[1].events |= POLLOUT;
    poll(fds, port_ ? 2 : 1, timeout_ms);
    if (fds[0].revents & POLLIN) return 0;
    now = clock_now();
    DecoderOutput out;
    if (port_ && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      std::uint8_t buffer[1024];
      const auto n = port_->read_some(buffer);
      if (auto* error = std::get_if<drivers::IoError>(&n)) {
        lose_link(now, error->message);
        continue;
      }
      driver_.on_bytes(std::span(buffer, std::get<std::size_t>(n)), now, out);
    }
    if (port_) {
      const auto deadline = driver_.next_deadline();
      if (deadline && *deadline <= now) driver_.on_timer(now, out);
      handle(out, now);
    }
  }
}

}  // namespace

int run_dump(const DumpOptions& options, std::ostream& lines, std::ostream& log) {
  DumpSession session(options, lines, log);
  return session.run();
}

}  // namespace eboard::daemon
