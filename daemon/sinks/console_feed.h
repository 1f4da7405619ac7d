// What the arbiter console's WebSocket /arbiter/ws sends (docs/interfaces.md §6.3): a hello
// naming the boards, a snapshot of each board, the items of each board's current game so
// far (console_item: what the page lists for the arbiter), then every board's live events.
// An arbiter view (a session) gets every event and full snapshots; a public view (not
// logged in, on any listener) only public events and snapshots without the illegal-move
// counts, as the overlay (docs/rules.md D14).
//
// The current game's first seq is found in the journal once per board, on the first
// console that connects, and followed from the live events after that, so a console
// connecting late in the day reads one game's items, not the day's.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "daemon/core/event_source.h"
#include "daemon/sinks/console_http.h"

namespace eboard::daemon {

// Events the console lists: illegal moves pending and completed, penalties, claims,
// results (proposed and final), flags, clock mismatches, dead positions, set-up and
// position reports (docs/rules.md §0.2).
bool is_console_item(const eboard::v1::Event& event);
// Whether a client with `view` gets `event`.
bool console_sees(ConsoleView view, const eboard::v1::Event& event);

class ConsoleFeed {
 public:
  explicit ConsoleFeed(const EventSource& hub);

  // Every published event of every board, to follow where each game starts.
  void note(std::size_t board, const eboard::v1::Event& event);
  // The opening messages for a new client, JSON or binary Frames.
  std::vector<SharedBytes> opening(ConsoleView view, bool binary);

 private:
  std::uint32_t game_start(std::size_t board);

  const EventSource& hub_;
  std::vector<std::optional<std::uint32_t>> game_start_;  // nullopt: not looked up yet
};

}  // namespace eboard::daemon
