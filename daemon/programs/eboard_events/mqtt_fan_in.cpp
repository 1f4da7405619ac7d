#include "daemon/programs/eboard_events/mqtt_fan_in.h"

#include <algorithm>
#include <vector>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;

// eboard/v1/<site>/<node>/status | eboard/v1/<site>/<node>/<board>/<leaf>
std::vector<std::string_view> split_topic(std::string_view topic) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const auto slash = topic.find('/', at);
    parts.push_back(topic.substr(at, slash - at));
    if (slash == std::string_view::npos) break;
    at = slash + 1;
  }
  return parts;
}

}  // namespace

std::string replay_request_json(std::uint32_t from_seq, std::uint32_t to_seq) {
  std::string json = "{\"fromSeq\":" + std::to_string(from_seq);
  if (to_seq != 0) json += ",\"toSeq\":" + std::to_string(to_seq);
  return json + "}";
}

MqttFanIn::MqttFanIn(FanInOptions options, Handlers handlers)
    : options_(std::move(options)), handlers_(std::move(handlers)) {}

void MqttFanIn::message(std::string_view topic, std::string_view payload, TimePoint now) {
  const auto parts = split_topic(topic);
  if (parts.size() < 5 || parts[0] != "eboard" || parts[1] != "v1" || parts[2] != options_.site)
    return;
  if (parts.size() == 5 && parts[4] == "status") {
    if (handlers_.status) handlers_.status(std::string(parts[3]), std::string(payload));
    return;
  }
  if (parts.size() != 6) return;
  const BoardKey key{std::string(parts[3]), std::string(parts[4])};
  if (parts[5] == "state") {
    v1::Snapshot snapshot;
    if (!payload.empty() &&
        snapshot.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
      on_state(key, snapshot, now);
  } else if (parts[5] == "events") {
    v1::Event event;
    if (event.ParseFromArray(payload.data(), static_cast<int>(payload.size())) && event.seq() > 0)
      on_event(key, std::move(event), now);
  }
}

void MqttFanIn::on_state(const BoardKey& key, const v1::Snapshot& snapshot, TimePoint now) {
  Board& board = boards_[key];
  board.known = std::max(board.known, snapshot.last_seq());
  if (board.next == 0) {
    switch (options_.start) {
      case FanInStart::kLive:
      case FanInStart::kSnapshot: board.next = snapshot.last_seq() + 1; break;
      case FanInStart::kFromSeq: board.next = options_.from_seq; break;
    }
    // Whatever came in before the state and lies before the start is not wanted.
    board.waiting.erase(board.waiting.begin(), board.waiting.lower_bound(board.next));
  }
  if (handlers_.state) handlers_.state(key, snapshot);
  if (!board.started && options_.start == FanInStart::kFromSeq) {
    board.started = true;
    if (board.known >= board.next) request(key, board, now);
  }
  board.started = true;
  drain(key, board);
  watch_gap(board, now);
}

void MqttFanIn::on_event(const BoardKey& key, v1::Event event, TimePoint now) {
  Board& board = boards_[key];
  const std::uint32_t seq = event.seq();
  board.known = std::max(board.known, seq);
  if (board.next == 0) {
    if (options_.start == FanInStart::kFromSeq) {
      board.next = options_.from_seq;
    } else if (options_.start == FanInStart::kLive || event.has_game_started()) {
      board.next = seq;
    }
  }
  if (board.next != 0 && seq < board.next) {
    ++board.duplicates;
    return;
  }
  if (board.waiting.size() >= kMaxWaiting) return;  // asked for again once the gap closes
  if (!board.waiting.emplace(seq, std::move(event)).second) {
    ++board.duplicates;
    return;
  }
  if (!board.started) {
    board.started = true;
    if (options_.start == FanInStart::kFromSeq && seq > board.next) request(key, board, now);
  }
  drain(key, board);
  watch_gap(board, now);
}

void MqttFanIn::drain(const BoardKey& key, Board& board) {
  if (board.next == 0) return;
  const std::uint32_t before = board.next;
  for (auto it = board.waiting.begin(); it != board.waiting.end() && it->first == board.next;) {
    if (handlers_.event) handlers_.event(key, it->second);
    ++board.next;
    it = board.waiting.erase(it);
  }
  if (board.next != before) {
    board.backoff = std::chrono::milliseconds(0);
    board.progressed = true;
  }
}

// A gap is open when something at or after `next` is known but `next` itself is not here.
// Two kinds: a later event is here (a real hole: one board's events arrive in order) -
// asked for after the grace; or only the state says there is more (its last_seq runs
// ahead of events still on their way, so that is no hole yet) - asked for only when the
// stream has not moved for the retry delay. A start not known yet waits for the retained
// state that long too.
void MqttFanIn::watch_gap(Board& board, TimePoint now) {
  const bool start_unknown = board.next == 0 && !board.waiting.empty();
  const bool hole = board.next != 0 && !board.waiting.empty();
  const bool behind = board.next != 0 && board.known >= board.next;
  if (!hole && !behind && !start_unknown) {
    board.due.reset();
    return;
  }
  const auto quiet = std::max(options_.retry, board.backoff);
  const auto wait = hole ? (board.backoff.count() ? board.backoff : options_.grace) : quiet;
  if (!board.due || (!hole && board.progressed)) board.due = now + wait;
  if (hole && *board.due > now + wait) board.due = now + wait;
  board.progressed = false;
}

void MqttFanIn::request(const BoardKey& key, Board& board, TimePoint now) {
  const std::uint32_t to = board.waiting.empty() ? board.known : board.waiting.begin()->first - 1;
  // kFromSeq's first request is open-ended: the journal has what the consumer wants.
  const bool open = options_.start == FanInStart::kFromSeq && board.requests == 0;
  ++board.requests;
  if (handlers_.publish) {
    handlers_.publish("eboard/v1/" + options_.site + "/" + key.node + "/" + key.board + "/replay",
                      replay_request_json(board.next, open ? 0 : to));
  }
  board.backoff =
      board.backoff.count() == 0 ? options_.retry : std::min(board.backoff * 2, kMaxRetry);
  board.due = now + board.backoff;
}

void MqttFanIn::tick(TimePoint now) {
  for (auto& [key, board] : boards_) {
    if (!board.due || *board.due > now) continue;
    board.due.reset();
    if (board.next == 0) {
      // No state and no gameStarted came: start at the first event held.
      if (board.waiting.empty()) continue;
      board.next = board.waiting.begin()->first;
      drain(key, board);
      watch_gap(board, now);
      continue;
    }
    if (board.known >= board.next) request(key, board, now);
  }
}

std::optional<MqttFanIn::TimePoint> MqttFanIn::next_due() const {
  std::optional<TimePoint> due;
  for (const auto& [key, board] : boards_) {
    if (board.due && (!due || *board.due < *due)) due = board.due;
  }
  return due;
}

std::map<BoardKey, MqttFanIn::BoardProgress> MqttFanIn::progress() const {
  std::map<BoardKey, BoardProgress> out;
  for (const auto& [key, b] : boards_) {
    out[key] = BoardProgress{b.next, b.known, b.waiting.size(), b.requests, b.duplicates};
  }
  return out;
}

}  // namespace eboard::daemon
