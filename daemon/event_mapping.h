// Domain events (engine/game/game_event.h) -> the wire's eboard.v1.Event (docs/interfaces.md
// §4). The envelope (board id, seq, game id, rule set name) is the publisher's: the
// engine leaves numbering to it.
#pragma once

#include <cstdint>
#include <string>

#include "eboard/v1/event.pb.h"
#include "engine/arbiter/proposal_book.h"
#include "engine/game/game_event.h"

namespace eboard::daemon {

struct EventEnvelope {
  std::string board_id;
  std::uint32_t seq = 0;
  std::uint32_t game_id = 1;
  std::string rules;
};

eboard::v1::Event to_proto(const engine::GameEvent& event, const EventEnvelope& envelope);
// A proposal the engine withdrew without a ruling (engine/arbiter/proposal_book.h), as the
// proposalWithdrawn event eboardd and eboard-replay publish after the batch that caused it.
eboard::v1::Event to_proto(const engine::Withdrawal& withdrawal, const EventEnvelope& envelope);

// Numbers one board's events the way eboardd does (BoardSession::emit): seq 1, 2, 3, ...
// and gameId 1 for the first game, one more for each later gameStarted (a new game, or
// the one that follows an annulment). eboard-replay and the golden tests print with it.
class EventNumbering {
 public:
  const EventEnvelope& next(const engine::GameEvent& event, const std::string& board_id,
                            const std::string& rules) {
    const bool game_started = event.is<engine::events::GameStarted>();
    if (game_started && started_) ++envelope_.game_id;
    started_ = started_ || game_started;
    envelope_.board_id = board_id;
    envelope_.rules = rules;
    ++envelope_.seq;
    return envelope_;
  }
  // An event the engine's tracker did not emit (a proposalWithdrawn): the next seq.
  const EventEnvelope& next(const std::string& board_id, const std::string& rules) {
    envelope_.board_id = board_id;
    envelope_.rules = rules;
    ++envelope_.seq;
    return envelope_;
  }
  std::uint32_t seq() const { return envelope_.seq; }

 private:
  EventEnvelope envelope_;
  bool started_ = false;
};

}  // namespace eboard::daemon
