// One connected client of the stream sockets (docs/interfaces.md §4): hello and a snapshot
// per board first, then live events; `subscribe` chooses boards and replays the journal
// from `from_seq`; `command`s go to the board sessions when this connection may control;
// a `status_request` is answered with the boards' state and open proposals. A client that
// subscribed with `public_only` gets nothing that is the arbiter's alone, neither events
// nor, in a status reply, proposals (keep_public).
//
// Slow consumers (docs/design.md): frames wait in a queue bounded in bytes; a consumer whose
// queue would overflow is unhooked from the hub at once (so it costs the boards nothing
// more), gets a `goodbye` once its socket takes bytes again, and is closed after a short
// grace period either way. It can reconnect and resume with `subscribe.from_seq`.
//
// Hostile clients: a client's frames (subscribe, command) are small, so one over
// kMaxClientFrameBytes is a protocol error, and a frame begun must be complete within
// `frame_timeout` or the connection is closed. A client that only reads (the usual
// consumer) sends no frame and has no deadline. So what a connection can make the daemon
// hold is bounded: its read buffer, one partial frame, its queue limit.
#pragma once

#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "daemon/core/event_hub.h"
#include "eboard/v1/frame.pb.h"
#include "eboard/v1/framing.h"

namespace eboard::daemon {

// `client` names the sender for the command's journal and audit record (CommandApplied):
// "unix:uid=1000,pid=4242", "tcp:127.0.0.1:50412".
using CommandHandler =
    std::function<eboard::v1::Ack(const eboard::v1::Command&, const std::string& client)>;
// Answers a status_request with a status_reply, or an ack naming the error.
using StatusHandler = std::function<eboard::v1::Frame(const eboard::v1::StatusRequest&)>;

struct ConsumerContext {
  EventHub& hub;
  CommandHandler commands;
  std::string control_token;  // "" = no control over TCP
  std::size_t queue_limit_bytes = std::size_t{4} << 20;
  std::string daemon_version;
  std::string node;
  std::function<void(const std::string&)> log;
  std::chrono::seconds frame_timeout{10};
  StatusHandler status;
};

inline constexpr std::size_t kMaxClientFrameBytes = 16 * 1024;

// What a client of public events only gets of a status reply (a `public_only` subscriber,
// the read-only arbiter console): the public proposals (those the players were told of),
// and snapshots without the illegal-move counts, as on the overlay (docs/rules.md D14).
void keep_public(eboard::v1::StatusReply& reply);

class Consumer : public std::enable_shared_from_this<Consumer>, public EventListener {
 public:
  using Socket = boost::asio::generic::stream_protocol::socket;
  enum class Transport : std::uint8_t { kUnix, kTcp };

  Consumer(Socket socket, Transport transport, ConsumerContext& context, std::string peer);
  ~Consumer() override;

  // Sends hello and the snapshots, hooks into the hub and starts reading.
  void start();
  // Ends the connection with a goodbye (shutdown, protocol error, slow consumer).
  void close(eboard::v1::GoodbyeReason reason, const std::string& detail);
  bool closed() const { return closing_; }

  void on_event(std::size_t board, const eboard::v1::Event& event,
                const SharedBytes& frame) override;

 private:
  void enqueue(SharedBytes bytes);
  void send_frame(const eboard::v1::Frame& frame);
  void write_more();
  void read_more();
  void handle(const eboard::v1::Frame& frame);
  void subscribe(const eboard::v1::Subscribe& request);
  void command(const eboard::v1::Command& request);
  void status(const eboard::v1::StatusRequest& request);
  void finish();
  bool control_allowed() const;
  // Arms, keeps or cancels the deadline of the frame being received (see the top).
  void watch_partial_frame();

  Socket socket_;
  Transport transport_;
  ConsumerContext& context_;
  std::string peer_;
  boost::asio::steady_timer grace_timer_;
  boost::asio::steady_timer frame_timer_;
  std::uint64_t timed_frame_at_ = UINT64_MAX;  // stream offset of the frame timed
  proto::FrameReader reader_{kMaxClientFrameBytes};
  std::array<char, 4096> read_buffer_{};
  std::deque<SharedBytes> queue_;
  std::size_t queued_bytes_ = 0;
  std::size_t in_flight_ = 0;  // frames at the front of queue_ being written
  bool hooked_ = false;
  bool closing_ = false;
  bool finished_ = false;
  std::set<std::size_t> boards_;  // empty: all
  bool public_only_ = false;
};

}  // namespace eboard::daemon
