// A test's hands on the board: lifts, puts and presses fed to a real GameTracker at
// chosen times, with the events collected for inspection.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/game_tracker.h"
#include "engine/rules/rule_set.h"

namespace eboard::engine::testing {

inline TrackerConfig config_for(std::string_view fen = kStartFen,
                                std::string_view rules = kDefaultRuleSetName,
                                SensingMode sensing = SensingMode::kAuto) {
  TrackerConfig c;
  c.rules = rule_set_by_name(rules).value();
  c.time_control = parse_time_control("900+10").value();
  c.start = parse_fen(fen).value();
  c.sensing = sensing;
  return c;
}

class BoardDriver {
 public:
  explicit BoardDriver(TrackerConfig config) : tracker(std::move(config)) {
    std::array<SquareCode, kSquareCount> codes{};
    const Position& p = tracker.committed();
    for (int s = 0; s < kSquareCount; ++s) codes[s] = p.piece_on(Square(s));
    tracker.placement(Millis(0), codes, events);
  }
  explicit BoardDriver(std::string_view fen = kStartFen) : BoardDriver(config_for(fen)) {}

  void lift(std::string_view sq, int at_ms) {
    tracker.square(Millis(at_ms), parse_square(sq), kEmptyCode, events);
  }
  void put(std::string_view sq, char piece, int at_ms) {
    tracker.square(Millis(at_ms), parse_square(sq), square_code_from_char(piece), events);
  }
  // lift + put of one piece, 100 ms apart.
  void move(std::string_view from, std::string_view to, int at_ms) {
    const SquareCode code = tracker.recognizer().sensed().at(parse_square(from));
    lift(from, at_ms);
    put(to, square_code_to_char(code), at_ms + 100);
  }
  void press(Color side, int at_ms) { tracker.lever(Millis(at_ms), side, events); }
  void advance(int at_ms) { tracker.advance(Millis(at_ms), events); }

  // The bodies of every event of kind `Kind`, in order.
  template <class Kind>
  std::vector<const Kind*> of() const {
    std::vector<const Kind*> out;
    for (const GameEvent& e : events)
      if (const Kind* body = e.get<Kind>()) out.push_back(body);
    return out;
  }
  // The same, envelope and all.
  template <class Kind>
  std::vector<const GameEvent*> events_of() const {
    std::vector<const GameEvent*> out;
    for (const GameEvent& e : events)
      if (e.is<Kind>()) out.push_back(&e);
    return out;
  }
  // The last event of kind `Kind`, envelope and all.
  template <class Kind>
  const GameEvent* last_event() const {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      if (it->is<Kind>()) return &*it;
    return nullptr;
  }
  std::vector<std::string> completed_ucis() const {
    std::vector<std::string> out;
    for (const auto* e : of<events::MoveCompleted>()) out.push_back(to_uci(e->move));
    return out;
  }
  std::vector<std::string> tentative_ucis() const {
    std::vector<std::string> out;
    for (const auto* e : of<events::MoveTentative>()) out.push_back(to_uci(e->move));
    return out;
  }
  template <class Kind>
  const Kind* last() const {
    const GameEvent* e = last_event<Kind>();
    return e ? e->get<Kind>() : nullptr;
  }
  std::string fen() const { return to_fen(tracker.committed()); }

  GameTracker tracker;
  GameEvents events;
};

}  // namespace eboard::engine::testing
