// What the corpus replays share (replay_corpus_test.cpp, tests/daemon/clockless): the
// shared PGN games, and one sensor script replayed in process through the session
// eboard-replay uses, checked move for move against the game.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/programs/eboard_replay/replay_session.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"
#include "simulators/script/statement.h"

namespace eboard::corpus {

inline std::vector<std::filesystem::path> corpus_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EBOARD_SHARED_DIR) + "/data/pgn"))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Calls `each` with every game of the corpus and its name ("file.pgn game K"); a game
// that does not parse is a test failure.
inline void for_each_game(
    const std::function<void(const std::string& name, const engine::PgnGame& game)>& each) {
  for (const auto& path : corpus_files()) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    engine::PgnReader reader(text, path.filename().string());
    int index = 0;
    while (auto game = reader.next()) {
      ++index;
      if (!game->ok()) {
        ADD_FAILURE() << path.filename().string() << " game " << index << ": " << game->error();
        continue;
      }
      each(path.filename().string() + " game " + std::to_string(index), game->value());
    }
  }
}

struct Totals {
  long games = 0;
  long replays = 0;
  long sensor_events = 0;
  long moves = 0;
  long ended_by_rule = 0;  // fivefold, 75 moves or dead position before the PGN's last move
  std::vector<std::string> failures;
};

inline bool ended_by_rule(engine::TerminationKind t) {
  using T = engine::TerminationKind;
  return t == T::kFivefoldRepetition || t == T::kSeventyFiveMoves || t == T::kDeadPosition;
}

// One replay; returns "" or what went wrong. `completed` sees every moveCompleted in order.
inline std::string replay_exact(
    const engine::PgnGame& game, const std::vector<script::Statement>& script,
    const daemon::ReplayOptions& options, Totals& totals,
    const std::function<void(const engine::GameEvent&)>& completed = nullptr) {
  daemon::ReplaySession session(options);
  engine::GameEvents events;
  std::size_t ply = 0;
  const auto check = [&](const engine::GameEvent& e) -> std::string {
    if (const auto* illegal = e.get<engine::events::IllegalMoveCompleted>())
      return "illegalMoveCompleted at " + std::to_string(e.at.count()) +
             " ms: " + illegal->description;
    const auto* move = e.get<engine::events::MoveCompleted>();
    if (!move) return "";
    if (ply >= game.moves.size()) return "extra moveCompleted " + engine::to_uci(move->move);
    if (move->move != game.moves[ply])
      return "ply " + std::to_string(ply + 1) + ": completed " + engine::to_uci(move->move) +
             ", game has " + engine::to_uci(game.moves[ply]);
    if (completed) completed(e);
    ++ply;
    return "";
  };
  // D7: the game may end by itself before the recorded players went on (they played on,
  // the 2014+ rules end it); the moves up to there must still be exact.
  bool ended = false;
  const auto take = [&]() -> std::string {
    for (const engine::GameEvent& e : events) {
      const auto* end = e.get<engine::events::GameEnded>();
      if (end && end->finality == engine::Finality::kFinal && ended_by_rule(end->termination)) {
        ended = true;
        return "";
      }
      if (auto failure = check(e); !failure.empty()) return failure;
    }
    events.clear();
    return "";
  };
  for (const script::Statement& s : script) {
    if (s.at && script::is_sensor(s.body)) ++totals.sensor_events;
    if (auto error = session.feed(s, events)) return "script error: " + *error;
    if (auto failure = take(); !failure.empty()) return failure;
    if (ended) break;
  }
  if (!ended) {
    session.finish(events);
    if (auto failure = take(); !failure.empty()) return failure;
  }
  if (ended) {
    ++totals.ended_by_rule;
    totals.moves += long(ply);
    return "";
  }
  if (ply != game.moves.size())
    return "missing moves: completed " + std::to_string(ply) + " of " +
           std::to_string(game.moves.size());
  totals.moves += long(ply);
  return "";
}

inline void note_failure(Totals& totals, const std::string& what) {
  totals.failures.push_back(totals.failures.size() < 20 ? what : "");
}

inline std::string failure_list(const Totals& totals) {
  std::string s;
  for (const auto& f : totals.failures)
    if (!f.empty()) s += f + "\n";
  return s;
}

}  // namespace eboard::corpus
