// One client of the stream sockets (consumer.h) over a socket pair, with the status query a
// stand-in that gives one public proposal and one that is the arbiter's alone: what a
// status reply holds for a subscriber of public events only, and for every other client.
// The loop runs until the reply is read (bounded); nothing sleeps.
#include "daemon/core/consumer.h"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/connect_pair.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>
#include <functional>
#include <iostream>
#include <optional>
#include <vector>

#include "daemon/core/log.h"
#include "eboard/v1/framing.h"

namespace eboard::daemon {
namespace {

namespace asio = boost::asio;
namespace v1 = eboard::v1;
using namespace std::chrono_literals;

// Board b1 now: a penalty the players were told of (seq 12) and a suspected dead position
// only the arbiter may be told of (seq 15, docs/rules.md D14); two illegal moves by White.
v1::Frame two_proposals(const v1::StatusRequest& request) {
  v1::Frame frame;
  v1::StatusReply* reply = frame.mutable_status_reply();
  reply->set_command_id(request.command_id());
  v1::BoardStatus* board = reply->add_boards();
  board->mutable_snapshot()->set_board_id("b1");
  board->mutable_snapshot()->set_white_illegal_count(2);
  v1::Proposal* shared = board->add_open_proposals();
  shared->set_seq(12);
  shared->set_kind(v1::PROPOSAL_KIND_PENALTY);
  shared->set_visibility(v1::VISIBILITY_PUBLIC);
  v1::Proposal* own = board->add_open_proposals();
  own->set_seq(15);
  own->set_kind(v1::PROPOSAL_KIND_RESULT);
  own->set_visibility(v1::VISIBILITY_ARBITER);
  return frame;
}

class ConsumerTest : public testing::Test {
 protected:
  // Connects a consumer, sends `frames` as its client, and returns the status reply it
  // answers with.
  std::optional<v1::StatusReply> status_after(const std::vector<v1::Frame>& frames) {
    asio::local::stream_protocol::socket daemon_end(io_);
    asio::local::stream_protocol::socket client(io_);
    asio::local::connect_pair(daemon_end, client);
    Consumer::Socket socket(io_, asio::generic::stream_protocol(AF_UNIX, SOCK_STREAM),
                            daemon_end.release());
    auto consumer = std::make_shared<Consumer>(std::move(socket), Consumer::Transport::kUnix,
                                               context_, "unix:uid=1000,pid=4242");
    consumer->start();
    std::string bytes;
    for (const v1::Frame& f : frames) bytes += proto::encode_delimited(f);
    asio::write(client, asio::buffer(bytes));

    std::optional<v1::StatusReply> reply;
    proto::FrameReader reader;
    std::array<char, 4096> buffer{};
    std::function<void()> read = [&] {
      client.async_read_some(
          asio::buffer(buffer), [&](const boost::system::error_code& error, std::size_t n) {
            if (error) return;
            reader.feed(std::string_view(buffer.data(), n));
            v1::Frame frame;
            for (auto status = reader.next(frame); status && *status == proto::ReadStatus::kMessage;
                 status = reader.next(frame)) {
              if (frame.has_status_reply()) reply = frame.status_reply();
            }
            if (reply) return consumer->close(v1::GOODBYE_REASON_SHUTDOWN, "");
            read();
          });
    };
    read();
    io_.run_for(10s);
    io_.restart();
    return reply;
  }

  static v1::Frame subscribe(bool public_only) {
    v1::Frame frame;
    frame.mutable_subscribe()->set_public_only(public_only);
    return frame;
  }

  static v1::Frame status_request() {
    v1::Frame frame;
    frame.mutable_status_request()->set_command_id(7);
    return frame;
  }

  static std::vector<std::uint32_t> open_seqs(const v1::StatusReply& reply) {
    std::vector<std::uint32_t> seqs;
    for (const v1::BoardStatus& b : reply.boards()) {
      for (const v1::Proposal& p : b.open_proposals()) seqs.push_back(p.seq());
    }
    return seqs;
  }

  Logger log_{std::cerr, "eboardd"};
  EventHub hub_{{"b1"}, log_};
  ConsumerContext context_{.hub = hub_,
                           .commands = {},
                           .control_token = "",
                           .queue_limit_bytes = std::size_t{1} << 20,
                           .daemon_version = "test",
                           .node = "n1",
                           .log = {},
                           .frame_timeout = 10s,
                           .status = two_proposals};
  asio::io_context io_;  // last: its handlers, which hold the consumer, go first
};

TEST_F(ConsumerTest, PublicOnlySubscriberGetsThePublicProposalsOnly) {
  const auto reply = status_after({subscribe(true), status_request()});
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->command_id(), 7u);
  EXPECT_EQ(open_seqs(*reply), std::vector<std::uint32_t>{12});
  ASSERT_EQ(reply->boards_size(), 1);
  EXPECT_EQ(reply->boards(0).snapshot().board_id(), "b1");
  EXPECT_EQ(reply->boards(0).snapshot().white_illegal_count(), 0u)
      << "the counts are not shown to players (docs/rules.md D14)";
}

TEST_F(ConsumerTest, OtherClientsGetEveryProposal) {
  for (const auto& frames :
       {std::vector<v1::Frame>{status_request()},
        std::vector<v1::Frame>{subscribe(false), status_request()},
        // A later subscribe replaces the public-only one.
        std::vector<v1::Frame>{subscribe(true), subscribe(false), status_request()}}) {
    const auto reply = status_after(frames);
    ASSERT_TRUE(reply);
    EXPECT_EQ(open_seqs(*reply), (std::vector<std::uint32_t>{12, 15}));
    EXPECT_EQ(reply->boards(0).snapshot().white_illegal_count(), 2u);
  }
}

TEST(KeepPublic, LeavesAnAnswerWithoutProposalsAlone) {
  v1::StatusReply reply;
  reply.set_command_id(3);
  reply.add_boards()->mutable_snapshot()->set_board_id("b1");
  const v1::StatusReply before = reply;
  keep_public(reply);
  EXPECT_EQ(reply.SerializeAsString(), before.SerializeAsString());
}

}  // namespace
}  // namespace eboard::daemon
