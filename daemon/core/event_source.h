// What a reader of the boards' events needs of the daemon's hub (event_hub.h): the boards
// and their folded state, the journal's events again, and every event as it is published.
// The broadcast sinks (daemon/sinks) see the hub through this and nothing else: they read,
// they never number, journal or publish.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/core/board_state.h"
#include "eboard/v1/event.pb.h"

namespace eboard::daemon {

using SharedBytes = std::shared_ptr<const std::string>;

class EventListener {
 public:
  virtual ~EventListener() = default;
  // `frame` is the length-delimited Frame{event} to send as it is.
  virtual void on_event(std::size_t board, const eboard::v1::Event& event,
                        const SharedBytes& frame) = 0;
};

class EventSource {
 public:
  virtual ~EventSource() = default;

  // Listeners get every event once it is journalled, in seq order per board.
  virtual void add_listener(EventListener* listener) = 0;
  virtual void remove_listener(EventListener* listener) = 0;
  // Runs `then` after every event published so far has been handed to the listeners
  // (at once when none is waiting): a command's ack follows the events it caused.
  virtual void when_published(std::function<void()> then) = 0;

  virtual std::size_t board_count() const = 0;
  virtual std::optional<std::size_t> find_board(std::string_view id) const = 0;
  virtual const std::string& board_id(std::size_t board) const = 0;
  virtual std::uint32_t last_seq(std::size_t board) const = 0;
  virtual const BoardState& state(std::size_t board) const = 0;
  // Binary Events from the journal with seq in [from, last_seq]; empty without a journal.
  virtual std::vector<std::string> replay(std::size_t board, std::uint32_t from) const = 0;
};

}  // namespace eboard::daemon
