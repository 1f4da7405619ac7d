// A sensor script (docs/interfaces.md §3) run through one GameTracker: header lines configure
// the game, timed lines are fed in order, events come out. Used by eboard-replay and, in
// process, by the replay corpus and golden tests.
//
// The game is built at the first timed line (that is when it starts, docs/interfaces.md §3):
// rules (the `rules` line or --rules, default fide-standard) with the `param` overrides,
// the clock (the `clock` line or --clock, default the rule set's), the start position.
// Before each timed line the tracker catches up with its deadlines (advance), so timers
// fire at their own time, never late. finish() then runs the board's deadlines after the
// last line until none is left or the game has ended (bounded): a mate that becomes stable
// after the last line ends the game. The clock is not run out to a flag: a script that
// ends is the end of a recording.
//
// Events are numbered 1, 2, 3, ... in the order feed() and finish() append them, which is
// the seq eboard-replay prints (docs/interfaces.md §4); events that open a decision for the
// arbiter are handed back to the tracker with that seq, so `arbiter ruling accept SEQ`
// finds it. As eboardd publishes them, the tracker's events come in batches (a timed line,
// with the deadlines that fell due before it; each deadline after the last line), and after
// each batch the proposals it withdrew (superseded, lapsed, the game ended), each a
// proposalWithdrawn with the next seq: take_withdrawals() hands them over under that seq.
// Callers print every event appended, in order, each withdrawal where its seq falls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/arbiter/arbiter.h"
#include "engine/game/game_tracker.h"
#include "simulators/script/script_header.h"
#include "simulators/script/statement.h"
#include "util/result.h"

namespace eboard::daemon {

struct ReplayOptions {
  std::optional<std::string> rules;  // --rules, overrides the script's header
  std::optional<std::string> clock;  // --clock
  bool raw = false;                  // --raw: squareChanged events too
  // --no-clock: the board has no clock; moves complete without presses (docs/clockless.md).
  engine::ClockPresence clock_presence = engine::ClockPresence::kConnected;
};

class ReplaySession {
 public:
  explicit ReplaySession(ReplayOptions options) : options_(std::move(options)) {}

  // One statement. On error (a bad FEN, rule set, parameter or clock) the message
  // without the `file:line:` prefix; the statement's line is statement.line.
  std::optional<std::string> feed(const script::Statement& statement, engine::GameEvents& out);
  // Runs the remaining deadlines after the last timed line (see above).
  void finish(engine::GameEvents& out);

  // The script's `board` line, "board-1" without one.
  std::string board_id() const { return header_.board_id.empty() ? "board-1" : header_.board_id; }
  // Empty until the first timed line.
  const engine::GameTracker* tracker() const { return tracker_ ? &*tracker_ : nullptr; }
  const std::vector<std::pair<std::string, std::string>>& tags() const { return header_.tags; }
  // The seq of the last event appended (or withdrawal numbered) so far.
  std::uint64_t last_seq() const { return last_seq_; }
  // The withdrawals numbered since the last call, in seq order.
  struct NumberedWithdrawal {
    std::uint64_t seq = 0;
    engine::Withdrawal withdrawal;
  };
  std::vector<NumberedWithdrawal> take_withdrawals() { return std::move(withdrawals_); }

 private:
  std::optional<std::string> header(const script::Body& body);
  std::optional<std::string> build();
  void timed(const script::Body& body, engine::Millis at, engine::GameEvents& out);
  void number(const engine::GameEvents& out, std::size_t first);

  ReplayOptions options_;
  script::Header header_;         // the script's header lines so far
  engine::RulesArbiter arbiter_;  // docs/rules.md D1-D14; outlives the tracker that calls it
  std::optional<engine::GameTracker> tracker_;
  engine::Millis last_{0};
  std::uint64_t last_seq_ = 0;
  std::vector<NumberedWithdrawal> withdrawals_;
};

}  // namespace eboard::daemon
