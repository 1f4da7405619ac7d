// Gap-free fan-in of a whole event's boards from the MQTT broker (docs/interfaces.md §4, §7.2):
// the one piece that eboard-events --mqtt and eboard-relay share.
//
// The problem: a broker restarted without persistence forgets its subscribers; a daemon
// that reconnects first resends what the broker never acknowledged before the consumer
// has subscribed again, and those events reach nobody. So a consumer cannot rely on the
// broker alone: it watches each board's sequence numbers (every event has one, from 1, no
// gaps, docs/interfaces.md §4), and when some are missing it publishes a replay request
// ({"fromSeq":N,"toSeq":M} on .../<board>/replay) that the board's daemon answers from its
// journal on .../events. The tail of a game is found missing through the retained state
// (its last_seq), which the daemon publishes again on every reconnect.
//
// Events are handed on strictly in sequence order, each once: later ones wait until the
// gap before them is filled. Where each board starts:
//   kLive      after the retained state's last_seq (or at the first event seen);
//   kSnapshot  after the retained state's last_seq, which the consumer takes as the
//              board's past (eboard-relay: the game so far is in the Snapshot); events
//              that come before any state wait for it, unless one is a gameStarted;
//   kFromSeq   at a given seq (eboard-events --from-seq N).
//
// No I/O and no clock of its own: messages and the time come in, replay requests go out
// through a callback, so it is tested without a broker (tests/daemon/programs/).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eboard/v1/event.pb.h"
#include "eboard/v1/frame.pb.h"

namespace eboard::daemon {

enum class FanInStart : std::uint8_t { kLive, kSnapshot, kFromSeq };

struct FanInOptions {
  std::string site;
  FanInStart start = FanInStart::kLive;
  std::uint32_t from_seq = 1;  // kFromSeq
  // How long a gap may stay open before it is asked for (events of one board arrive in
  // order, so a gap is rarely closed by waiting; the delay merges a burst of them).
  std::chrono::milliseconds grace{50};
  // A request that brought nothing is sent again after this, doubling up to kMaxRetry.
  std::chrono::milliseconds retry{1000};
};

// A board of the event: the daemon's node name and its board id.
struct BoardKey {
  std::string node;
  std::string board;
  auto operator<=>(const BoardKey&) const = default;
  std::string text() const { return node + "/" + board; }
};

class MqttFanIn {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  static constexpr std::chrono::milliseconds kMaxRetry{8000};
  static constexpr std::size_t kMaxWaiting = 100000;  // events held behind a gap, per board

  struct Handlers {
    std::function<void(const BoardKey&, const eboard::v1::Event&)> event;     // in order
    std::function<void(const BoardKey&, const eboard::v1::Snapshot&)> state;  // retained
    std::function<void(const std::string& node, const std::string& status)> status;
    // Publish `payload` on `topic` (QoS 1): a replay request.
    std::function<void(const std::string& topic, const std::string& payload)> publish;
  };

  MqttFanIn(FanInOptions options, Handlers handlers);

  // The subscriptions: every board's events and state, every daemon's status (not the
  // retained PGN texts, which the fan-in does not need).
  std::vector<std::string> filters() const {
    const std::string site = "eboard/v1/" + options_.site + "/";
    // The states first: the retained ones then arrive before the first live event.
    return {site + "+/+/state", site + "+/status", site + "+/+/events"};
  }
  // One message from the broker.
  void message(std::string_view topic, std::string_view payload, TimePoint now);
  // Sends the requests that are due; call at least every next_due() - now.
  void tick(TimePoint now);
  std::optional<TimePoint> next_due() const;

  struct BoardProgress {
    std::uint32_t next = 0;        // the next seq to hand on (0: start not known yet)
    std::uint32_t known = 0;       // highest seq known to exist
    std::size_t waiting = 0;       // events held behind a gap
    std::uint64_t requests = 0;    // replay requests sent
    std::uint64_t duplicates = 0;  // repeats dropped
  };
  std::map<BoardKey, BoardProgress> progress() const;

 private:
  struct Board {
    std::uint32_t next = 0;
    std::uint32_t known = 0;
    std::map<std::uint32_t, eboard::v1::Event> waiting;
    std::optional<TimePoint> due;  // when to ask for the gap
    std::chrono::milliseconds backoff{0};
    std::uint64_t requests = 0;
    std::uint64_t duplicates = 0;
    bool started = false;     // a first message was seen (kFromSeq asks at once)
    bool progressed = false;  // events were handed on since the gap was last looked at
  };

  void on_state(const BoardKey& key, const eboard::v1::Snapshot& snapshot, TimePoint now);
  void on_event(const BoardKey& key, eboard::v1::Event event, TimePoint now);
  void drain(const BoardKey& key, Board& board);
  void watch_gap(Board& board, TimePoint now);
  void request(const BoardKey& key, Board& board, TimePoint now);

  FanInOptions options_;
  Handlers handlers_;
  std::map<BoardKey, Board> boards_;
};

// The JSON of a replay request (docs/interfaces.md §7.2); to_seq 0: up to the journal's end.
std::string replay_request_json(std::uint32_t from_seq, std::uint32_t to_seq);

}  // namespace eboard::daemon
