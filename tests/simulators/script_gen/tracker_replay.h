// A generated sensor script played into a real GameTracker in process, the way
// eboard-replay maps script lines onto it (placement, lift, put, lever, promote), with the
// tracker's base Arbiter: no rule-set ends (fivefold, 75 moves, dead position) cut a game
// short, so every move of the PGN must come out. Sensing is left to the tracker (kAuto):
// an occupancy-only script must be recognised as one from its `?` squares.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <variant>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/game_tracker.h"
#include "engine/game/pgn.h"
#include "engine/rules/rule_set.h"
#include "simulators/script/statement.h"

namespace eboard::sim::testing {

struct TrackerReplay {
  std::vector<std::string> completed;  // UCI of every moveCompleted, in order
  std::vector<std::string> tentative;  // UCI of every moveTentative, in order
  std::string failure;                 // the first illegalMoveCompleted or script problem
  long sensor_events = 0;
  bool occupancy = false;  // the recognizer matched occupancy keys at the end
};

inline engine::SquareCode code_of(char c) {
  const engine::SquareCode code = engine::square_code_from_char(c);
  if (c == '?') return engine::kOccupiedCode;
  return code == engine::kNoCode ? engine::kEmptyCode : code;
}

inline TrackerReplay replay_in_tracker(const engine::PgnGame& game,
                                       const std::vector<script::Statement>& script) {
  TrackerReplay r;
  engine::TrackerConfig config;
  config.rules = engine::rule_set_by_name(engine::kDefaultRuleSetName).value();
  config.time_control = engine::parse_time_control(config.rules.default_clock).value();
  config.start = game.start;
  engine::GameTracker t(std::move(config));
  engine::GameEvents events;
  engine::Millis last{0};
  for (const script::Statement& s : script) {
    if (!s.at) continue;
    last = *s.at;
    if (script::is_sensor(s.body)) ++r.sensor_events;
    if (const auto* p = std::get_if<script::Placement>(&s.body)) {
      std::array<engine::SquareCode, engine::kSquareCount> codes{};
      for (int q = 0; q < engine::kSquareCount; ++q) codes[q] = code_of(p->squares[q]);
      t.placement(last, codes, events);
    } else if (const auto* l = std::get_if<script::Lift>(&s.body)) {
      t.square(last, engine::Square(l->square), engine::kEmptyCode, events);
    } else if (const auto* u = std::get_if<script::Put>(&s.body)) {
      t.square(last, engine::Square(u->square), code_of(u->piece), events);
    } else if (const auto* v = std::get_if<script::Lever>(&s.body)) {
      t.lever(last, v->side == script::Side::kWhite ? engine::kWhite : engine::kBlack, events);
    } else if (const auto* c = std::get_if<script::Promote>(&s.body)) {
      t.promotion_choice(last, engine::type_of(engine::piece_from_char(c->piece)), events);
    } else {
      r.failure = "unexpected line in a generated script";
    }
  }
  // What still stands settles (a mate found stable, a pending placement analysed).
  for (int i = 0; i < 100; ++i) {
    const auto next = t.recognizer().next_deadline();
    if (!next || t.ended()) break;
    t.advance(std::max(*next, last), events);
  }
  for (const engine::GameEvent& e : events) {
    if (const auto* m = e.get<engine::events::MoveCompleted>())
      r.completed.push_back(engine::to_uci(m->move));
    if (const auto* m = e.get<engine::events::MoveTentative>())
      r.tentative.push_back(engine::to_uci(m->move));
    const auto* illegal = e.get<engine::events::IllegalMoveCompleted>();
    if (illegal && r.failure.empty())
      r.failure = "illegalMoveCompleted at " + std::to_string(e.at.count()) +
                  " ms: " + illegal->description;
  }
  r.occupancy = t.recognizer().keys() == engine::MatchKeys::kOccupancy;
  return r;
}

inline std::vector<std::string> game_ucis(const engine::PgnGame& game) {
  std::vector<std::string> out;
  for (const engine::Move m : game.moves) out.push_back(engine::to_uci(m));
  return out;
}

}  // namespace eboard::sim::testing
