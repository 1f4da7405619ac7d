#include "daemon/core/consumer.h"

#include <algorithm>
#include <boost/asio/write.hpp>

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using boost::system::error_code;

constexpr std::size_t kMaxBuffersPerWrite = 64;
constexpr auto kGoodbyeGrace = std::chrono::seconds(2);

// Compares without an early exit, so the time taken does not tell how much matched.
bool same_token(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

v1::Ack make_ack(std::uint32_t id, v1::AckError code, const std::string& error) {
  v1::Ack ack;
  ack.set_command_id(id);
  ack.set_ok(code == v1::ACK_ERROR_UNSPECIFIED);
  ack.set_code(code);
  ack.set_error(error);
  return ack;
}

}  // namespace

void keep_public(v1::StatusReply& reply) {
  for (v1::BoardStatus& board : *reply.mutable_boards()) {
    auto* open = board.mutable_open_proposals();
    open->erase(std::remove_if(
                    open->begin(), open->end(),
                    [](const v1::Proposal& p) { return p.visibility() != v1::VISIBILITY_PUBLIC; }),
                open->end());
    if (board.has_snapshot()) {
      board.mutable_snapshot()->clear_white_illegal_count();
      board.mutable_snapshot()->clear_black_illegal_count();
    }
  }
}

Consumer::Consumer(Socket socket, Transport transport, ConsumerContext& context, std::string peer)
    : socket_(std::move(socket)),
      transport_(transport),
      context_(context),
      peer_(std::move(peer)),
      grace_timer_(socket_.get_executor()),
      frame_timer_(socket_.get_executor()) {}

Consumer::~Consumer() {
  if (hooked_) context_.hub.remove_listener(this);
}

bool Consumer::control_allowed() const {
  return transport_ == Transport::kUnix || !context_.control_token.empty();
}

void Consumer::start() {
  v1::Frame frame;
  v1::Hello* hello = frame.mutable_hello();
  hello->set_daemon_version(context_.daemon_version);
  hello->set_protocol_version(1);
  hello->set_node(context_.node);
  hello->set_control_allowed(control_allowed());
  for (std::size_t b = 0; b < context_.hub.board_count(); ++b) {
    hello->add_board_ids(context_.hub.board_id(b));
  }
  send_frame(frame);
  for (std::size_t b = 0; b < context_.hub.board_count(); ++b) {
    v1::Frame snapshot;
    *snapshot.mutable_snapshot() = context_.hub.state(b).snapshot();
    send_frame(snapshot);
  }
  context_.hub.add_listener(this);
  hooked_ = true;
  read_more();
}

void Consumer::on_event(std::size_t board, const v1::Event& event, const SharedBytes& frame) {
  if (!boards_.empty() && !boards_.count(board)) return;
  if (public_only_ && event.visibility() == v1::VISIBILITY_ARBITER) return;
  enqueue(frame);
}

void Consumer::send_frame(const v1::Frame& frame) {
  enqueue(std::make_shared<const std::string>(proto::encode_delimited(frame)));
}

void Consumer::enqueue(SharedBytes bytes) {
  if (closing_) return;
  if (queued_bytes_ + bytes->size() > context_.queue_limit_bytes) {
    close(v1::GOODBYE_REASON_SLOW_CONSUMER,
          "more than " + std::to_string(context_.queue_limit_bytes) +
              " bytes waiting; reconnect and resume with subscribe.from_seq");
    return;
  }
  queued_bytes_ += bytes->size();
  queue_.push_back(std::move(bytes));
  write_more();
}

void Consumer::write_more() {
  if (in_flight_ > 0 || queue_.empty() || finished_) return;
  std::vector<boost::asio::const_buffer> buffers;
  for (const auto& bytes : queue_) {
    if (buffers.size() == kMaxBuffersPerWrite) break;
    buffers.emplace_back(bytes->data(), bytes->size());
  }
  in_flight_ = buffers.size();
  boost::asio::async_write(socket_, buffers,
                           [self = shared_from_this()](const error_code& error, std::size_t) {
                             for (; self->in_flight_ > 0; --self->in_flight_) {
                               self->queued_bytes_ -= self->queue_.front()->size();
                               self->queue_.pop_front();
                             }
                             if (error) {
                               self->finish();
                               return;
                             }
                             if (self->closing_ && self->queue_.empty()) {
                               self->finish();
                               return;
                             }
                             self->write_more();
                           });
}

void Consumer::close(v1::GoodbyeReason reason, const std::string& detail) {
  if (closing_) return;
  if (context_.log) {
    context_.log("consumer " + peer_ + " disconnected: " + v1::GoodbyeReason_Name(reason) +
                 (detail.empty() ? "" : ": " + detail));
  }
  if (hooked_) {
    context_.hub.remove_listener(this);
    hooked_ = false;
  }
  // Frames not yet handed to the socket are dropped; the goodbye goes right after the
  // write in progress, if the consumer ever takes it.
  while (queue_.size() > in_flight_) {
    queued_bytes_ -= queue_.back()->size();
    queue_.pop_back();
  }
  v1::Frame frame;
  frame.mutable_goodbye()->set_reason(reason);
  frame.mutable_goodbye()->set_detail(detail);
  auto bytes = std::make_shared<const std::string>(proto::encode_delimited(frame));
  queued_bytes_ += bytes->size();
  queue_.push_back(std::move(bytes));
  closing_ = true;
  grace_timer_.expires_after(kGoodbyeGrace);
  grace_timer_.async_wait([self = shared_from_this()](const error_code& error) {
    if (!error) self->finish();
  });
  write_more();
}

void Consumer::finish() {
  if (finished_) return;
  finished_ = true;
  closing_ = true;
  if (hooked_) {
    context_.hub.remove_listener(this);
    hooked_ = false;
  }
  grace_timer_.cancel();
  frame_timer_.cancel();
  error_code ignored;
  socket_.shutdown(Socket::shutdown_both, ignored);
  socket_.close(ignored);
}

void Consumer::read_more() {
  socket_.async_read_some(boost::asio::buffer(read_buffer_),
                          [self = shared_from_this()](const error_code& error, std::size_t n) {
                            if (error || self->finished_) {
                              if (!self->closing_) self->finish();
                              return;
                            }
                            self->reader_.feed(std::string_view(self->read_buffer_.data(), n));
                            v1::Frame frame;
                            for (;;) {
                              auto status = self->reader_.next(frame);
                              if (!status) {
                                self->close(v1::GOODBYE_REASON_PROTOCOL_ERROR, status.error());
                                return;
                              }
                              if (status.value() == proto::ReadStatus::kNeedMore) break;
                              self->handle(frame);
                              if (self->closing_) return;
                            }
                            self->watch_partial_frame();
                            self->read_more();
                          });
}

void Consumer::watch_partial_frame() {
  if (reader_.buffered_bytes() == 0) {
    timed_frame_at_ = UINT64_MAX;
    frame_timer_.cancel();
    return;
  }
  // The deadline runs from a frame's first byte; later bytes of it do not extend it.
  if (timed_frame_at_ == reader_.consumed_bytes()) return;
  timed_frame_at_ = reader_.consumed_bytes();
  frame_timer_.expires_after(context_.frame_timeout);
  frame_timer_.async_wait([self = shared_from_this()](const error_code& error) {
    if (error || self->closing_) return;
    self->close(v1::GOODBYE_REASON_PROTOCOL_ERROR,
                "a frame begun " + std::to_string(self->context_.frame_timeout.count()) +
                    " s ago is not complete");
  });
}

void Consumer::handle(const v1::Frame& frame) {
  switch (frame.msg_case()) {
    case v1::Frame::kSubscribe: subscribe(frame.subscribe()); break;
    case v1::Frame::kCommand: command(frame.command()); break;
    case v1::Frame::kStatusRequest: status(frame.status_request()); break;
    default:
      close(v1::GOODBYE_REASON_PROTOCOL_ERROR,
            "a client may send subscribe, command and status_request frames only");
      break;
  }
}

void Consumer::subscribe(const v1::Subscribe& request) {
  std::set<std::size_t> chosen;
  for (const auto& id : request.board_ids()) {
    const auto board = context_.hub.find_board(id);
    if (!board) {
      v1::Frame reply;
      *reply.mutable_ack() = make_ack(request.command_id(), v1::ACK_ERROR_UNKNOWN_BOARD,
                                      "subscribe.board_ids: no board '" + id + "'");
      send_frame(reply);
      return;
    }
    chosen.insert(*board);
  }
  boards_ = chosen;
  public_only_ = request.public_only();
  v1::Event event;
  for (std::size_t b = 0; b < context_.hub.board_count() && !closing_; ++b) {
    if (!boards_.empty() && !boards_.count(b)) continue;
    std::uint32_t from = request.from_seq();
    for (const auto& point : request.resume()) {
      if (point.board_id() == context_.hub.board_id(b)) from = point.from_seq();
    }
    if (from == 0) continue;
    for (const std::string& bytes : context_.hub.replay(b, from)) {
      if (public_only_ && event.ParseFromString(bytes) &&
          event.visibility() == v1::VISIBILITY_ARBITER) {
        continue;
      }
      enqueue(std::make_shared<const std::string>(frame_from_event_bytes(bytes)));
      if (closing_) return;
    }
  }
  v1::Frame reply;
  *reply.mutable_ack() = make_ack(request.command_id(), v1::ACK_ERROR_UNSPECIFIED, "");
  send_frame(reply);
}

void Consumer::command(const v1::Command& request) {
  v1::Frame reply;
  if (transport_ == Transport::kTcp) {
    if (context_.control_token.empty()) {
      *reply.mutable_ack() = make_ack(request.command_id(), v1::ACK_ERROR_UNAUTHORIZED,
                                      "control over TCP is off (no --control-token-file)");
      send_frame(reply);
      return;
    }
    if (!same_token(request.token(), context_.control_token)) {
      *reply.mutable_ack() =
          make_ack(request.command_id(), v1::ACK_ERROR_UNAUTHORIZED,
                   request.token().empty() ? "command.token is missing" : "command.token is wrong");
      send_frame(reply);
      return;
    }
  }
  *reply.mutable_ack() = context_.commands(request, peer_);
  reply.mutable_ack()->set_command_id(request.command_id());
  // The events the command caused wait for their journal sync (event_hub.h); the ack
  // waits with them, so a client sees them before the ack that names their first seq.
  context_.hub.when_published([self = shared_from_this(), reply = std::move(reply)] {
    if (!self->closing_) self->send_frame(reply);
  });
}

void Consumer::status(const v1::StatusRequest& request) {
  v1::Frame reply;
  if (context_.status) {
    reply = context_.status(request);
    if (public_only_ && reply.has_status_reply()) keep_public(*reply.mutable_status_reply());
  } else {
    *reply.mutable_ack() = make_ack(request.command_id(), v1::ACK_ERROR_UNSUPPORTED,
                                    "status_request: not served here");
  }
  // After the events published so far, like a command's ack: a client that sent a
  // command and then asks sees its effects.
  context_.hub.when_published([self = shared_from_this(), reply = std::move(reply)] {
    if (!self->closing_) self->send_frame(reply);
  });
}

}  // namespace eboard::daemon
