// The MQTT publisher (docs/interfaces.md §4 "MQTT"): every event of every
// board on eboard/v1/<site>/<node>/<board>/events at QoS 1, each board's retained
// Snapshot on .../state and live PGN on .../pgn, and the daemon's retained status
// ("online", Last-Will "offline") on eboard/v1/<site>/<node>/status.
//
// Driven by the daemon's one Asio loop, no thread of its own (style.md "Event loop and
// I/O"; libmosquitto's mosquitto_socket/mosquitto_loop_* API): libmosquitto's socket is watched
// with a posix::stream_descriptor and serviced with mosquitto_loop_read/write/misc.
//
// Nothing is lost while the broker is away: the journal is the offline buffer. For each
// board we remember the highest sequence number up to which the broker acknowledged
// every event (PUBACK), persist it next to the journals (at most once a second: a crash
// then costs a second of events sent twice, never a lost one), and after any (re)connect -
// also after a daemon restart - publish again from the one after it. Events sent but not
// acknowledged when the link broke are sent again, so a consumer may see a (board, seq)
// twice and drops the duplicate (docs/interfaces.md §4). At most kWindow events are handed to
// libmosquitto unacknowledged, so a long outage never becomes a burst in memory.
//
// Replay requests (docs/interfaces.md §7.2): a consumer that misses events publishes
// {"fromSeq":N,"toSeq":M} on .../<board>/replay; the range is published again on
// .../events from the journal, alongside the live stream and inside the same window.
// Per board at most one request is started every kReplayInterval; requests arriving
// meanwhile are merged into one range, so no consumer can make the daemon read its
// journal more often than that, however fast it asks.
//
// A lost connection throws the libmosquitto client away and builds a new one after a
// backoff of 100 ms doubling to 1 s; its queued messages are worthless because the journal
// has them. The cap is what a broker that comes back waits for its publishers: every event
// of the outage waits that long too, and a try a second against a broker that is not
// there costs nothing worth saving (a cap of 4 s leaves the events of a 3 s restart
// waiting up to 3 s more, BENCHMARKS.md "The event relay").
// Name resolution in mosquitto_connect_async is blocking, so a broker given by name is
// resolved first with Asio's asynchronous resolver and libmosquitto gets the address (each
// reconnect after a connection resolves again: the broker may have moved; a failed attempt
// tries the next address of the last answer, e.g. 127.0.0.1 after ::1). Not with TLS: the
// certificate is checked against the name libmosquitto is given, so there it resolves the name
// itself.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/core/event_source.h"
#include "daemon/core/sink_config.h"
#include "drivers/reconnect.h"

struct mosquitto;
struct mosquitto_message;

namespace eboard::daemon {

// {"fromSeq":N,"toSeq":M} (docs/interfaces.md §7.2): the range, toSeq absent = UINT32_MAX;
// nullopt for anything else (not JSON, not whole numbers from 1, toSeq below fromSeq).
std::optional<std::pair<std::uint32_t, std::uint32_t>> parse_replay_request(std::string_view json);

class MqttPublisher {
 public:
  using Log = std::function<void(const std::string&)>;
  // The live PGN of a board and a number that changes whenever it does.
  using PgnSource = std::function<std::pair<std::uint64_t, const std::string*>(std::size_t)>;

  static constexpr std::size_t kWindow = 256;                       // unacknowledged events at most
  static constexpr std::size_t kMemoryEvents = 4096;                // per board, before the journal
  static constexpr std::chrono::milliseconds kReplayInterval{250};  // per board
  static constexpr std::chrono::milliseconds kReconnectFirst{100};
  static constexpr std::chrono::milliseconds kReconnectMax{1000};
  // The delays between connection attempts after a loss, from the first.
  static drivers::Backoff reconnect_backoff() { return {kReconnectFirst, kReconnectMax}; }

  MqttPublisher(boost::asio::io_context& io, const EventSource& hub, MqttOptions options,
                PgnSource pgn, Log log);
  ~MqttPublisher();
  MqttPublisher(const MqttPublisher&) = delete;
  MqttPublisher& operator=(const MqttPublisher&) = delete;

  void start();
  // `frame` is the hub's encoding of `event` (event_hub.h): its Event bytes are what
  // goes out, shared rather than serialised again.
  void on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes& frame);
  // Clean shutdown: "offline" on status, then DISCONNECT (the Will is not sent then).
  // The caller lets the loop run a little afterwards so the bytes go out.
  void shutdown();

  bool connected() const { return connected_; }
  std::uint32_t acked_seq(std::size_t board) const { return boards_[board].acked; }
  // Replay requests taken (merged ones count once) and events published again for them.
  std::uint64_t replays_started() const { return replays_started_; }
  std::string topic(const std::string& board_id, const char* leaf) const;

 private:
  struct Board {
    std::uint32_t acked = 0;  // every seq <= acked is acknowledged by the broker
    std::uint32_t next = 1;   // next seq to hand to libmosquitto
    // Highest seq the hub delivered (journalled and synced per its policy): nothing later
    // leaves, even though the journal file may already hold it (group commit).
    std::uint32_t delivered = 0;
    std::deque<std::pair<std::uint32_t, bool>> in_flight;      // seq, acknowledged
    std::deque<std::pair<std::uint32_t, SharedBytes>> recent;  // unacknowledged frames
    bool state_dirty = true;
    std::uint64_t pgn_version = 0;
    bool pgn_sent = false;
    // Replay: the range asked for and not started yet (0: none), and the one being sent.
    std::uint32_t asked_from = 0;
    std::uint32_t asked_to = 0;
    std::deque<std::string> replay;  // read from the journal, not yet handed over
    std::chrono::steady_clock::time_point replay_allowed{};
  };

  void connect();
  void connect_to(const std::string& address);
  void lose(const std::string& reason);
  void schedule_reconnect();
  void watch_read();
  void watch_write();
  void arm_misc();
  void arm_flush();
  void arm_acked_save();
  void pump();
  bool publish_event(std::size_t board, std::uint32_t seq, std::string_view bytes);
  bool publish_replayed(std::size_t board);
  void replay_requested(const std::string& topic, const std::string& payload);
  void start_replays();
  void publish_retained(std::size_t board);
  void acknowledged(int mid);
  void load_acked();
  void save_acked();
  static void on_connect_cb(mosquitto*, void* self, int rc);
  static void on_publish_cb(mosquitto*, void* self, int mid);
  static void on_message_cb(mosquitto*, void* self, const mosquitto_message* message);

  boost::asio::io_context& io_;
  const EventSource& hub_;
  MqttOptions options_;
  PgnSource pgn_;
  Log log_;
  mosquitto* mosq_ = nullptr;
  std::optional<boost::asio::posix::stream_descriptor> stream_;
  std::uint64_t generation_ = 0;  // bumps on every new client: stale handlers ignore
  boost::asio::ip::tcp::resolver resolver_;
  std::vector<std::string> addresses_;  // the last resolution's answer, tried in order
  std::size_t next_address_ = 0;
  boost::asio::steady_timer reconnect_timer_;
  boost::asio::steady_timer misc_timer_;
  boost::asio::steady_timer flush_timer_;
  boost::asio::steady_timer replay_timer_;
  boost::asio::steady_timer acked_timer_;
  drivers::Backoff backoff_ = reconnect_backoff();
  std::vector<Board> boards_;
  std::map<int, std::pair<std::size_t, std::uint32_t>> mids_;  // mid -> board, seq
  std::map<int, std::size_t> replay_mids_;                     // mid -> board
  std::uint64_t replays_started_ = 0;
  bool replay_armed_ = false;
  std::size_t in_flight_ = 0;
  bool connected_ = false;
  bool reading_ = false;
  bool writing_ = false;
  bool flush_armed_ = false;
  bool acked_save_armed_ = false;
  bool acked_dirty_ = false;
  bool stopped_ = false;
  bool lost_reported_ = false;
};

}  // namespace eboard::daemon
