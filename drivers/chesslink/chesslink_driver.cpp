#include "drivers/chesslink/chesslink_driver.h"

#include <algorithm>

namespace eboard::drivers::chesslink {
namespace {

using std::chrono::milliseconds;
constexpr milliseconds kHandshakeTimeout(1500);
constexpr milliseconds kStatusRetry(1500);
// A reply takes at most 18 ms at 38400 baud; one still half there after this lost bytes.
constexpr milliseconds kPartialTimeout(300);
// With reports on change only, a quiet board sends nothing: ask for the version then.
constexpr milliseconds kKeepAlive(4000);
constexpr milliseconds kSilenceLimit(10000);
// LED slot time in 4.096 ms units: 16 -> a blink pattern of 8 slots lasts ~0.5 s.
constexpr std::uint8_t kLedSlot = 0x10;
constexpr std::uint8_t kLedSteady = 0xFF;
constexpr std::uint8_t kLedBlink = 0xF0;

void earliest(std::optional<TimePoint>& best, std::optional<TimePoint> candidate) {
  if (candidate && (!best || *candidate < *best)) best = candidate;
}

std::optional<Piece> piece_of(char c) {
  if (c == '.') return Piece::kEmpty;
  if (std::string_view("KQRNBPkqrnbp").find(c) == std::string_view::npos) return std::nullopt;
  return piece_from_letter(c);
}

std::string model_of(int major) {
  switch (major) {
    case 0: return "Millennium Exclusive";
    case 1: return "Millennium Performance";
    case 2: return "Millennium eONE";
    default: return "ChessLink board";
  }
}

}  // namespace

int square_of(std::size_t index, Orientation orientation) {
  const int i = static_cast<int>(index);
  const int documented = (7 - i / 8) * 8 + i % 8;  // index 0 = a8
  return orientation == Orientation::kDocumented ? documented : 63 - documented;
}

std::size_t led_of(int file_edge, int rank_edge, Orientation orientation) {
  if (orientation == Orientation::kReversed) {
    file_edge = 8 - file_edge;
    rank_edge = 8 - rank_edge;
  }
  return static_cast<std::size_t>(file_edge * 9 + rank_edge);
}

void ChessLinkDriver::send(const Bytes& bytes, TimePoint now, DecoderOutput& out) {
  out.to_send.insert(out.to_send.end(), bytes.begin(), bytes.end());
  last_sent_ = now;
}

void ChessLinkDriver::on_connected(TimePoint now, DecoderOutput& out) {
  on_disconnected();
  connected_ = true;
  last_received_ = now;
  handshake_deadline_ = now + kHandshakeTimeout;
  send(encode('V'), now, out);
}

void ChessLinkDriver::on_disconnected() {
  framer_.reset();
  connected_ = confirmed_ = handshake_resent_ = silent_reported_ = false;
  handshake_deadline_.reset();
  status_requested_at_.reset();
  partial_since_.reset();
  mirror_.reset();
}

void ChessLinkDriver::request_status(TimePoint now, DecoderOutput& out) {
  status_requested_at_ = now;
  ++counters_.dumps_requested;
  send(encode('S'), now, out);
}

void ChessLinkDriver::resync(const std::string& why, TimePoint now, DecoderOutput& out) {
  if (!confirmed_ || status_requested_at_) return;  // stale already: one status restores it
  out.events.push_back(LinkStatus{LinkState::kResync, why});
  request_status(now, out);
}

void ChessLinkDriver::on_bytes(std::span<const std::uint8_t> bytes, TimePoint now,
                               DecoderOutput& out) {
  if (!connected_) return;
  counters_.bytes_received += bytes.size();
  last_received_ = now;
  silent_reported_ = false;
  const std::uint64_t discarded_before = framer_.discarded_bytes();
  std::vector<Reply> replies;
  framer_.feed(bytes, replies);
  const std::uint64_t discarded = framer_.discarded_bytes() - discarded_before;
  // Discarded bytes may have held a report: until the next status the picture is stale.
  if (discarded > 0) resync(std::to_string(discarded) + " bytes discarded", now, out);
  for (const Reply& reply : replies) handle(reply, now, out);
  if (!framer_.has_partial()) {
    partial_since_.reset();
  } else if (!partial_since_ || !replies.empty()) {
    partial_since_ = now;
  }
}

void ChessLinkDriver::handle(const Reply& reply, TimePoint now, DecoderOutput& out) {
  ++counters_.messages;
  if (reply.letter == 'v') {
    handle_version(reply.data, now, out);
    return;
  }
  if (!confirmed_) return;  // stale bytes from before our handshake
  if (reply.letter == 's') handle_status(reply.data, out);
  // 'w' echoes the E2ROM write, 'l' / 'x' acknowledge LEDs, 'r' answers a read we never
  // send: nothing to do.
}

void ChessLinkDriver::handle_version(const std::string& data, TimePoint now, DecoderOutput& out) {
  if (confirmed_) return;  // a keep-alive's answer
  const auto major = parse_hex2(data[0], data[1]);
  const auto minor = parse_hex2(data[2], data[3]);
  if (!major || !minor) return;
  const std::string version = std::to_string(*major) + "." + std::to_string(*minor);
  confirmed_ = true;
  handshake_deadline_.reset();
  out.events.push_back(DeviceInfo{InfoKind::kVersion, version});
  out.events.push_back(DeviceInfo{InfoKind::kModel, model_of(*major)});
  out.events.push_back(LinkStatus{LinkState::kConfirmed, model_of(*major) + " version " + version});
  out.events.push_back(ClockAbsent{});
  send(encode('W', hex2(kE2romReports) + hex2(kReportsOnStableChange)), now, out);
  request_status(now, out);
}

std::optional<Placement> ChessLinkDriver::decode(const std::string& data,
                                                 Orientation orientation) const {
  Placement placement{};
  for (std::size_t i = 0; i < kSquares; ++i) {
    const auto piece = piece_of(data[i]);
    if (!piece) return std::nullopt;
    placement[square_of(i, orientation)] = *piece;
  }
  return placement;
}

void ChessLinkDriver::handle_status(const std::string& data, DecoderOutput& out) {
  auto placement = decode(data, orientation_);
  if (!placement) return;  // a character no piece has: the checksum passed by chance
  bool full = !mirror_ || status_requested_at_;
  if (*placement != start_placement() && rotated(*placement) == start_placement()) {
    orientation_ =
        orientation_ == Orientation::kReversed ? Orientation::kDocumented : Orientation::kReversed;
    placement = rotated(*placement);
    out.events.push_back(
        DeviceInfo{InfoKind::kOrientation, orientation_ == Orientation::kDocumented
                                               ? "status read a8 first (the protocol note's order)"
                                               : "status read h1 first (cable on the usual side)"});
    full = true;
  }
  status_requested_at_.reset();
  if (full) {
    mirror_ = *placement;
    out.events.push_back(PlacementSeen{*placement});
    out.events.push_back(LinkStatus{LinkState::kInSync, "full status"});
    return;
  }
  for (int sq = 0; sq < 64; ++sq) {
    if ((*mirror_)[sq] == (*placement)[sq]) continue;
    (*mirror_)[sq] = (*placement)[sq];
    out.events.push_back(SquareChanged{sq, (*placement)[sq]});
  }
}

void ChessLinkDriver::on_timer(TimePoint now, DecoderOutput& out) {
  if (!connected_) return;
  if (handshake_deadline_ && now >= *handshake_deadline_) {
    if (!handshake_resent_) {
      handshake_resent_ = true;
      handshake_deadline_ = now + kHandshakeTimeout;
      send(encode('V'), now, out);
    } else {
      handshake_deadline_.reset();
      out.events.push_back(LinkStatus{LinkState::kNoAnswer, "no answer to the version request"});
    }
  }
  if (partial_since_ && now - *partial_since_ >= kPartialTimeout) {
    partial_since_.reset();
    const std::uint64_t before = framer_.discarded_bytes();
    framer_.drop_partial();
    resync(std::to_string(framer_.discarded_bytes() - before) + " bytes of a cut reply", now, out);
  }
  if (!confirmed_) return;
  if (status_requested_at_ && now - *status_requested_at_ >= kStatusRetry) {
    request_status(now, out);
  }
  if (now - last_received_ >= kSilenceLimit && !silent_reported_) {
    silent_reported_ = true;
    out.events.push_back(LinkStatus{LinkState::kSilent, "nothing received for 10 s"});
  }
  if (now - std::max(last_sent_, last_received_) >= kKeepAlive) send(encode('V'), now, out);
}

std::optional<TimePoint> ChessLinkDriver::next_deadline() const {
  if (!connected_) return std::nullopt;
  std::optional<TimePoint> best = handshake_deadline_;
  if (partial_since_) earliest(best, *partial_since_ + kPartialTimeout);
  if (!confirmed_) return best;
  if (status_requested_at_) earliest(best, *status_requested_at_ + kStatusRetry);
  if (!silent_reported_) earliest(best, last_received_ + kSilenceLimit);
  earliest(best, std::max(last_sent_, last_received_) + kKeepAlive);
  return best;
}

bool ChessLinkDriver::set_lights(const Lights& lights, TimePoint now, DecoderOutput& out) {
  if (!confirmed_) return false;
  if (lights.steady == 0 && lights.blink == 0) {
    send(encode('X'), now, out);
    return true;
  }
  std::array<std::uint8_t, kLeds> leds{};
  for (int sq = 0; sq < 64; ++sq) {
    const std::uint64_t bit = std::uint64_t{1} << sq;
    const std::uint8_t pattern = (lights.steady & bit)  ? kLedSteady
                                 : (lights.blink & bit) ? kLedBlink
                                                        : 0;
    if (pattern == 0) continue;
    const int file = sq % 8;
    const int rank_edge = 7 - sq / 8;  // the top edge of the square, from the 8th rank's
    for (const int f : {file, file + 1}) {
      for (const int r : {rank_edge, rank_edge + 1}) {
        std::uint8_t& led = leds[led_of(f, r, orientation_)];
        if (led != kLedSteady) led = pattern;
      }
    }
  }
  std::string data = hex2(kLedSlot);
  for (const std::uint8_t led : leds) data += hex2(led);
  send(encode('L', data), now, out);
  return true;
}

DecoderCounters ChessLinkDriver::counters() const {
  DecoderCounters counters = counters_;
  counters.discarded_bytes = framer_.discarded_bytes();
  return counters;
}

}  // namespace eboard::drivers::chesslink
