#include "daemon/sinks/mqtt_publisher.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <mosquitto.h>

#include <boost/asio/post.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "daemon/core/event_hub.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;

// libmosquitto keeps a library-wide init count; pairing each publisher with one
// init/cleanup keeps that count balanced without any state of ours.
constexpr int kQos = 1;
constexpr auto kMiscPeriod = std::chrono::milliseconds(500);
// State and PGN are superseding data: coalesce bursts into one retained message each.
constexpr auto kFlushDelay = std::chrono::milliseconds(20);
// The acknowledged seqs reach their file at most this often: each save is a new file
// renamed over the old one (a metadata write, and ext4 starts the new file's writeback on
// the rename), which at one save per flush cost a busy daemon more than its events did.
// Losing the latest second of acknowledgements in a crash only means those events are
// sent again (consumers drop repeats).
constexpr auto kAckedSaveInterval = std::chrono::seconds(1);

}  // namespace

MqttPublisher::MqttPublisher(asio::io_context& io, const EventSource& hub, MqttOptions options,
                             PgnSource pgn, Log log)
    : io_(io),
      hub_(hub),
      options_(std::move(options)),
      pgn_(std::move(pgn)),
      log_(std::move(log)),
      resolver_(io),
      reconnect_timer_(io),
      misc_timer_(io),
      flush_timer_(io),
      replay_timer_(io),
      acked_timer_(io),
      boards_(hub.board_count()) {
  mosquitto_lib_init();
  for (std::size_t b = 0; b < boards_.size(); ++b) boards_[b].delivered = hub.last_seq(b);
  load_acked();
}

MqttPublisher::~MqttPublisher() {
  stopped_ = true;
  if (stream_) {
    boost::system::error_code ignored;
    stream_->cancel(ignored);
    stream_->release();
  }
  if (mosq_ != nullptr) mosquitto_destroy(mosq_);
  save_acked();
  mosquitto_lib_cleanup();
}

std::string MqttPublisher::topic(const std::string& board_id, const char* leaf) const {
  std::string t = "eboard/v1/" + options_.site + "/" + options_.node + "/";
  if (!board_id.empty()) t += board_id + "/";
  return t + leaf;
}

void MqttPublisher::start() { connect(); }

void MqttPublisher::connect() {
  if (stopped_) return;
  boost::system::error_code not_numeric;
  boost::asio::ip::make_address(options_.host, not_numeric);
  if (!not_numeric || !options_.ca_file.empty()) return connect_to(options_.host);
  if (next_address_ < addresses_.size()) return connect_to(addresses_[next_address_++]);
  const std::uint64_t generation = ++generation_;
  resolver_.async_resolve(
      options_.host, std::to_string(options_.port),
      [this, generation](const boost::system::error_code& error,
                         const boost::asio::ip::tcp::resolver::results_type& results) {
        if (error == boost::asio::error::operation_aborted) return;  // we may be gone
        if (stopped_ || generation != generation_) return;
        if (error || results.empty())
          return lose("cannot resolve the host name: " + error.message());
        addresses_.clear();
        for (const auto& entry : results)
          addresses_.push_back(entry.endpoint().address().to_string());
        next_address_ = 1;
        connect_to(addresses_.front());
      });
}

void MqttPublisher::connect_to(const std::string& address) {
  if (stopped_) return;
  ++generation_;
  const std::string client_id = "eboardd-" + options_.site + "-" + options_.node;
  mosq_ = mosquitto_new(client_id.c_str(), true, this);
  if (mosq_ == nullptr) return lose("cannot create a client");
  mosquitto_connect_callback_set(mosq_, &MqttPublisher::on_connect_cb);
  mosquitto_publish_callback_set(mosq_, &MqttPublisher::on_publish_cb);
  mosquitto_message_callback_set(mosq_, &MqttPublisher::on_message_cb);
  mosquitto_max_inflight_messages_set(mosq_, 0);  // our own window bounds it
  // Events are small and latency matters more than packet count: without this, Nagle's
  // algorithm holds a publish until the previous one's TCP ACK (up to ~40 ms delayed).
  mosquitto_int_option(mosq_, MOSQ_OPT_TCP_NODELAY, 1);
  const std::string status = topic("", "status");
  mosquitto_will_set(mosq_, status.c_str(), 7, "offline", kQos, true);
  if (!options_.user.empty()) {
    mosquitto_username_pw_set(mosq_, options_.user.c_str(),
                              options_.password.empty() ? nullptr : options_.password.c_str());
  }
  if (!options_.ca_file.empty()) {
    if (int rc =
            mosquitto_tls_set(mosq_, options_.ca_file.c_str(), nullptr, nullptr, nullptr, nullptr);
        rc != MOSQ_ERR_SUCCESS) {
      return lose(std::string("TLS: ") + mosquitto_strerror(rc));
    }
  }
  const int rc = mosquitto_connect_async(mosq_, address.c_str(), options_.port,
                                         static_cast<int>(options_.keepalive.count()));
  if (rc != MOSQ_ERR_SUCCESS) return lose(std::string("connect: ") + mosquitto_strerror(rc));
  stream_.emplace(io_, mosquitto_socket(mosq_));
  reading_ = writing_ = false;
  watch_read();
  watch_write();
  arm_misc();
}

void MqttPublisher::lose(const std::string& reason) {
  if (!lost_reported_) {
    log_("mqtt " + options_.host + ":" + std::to_string(options_.port) + ": " + reason +
         "; retrying");
    lost_reported_ = true;
  }
  ++generation_;
  connected_ = false;
  if (stream_) {
    boost::system::error_code ignored;
    stream_->cancel(ignored);
    stream_->release();  // libmosquitto owns and closes the socket
    stream_.reset();
  }
  if (mosq_ != nullptr) {
    mosquitto_destroy(mosq_);
    mosq_ = nullptr;
  }
  mids_.clear();
  replay_mids_.clear();
  in_flight_ = 0;
  for (Board& b : boards_) {
    b.in_flight.clear();
    // A replay cut short by the link is asked for again by its consumer if still needed.
    b.replay.clear();
  }
  misc_timer_.cancel();
  schedule_reconnect();
}

void MqttPublisher::schedule_reconnect() {
  if (stopped_) return;
  reconnect_timer_.expires_after(backoff_.next_delay());
  reconnect_timer_.async_wait([this](const boost::system::error_code& error) {
    if (!error) connect();
  });
}

void MqttPublisher::watch_read() {
  if (reading_ || !stream_) return;
  reading_ = true;
  stream_->async_wait(asio::posix::stream_descriptor::wait_read,
                      [this, g = generation_](const boost::system::error_code& error) {
                        if (g != generation_) return;
                        reading_ = false;
                        if (error) return;
                        const int rc = mosquitto_loop_read(mosq_, 1);
                        if (g != generation_) return;  // a callback gave up on this client
                        if (rc != MOSQ_ERR_SUCCESS) return lose(mosquitto_strerror(rc));
                        watch_read();
                        watch_write();
                      });
}

void MqttPublisher::watch_write() {
  if (writing_ || !stream_ || !mosquitto_want_write(mosq_)) return;
  writing_ = true;
  stream_->async_wait(asio::posix::stream_descriptor::wait_write,
                      [this, g = generation_](const boost::system::error_code& error) {
                        if (g != generation_) return;
                        writing_ = false;
                        if (error) return;
                        const int rc = mosquitto_loop_write(mosq_, 1);
                        if (g != generation_) return;
                        if (rc != MOSQ_ERR_SUCCESS) return lose(mosquitto_strerror(rc));
                        watch_write();
                      });
}

void MqttPublisher::arm_misc() {
  misc_timer_.expires_after(kMiscPeriod);
  misc_timer_.async_wait([this, g = generation_](const boost::system::error_code& error) {
    if (error || g != generation_) return;
    // Keep-alive pings; also notices a broker that stopped answering them.
    const int rc = mosquitto_loop_misc(mosq_);
    if (rc != MOSQ_ERR_SUCCESS) return lose(mosquitto_strerror(rc));
    watch_write();
    arm_misc();
  });
}

void MqttPublisher::on_connect_cb(mosquitto*, void* self, int rc) {
  auto* p = static_cast<MqttPublisher*>(self);
  if (rc != 0) {
    // Refused (bad credentials, not authorised): give up on this client after the
    // callback returns, so libmosquitto is not destroyed under its own feet.
    asio::post(p->io_, [p, g = p->generation_, rc] {
      if (g == p->generation_) p->lose(std::string("refused: ") + mosquitto_connack_string(rc));
    });
    return;
  }
  p->connected_ = true;
  p->lost_reported_ = false;
  p->backoff_.reset();
  p->addresses_.clear();  // the next connection resolves the name again
  p->next_address_ = 0;
  p->log_("mqtt " + p->options_.host + ":" + std::to_string(p->options_.port) + ": connected");
  const std::string status = p->topic("", "status");
  mosquitto_publish(p->mosq_, nullptr, status.c_str(), 6, "online", kQos, true);
  const std::string replays = p->topic("+", "replay");
  mosquitto_subscribe(p->mosq_, nullptr, replays.c_str(), kQos);
  for (std::size_t b = 0; b < p->boards_.size(); ++b) {
    Board& board = p->boards_[b];
    board.next = board.acked + 1;
    board.state_dirty = true;
    board.pgn_sent = false;
    p->publish_retained(b);
  }
  p->pump();
}

void MqttPublisher::on_publish_cb(mosquitto*, void* self, int mid) {
  static_cast<MqttPublisher*>(self)->acknowledged(mid);
}

void MqttPublisher::acknowledged(int mid) {
  if (replay_mids_.erase(mid) != 0) {
    --in_flight_;
    return pump();
  }
  const auto found = mids_.find(mid);
  if (found == mids_.end()) return;  // status, state or pgn
  const auto [b, seq] = found->second;
  mids_.erase(found);
  --in_flight_;
  Board& board = boards_[b];
  for (auto& entry : board.in_flight) {
    if (entry.first == seq) entry.second = true;
  }
  while (!board.in_flight.empty() && board.in_flight.front().second) {
    board.acked = board.in_flight.front().first;
    board.in_flight.pop_front();
    acked_dirty_ = true;
  }
  if (acked_dirty_) arm_acked_save();
  while (!board.recent.empty() && board.recent.front().first <= board.acked)
    board.recent.pop_front();
  arm_flush();
  pump();
}

void MqttPublisher::on_event(std::size_t board, const eboard::v1::Event& event,
                             const SharedBytes& frame) {
  Board& b = boards_[board];
  b.delivered = event.seq();
  b.recent.emplace_back(event.seq(), frame);
  if (b.recent.size() > kMemoryEvents) b.recent.pop_front();  // the journal still has it
  b.state_dirty = true;
  arm_flush();
  if (connected_) pump();
}

// Hands events to libmosquitto, board by board, while the window has room: from memory
// when the board's next event is still there, else from the journal.
void MqttPublisher::pump() {
  bool progress = true;
  while (connected_ && in_flight_ < kWindow && progress) {
    progress = false;
    for (std::size_t i = 0; i < boards_.size() && in_flight_ < kWindow; ++i) {
      Board& b = boards_[i];
      if (b.next > b.delivered) continue;
      if (!b.recent.empty() && b.recent.front().first <= b.next &&
          b.next <= b.recent.back().first) {
        const auto& entry = b.recent[b.next - b.recent.front().first];
        if (!publish_event(i, entry.first, event_bytes_of_frame(*entry.second))) return;
      } else {
        const auto from_journal = hub_.replay(i, b.next);
        if (from_journal.empty()) {
          const std::uint32_t resume = b.recent.empty() ? b.delivered + 1 : b.recent.front().first;
          log_("mqtt: board " + hub_.board_id(i) + ": events " + std::to_string(b.next) + " to " +
               std::to_string(resume - 1) + " are in no journal and not in memory: not published");
          b.next = resume;
          progress = true;
          continue;
        }
        for (const auto& bytes : from_journal) {
          if (in_flight_ >= kWindow || b.next > b.delivered) break;
          if (!publish_event(i, b.next, bytes)) return;
        }
      }
      progress = true;
    }
  }
  // Replays take what room the live stream leaves in the window.
  for (std::size_t i = 0; i < boards_.size() && connected_ && in_flight_ < kWindow; ++i) {
    if (!boards_[i].replay.empty() && !publish_replayed(i)) return;
  }
  watch_write();
}

// Publishes the board's queued replay, as far as the window allows.
bool MqttPublisher::publish_replayed(std::size_t board) {
  Board& b = boards_[board];
  const std::string t = topic(hub_.board_id(board), "events");
  while (!b.replay.empty() && in_flight_ < kWindow) {
    const std::string& bytes = b.replay.front();
    int mid = 0;
    const int rc = mosquitto_publish(mosq_, &mid, t.c_str(), static_cast<int>(bytes.size()),
                                     bytes.data(), kQos, false);
    if (rc != MOSQ_ERR_SUCCESS) {
      asio::post(io_, [this, g = generation_, rc] {
        if (g == generation_) lose(mosquitto_strerror(rc));
      });
      connected_ = false;
      return false;
    }
    replay_mids_[mid] = board;
    ++in_flight_;
    b.replay.pop_front();
  }
  return true;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_replay_request(std::string_view json) {
  google::protobuf::Struct request;
  if (json.size() > 256 ||
      !google::protobuf::util::JsonStringToMessage(std::string(json), &request).ok())
    return std::nullopt;
  // A whole number from 1 to 2^32 - 1, or nullopt.
  const auto seq = [&](const char* name) -> std::optional<std::uint32_t> {
    const auto found = request.fields().find(name);
    if (found == request.fields().end() || !found->second.has_number_value()) return std::nullopt;
    const double n = found->second.number_value();
    if (!(n >= 1 && n <= 4294967295.0) || n != static_cast<double>(static_cast<std::uint32_t>(n)))
      return std::nullopt;
    return static_cast<std::uint32_t>(n);
  };
  const auto from = seq("fromSeq");
  if (!from) return std::nullopt;
  std::uint32_t to = UINT32_MAX;
  if (request.fields().contains("toSeq")) {
    const auto given = seq("toSeq");
    if (!given || *given < *from) return std::nullopt;
    to = *given;
  }
  return std::pair{*from, to};
}

void MqttPublisher::on_message_cb(mosquitto*, void* self, const mosquitto_message* message) {
  if (message->topic == nullptr) return;
  static_cast<MqttPublisher*>(self)->replay_requested(
      message->topic, std::string(static_cast<const char*>(message->payload),
                                  static_cast<std::size_t>(message->payloadlen)));
}

// {"fromSeq":N,"toSeq":M} on eboard/v1/<site>/<node>/<board>/replay (docs/interfaces.md §7.2).
void MqttPublisher::replay_requested(const std::string& t, const std::string& payload) {
  const std::string prefix = topic("", "");
  if (!t.starts_with(prefix) || !t.ends_with("/replay")) return;
  const std::string id = t.substr(prefix.size(), t.size() - prefix.size() - 7);
  const auto board = hub_.find_board(id);
  const auto range = parse_replay_request(payload);
  if (!board || !range) {
    log_("mqtt: ignored a replay request on " + t + ": " + payload.substr(0, 80));
    return;
  }
  Board& b = boards_[*board];
  const auto [from, to] = *range;
  if (b.asked_from == 0) {
    b.asked_from = from;
    b.asked_to = to;
  } else {
    b.asked_from = std::min(b.asked_from, from);
    b.asked_to = std::max(b.asked_to, to);
  }
  start_replays();
}

// Starts each asked-for range whose board may replay again; the others wait for the timer.
void MqttPublisher::start_replays() {
  const auto now = std::chrono::steady_clock::now();
  bool waiting = false;
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    Board& b = boards_[i];
    if (b.asked_from == 0) continue;
    if (now < b.replay_allowed || !b.replay.empty()) {
      waiting = true;
      continue;
    }
    const std::uint32_t end = std::min(b.asked_to, b.delivered);
    std::uint32_t first = 0;
    for (std::string& bytes : hub_.replay(i, b.asked_from)) {
      eboard::v1::Event event;
      if (!event.ParseFromString(bytes) || event.seq() < b.asked_from) continue;
      if (event.seq() > end) break;
      if (first == 0) first = event.seq();
      b.replay.push_back(std::move(bytes));
    }
    if (b.asked_from <= end && first != b.asked_from) {
      log_("mqtt: board " + hub_.board_id(i) + ": replay of events " +
           std::to_string(b.asked_from) + " to " + std::to_string(end) +
           " asked for; the journal has " +
           (first == 0 ? std::string("none of them") : "them from " + std::to_string(first)));
    }
    b.asked_from = b.asked_to = 0;
    b.replay_allowed = now + kReplayInterval;
    ++replays_started_;
  }
  if (waiting && !replay_armed_) {
    replay_armed_ = true;
    replay_timer_.expires_after(kReplayInterval);
    replay_timer_.async_wait([this](const boost::system::error_code& error) {
      replay_armed_ = false;
      if (!error) start_replays();
    });
  }
  if (connected_) pump();
}

bool MqttPublisher::publish_event(std::size_t board, std::uint32_t seq, std::string_view bytes) {
  int mid = 0;
  const std::string t = topic(hub_.board_id(board), "events");
  const int rc = mosquitto_publish(mosq_, &mid, t.c_str(), static_cast<int>(bytes.size()),
                                   bytes.data(), kQos, false);
  if (rc != MOSQ_ERR_SUCCESS) {
    // The link broke under us; the on-connect resend covers this event.
    asio::post(io_, [this, g = generation_, rc] {
      if (g == generation_) lose(mosquitto_strerror(rc));
    });
    connected_ = false;
    return false;
  }
  mids_[mid] = {board, seq};
  boards_[board].in_flight.emplace_back(seq, false);
  boards_[board].next = seq + 1;
  ++in_flight_;
  return true;
}

void MqttPublisher::publish_retained(std::size_t board) {
  Board& b = boards_[board];
  const std::string& id = hub_.board_id(board);
  // An empty retained message deletes the retained one (MQTT 3.1.1 §3.3.1.3): a topic
  // with nothing to say yet keeps silent instead.
  if (b.state_dirty) {
    std::string bytes;
    hub_.state(board).snapshot().SerializeToString(&bytes);
    const std::string t = topic(id, "state");
    if (!bytes.empty()) {
      mosquitto_publish(mosq_, nullptr, t.c_str(), static_cast<int>(bytes.size()), bytes.data(),
                        kQos, true);
    }
    b.state_dirty = false;
  }
  if (pgn_) {
    const auto [version, text] = pgn_(board);
    if (!text->empty() && (!b.pgn_sent || version != b.pgn_version)) {
      const std::string t = topic(id, "pgn");
      mosquitto_publish(mosq_, nullptr, t.c_str(), static_cast<int>(text->size()), text->data(),
                        kQos, true);
      b.pgn_version = version;
      b.pgn_sent = true;
    }
  }
}

void MqttPublisher::arm_flush() {
  if (flush_armed_) return;
  flush_armed_ = true;
  flush_timer_.expires_after(kFlushDelay);
  flush_timer_.async_wait([this](const boost::system::error_code& error) {
    flush_armed_ = false;
    if (error) return;
    if (connected_) {
      for (std::size_t b = 0; b < boards_.size(); ++b) publish_retained(b);
      watch_write();
    }
  });
}

void MqttPublisher::arm_acked_save() {
  if (acked_save_armed_) return;
  acked_save_armed_ = true;
  acked_timer_.expires_after(kAckedSaveInterval);
  acked_timer_.async_wait([this](const boost::system::error_code& error) {
    if (error) return;  // shut down: shutdown() and the destructor save
    acked_save_armed_ = false;
    if (acked_dirty_) save_acked();
  });
}

void MqttPublisher::shutdown() {
  if (mosq_ != nullptr && connected_) {
    for (std::size_t b = 0; b < boards_.size(); ++b) publish_retained(b);
    const std::string status = topic("", "status");
    mosquitto_publish(mosq_, nullptr, status.c_str(), 7, "offline", kQos, true);
    mosquitto_disconnect(mosq_);
    watch_write();
  }
  stopped_ = true;
  reconnect_timer_.cancel();
  replay_timer_.cancel();
  acked_timer_.cancel();
  resolver_.cancel();
  save_acked();
}

// One line per board: "<board id> <seq>". Written to a new file renamed over the old
// one, so a crash leaves either version; losing the latest acknowledgements only means
// a few events are sent twice.
void MqttPublisher::load_acked() {
  if (options_.state_file.empty()) return;
  std::ifstream in(options_.state_file);
  std::string id;
  std::uint32_t seq = 0;
  while (in >> id >> seq) {
    if (auto b = hub_.find_board(id)) boards_[*b].acked = std::min(seq, boards_[*b].delivered);
  }
  for (Board& b : boards_) b.next = b.acked + 1;
}

void MqttPublisher::save_acked() {
  acked_dirty_ = false;
  if (options_.state_file.empty()) return;
  std::ostringstream text;
  for (std::size_t b = 0; b < boards_.size(); ++b) {
    text << hub_.board_id(b) << " " << boards_[b].acked << "\n";
  }
  const std::string temporary = options_.state_file + ".new";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << text.str();
    if (!out) {
      log_("mqtt: cannot write " + temporary);
      return;
    }
  }
  std::rename(temporary.c_str(), options_.state_file.c_str());
}

}  // namespace eboard::daemon
