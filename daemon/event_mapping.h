// Domain events (engine/game/game_event.h) -> the wire's eboard.v1.Event (interfaces.md
// §4). The envelope (board id, seq, game id, rule set name) is the publisher's: the
// engine leaves numbering to it.
#pragma once

#include <cstdint>
#include <string>

#include "eboard/v1/event.pb.h"
#include "engine/game/game_event.h"

namespace eboard::daemon {

struct EventEnvelope {
  std::string board_id;
  std::uint32_t seq = 0;
  std::uint32_t game_id = 1;
  std::string rules;
};

eboard::v1::Event to_proto(const engine::GameEvent& event, const EventEnvelope& envelope);

}  // namespace eboard::daemon
