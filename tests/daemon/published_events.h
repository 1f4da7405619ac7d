// What a BoardSession publishes, numbered and kept the way the daemon's hub does it (seq
// 1, 2, 3, ... and the board id), for tests that drive a session directly. The session
// learns each event's seq from the return value (rulings name proposals by it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "daemon/core/board_session.h"
#include "daemon/core/board_state.h"

namespace eboard::daemon::testing_support {

class PublishedEvents {
 public:
  explicit PublishedEvents(std::string board_id = "b1", BoardState* state = nullptr)
      : board_id_(std::move(board_id)), state_(state) {}

  // The session's publish callback; `state`, when given, sees every event too.
  BoardSession::Publish publish() {
    return [this](eboard::v1::Event e) {
      e.set_seq(++seq_);
      e.set_board_id(board_id_);
      if (state_) state_->apply(e);
      events.push_back(e);
      return seq_;
    };
  }
  std::uint32_t seq() const { return seq_; }

  std::vector<eboard::v1::Event> events;

 private:
  std::string board_id_;
  BoardState* state_;
  std::uint32_t seq_ = 0;
};

}  // namespace eboard::daemon::testing_support
