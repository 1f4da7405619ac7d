// eboard-events' connection to the daemon (docs/interfaces.md §2, §4): connect, subscribe,
// print. A client program, so plain blocking sockets are fine here.
//
// Replays and live events overlap: events the daemon sent live between the connect and
// the subscribe are sent again in the replay. Until the subscribe's ack the client
// therefore collects events by (board, seq), prints them in order from --from-seq once
// the ack is in, and from then prints each board's events only past the last seq
// printed - every event once, in order, with no gap the journal could fill.
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace eboard::daemon {

struct EventsOptions {
  std::string connect = "unix:/run/eboardd/events.sock";
  std::vector<std::string> boards;
  std::uint32_t from_seq = 0;
  enum class Format : std::uint8_t { kJson, kText } format = Format::kText;
  bool public_only = false;
  bool until_game_end = false;
  std::optional<std::chrono::milliseconds> timeout;
};

// Returns the exit status: 0 (stopped as asked), 1 (connection failed or closed by the
// daemon), 3 (--timeout reached).
int run_events_client(const EventsOptions& options, std::ostream& out, std::ostream& err);

}  // namespace eboard::daemon
