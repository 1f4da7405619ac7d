// The fault soak (fault_soak_e2e_test.cpp, fault_soak_slow_test.cpp): real games of the
// shared corpus played on `eboard-sim dgt` through eboardd over a real pseudo-terminal, with
// the line's faults (a byte dropped from one message in N, garbage, split writes, damaged
// clock messages, a hang-up) and kill -9 restarts of the daemon at seeded moments. The rule
// it checks: a fault may delay a move or ask for a restore, it must never produce a ruling.
// Per game and fault pattern, the whole stream from seq 1 must hold
//   - no illegalMoveCompleted, clockPressWithoutMove, flagFell or penalty, and no gameEnded
//     (final or proposed) other than the game's true result: the PGN's, or the one the
//     engine gives on the clean script (eboard-replay: a dead position, a fivefold
//     repetition before the PGN's last move);
//   - each completed move the game's move at that ply, each ply once (completed or
//     recovered), plies 1..m without a hole, and when m is short of the game a
//     restoreRequested after ply m naming the position after it;
//   - one gameStarted; seqs 1..N without a gap but a declared seqsLost.
// Every run is seeded (the script's noise, the faults, the kill moments), and a failure
// names the game, the fault pattern, the seed and the offending event, so it repeats.
// Games run a few at a time (real processes that mostly wait on the emulator's time).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"
#include "simulators/script/script_reader.h"
#include "tests/daemon/core/e2e_helpers.h"

namespace eboard::daemon::soak {

using namespace testing_support;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

// Script time runs this many times wall time: a corpus game of 60 plies (about ten minutes
// of thinking in the `human` noise model) plays in about 30 s. At this speed the emulated
// clock's readings still come about once a script second, within the clock gate's 2 s
// tolerance of each other (docs/protocols.md §1.8).
// EBOARD_SOAK_SPEED overrides it and every pattern's own (1: a human's pace).
inline std::optional<double> speed_from_env() {
  const char* text = std::getenv("EBOARD_SOAK_SPEED");
  if (!text || !*text) return std::nullopt;
  return std::strtod(text, nullptr);
}
constexpr double kSpeed = 20;
constexpr const char* kRules = "fide-standard";
constexpr const char* kClock = "5400+30";  // no game of the corpus comes near a flag

struct FaultPattern {
  std::string name;              // "drop-300"
  std::vector<std::string> sim;  // eboard-sim dgt's fault options
  int kills = 0;                 // kill -9 restarts of the daemon, at seeded moments
  bool hangup = false;           // one hang-up of 2 s (script time) at a seeded moment
  // Script time per wall time, 0: kSpeed. A reconnect or a restart takes the daemon
  // wall time (its retry, the handshake, the dump): at 20 times a human's pace the players
  // would make several moves meanwhile, more than a restart can explain, so these
  // patterns play slower, on the game's first `plies` plies (0: the whole game).
  double speed = 0;
  int plies = 0;
  // > 0: each kill after the first comes this many wall seconds or less after the one
  // before (a restart killed while it still synchronises); 0: all at random moments.
  double kill_within_s = 0;
};

// The fault patterns, by name: one message in N losing a byte (drop-N), 1-3 random bytes
// after every 50th message, the bytes delivered one at a time, one clock message in N with
// a data byte replaced (corrupt-clock-N), a 2 s hang-up, and two kill -9 restarts (at
// random moments; the second within 1.5 s of the first, while the restarted daemon still
// synchronises; with one message in 30 losing a byte as well).
inline std::vector<FaultPattern> all_patterns() {
  return {
      {"drop-1000", {"--drop", "1000"}, 0, false},
      {"drop-300", {"--drop", "300"}, 0, false},
      {"drop-30", {"--drop", "30"}, 0, false},
      {"drop-10", {"--drop", "10"}, 0, false},
      {"garbage-50", {"--garbage", "50"}, 0, false},
      {"split", {"--split"}, 0, false},
      {"corrupt-clock-20", {"--corrupt-clock", "20"}, 0, false},
      {"corrupt-clock-3", {"--corrupt-clock", "3"}, 0, false},
      {"drop-3", {"--drop", "3"}, 0, false},
      {"hangup", {}, 0, true, 8, 16},
      {"kill-9-twice", {}, 2, false, 8, 16},
      {"kill-9-quick", {}, 2, false, 8, 16, 1.5},
      {"kill-9-drop-30", {"--drop", "30"}, 2, false, 8, 16},
  };
}

inline FaultPattern pattern_named(const std::string& name) {
  for (auto& p : all_patterns())
    if (p.name == name) return p;
  ADD_FAILURE() << "no fault pattern " << name;
  return {};
}

struct CorpusGame {
  std::string file;  // "world_championship_matches_1886-2008.pgn"
  int number = 0;    // 1-based, as `eboard-sim script --game`
  engine::PgnGame game;
};

inline std::string pgn_path(const std::string& file) {
  return std::string(EBOARD_SHARED_DIR) + "/data/pgn/" + file;
}

// Every game of one corpus file that parses, numbered as in the file.
inline std::vector<CorpusGame> corpus_file(const std::string& file) {
  std::ifstream in(pgn_path(file), std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  engine::PgnReader reader(text, file);
  std::vector<CorpusGame> games;
  int number = 0;
  while (auto game = reader.next()) {
    ++number;
    if (game->ok()) games.push_back(CorpusGame{file, number, game->value()});
  }
  return games;
}

inline std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(pgn_path("")))
    if (entry.path().extension() == ".pgn") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

struct Outcome {
  std::string label;          // "FILE game K, PATTERN, seed S"
  std::size_t moves = 0;      // the game's, as the engine completes them on the clean script
  std::size_t completed = 0;  // completed in the stream (plies 1..m)
  std::size_t recovered = 0;  // of which recovered
  std::size_t restores = 0;   // restoreRequested events
  std::size_t false_rulings = 0;
  std::size_t restarts = 0;
  double wall_seconds = 0;
  std::vector<std::string> failures;  // each names the label and the offending event
};

struct Totals {
  std::size_t games = 0, moves = 0, completed = 0, recovered = 0, restores = 0, false_rulings = 0,
              restarts = 0, failed_games = 0;
  double wall_seconds = 0;  // wall time of the whole batch, games running side by side
  void add(const Outcome& o) {
    ++games;
    moves += o.moves;
    completed += o.completed;
    recovered += o.recovered;
    restores += o.restores;
    false_rulings += o.false_rulings;
    restarts += o.restarts;
    failed_games += o.failures.empty() ? 0 : 1;
  }
  std::string line(const std::string& pattern) const {
    char text[300];
    std::snprintf(text, sizeof text,
                  "soak %-17s games %4zu  moves %6zu  completed %6zu  recovered %4zu  "
                  "restores %3zu  restarts %3zu  false rulings %zu  failed games %zu  wall %.1f s",
                  pattern.c_str(), games, moves, completed, recovered, restores, restarts,
                  false_rulings, failed_games, wall_seconds);
    return text;
  }
};

namespace detail {

inline std::string board_field(const std::string& fen) { return fen.substr(0, fen.find(' ')); }

// The script up to its `plies`-th press (0: all of it).
inline std::string first_plies(const std::string& script, int plies) {
  if (plies <= 0) return script;
  std::istringstream in(script);
  std::string line, out;
  int presses = 0;
  while (presses < plies && std::getline(in, line)) {
    out += line + "\n";
    const auto space = line.find(' ');
    if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0])) &&
        space != std::string::npos && line.compare(space + 1, 5, "lever") == 0) {
      ++presses;
    }
  }
  return out;
}

// The script's last timed line, in script seconds.
inline double script_seconds(const std::string& text) {
  std::istringstream in(text);
  const auto last = script::last_statement_time(script::read_script(in, "soak.ebs"));
  return std::chrono::duration<double>(last).count();
}

// Keeps the child's pipes drained (a child whose output is not read stops) for `limit`,
// or until `done` holds.
inline void pump(
    Child& child, std::chrono::milliseconds limit,
    const std::function<bool(const std::string&, const std::string&)>& done =
        [](const std::string&, const std::string&) { return false; }) {
  child.wait_for(done, limit);
}

// The whole stream from seq 1: a Subscribe's Ack comes once the journal's events are
// queued, so the events before it are everything the board has published.
inline std::vector<v1::Event> stream_from_seq_one(const std::string& socket, std::string& error) {
  std::vector<v1::Event> events;
  Client client(socket);
  if (!client.connected()) {
    error = "cannot connect to " + socket;
    return events;
  }
  v1::Frame subscribe;
  subscribe.mutable_subscribe()->set_command_id(7);
  subscribe.mutable_subscribe()->set_from_seq(1);
  if (!client.send(subscribe)) {
    error = "cannot subscribe";
    return events;
  }
  // Live events may come before and among the journal's: as a consumer does, each seq
  // is taken once (docs/interfaces.md §4), in seq order.
  std::map<std::uint32_t, v1::Event> by_seq;
  const auto ack = client.next(
      [&](const v1::Frame& f) {
        if (f.has_event()) by_seq.emplace(f.event().seq(), f.event());
        return f.has_ack() && f.ack().command_id() == 7;
      },
      30s);
  if (!ack) error = "no answer to the subscription from seq 1";
  for (auto& [seq, e] : by_seq) events.push_back(std::move(e));
  return events;
}

}  // namespace detail

// Plays `game` under `pattern` with `seed` and checks the stream (above).
inline Outcome play_game(const CorpusGame& game, const FaultPattern& pattern, std::uint32_t seed) {
  const auto started = SteadyClock::now();
  Outcome o;
  o.label = game.file + " game " + std::to_string(game.number) + ", " + pattern.name + ", seed " +
            std::to_string(seed);
  const auto fail = [&](const std::string& what) { o.failures.push_back(o.label + ": " + what); };
  const std::string dir = temp_dir("soak");
  const std::string script_path = dir + "/game.ebs";
  std::string script;
  {
    Child gen({kBin + "/eboard-sim", "script", "--pgn", pgn_path(game.file), "--game",
               std::to_string(game.number), "--seed", std::to_string(seed), "--noise", "human",
               "--rules", kRules, "--clock", kClock});
    const auto status = gen.wait(60s);
    if (status != 0) {
      fail("eboard-sim script failed: " + gen.err());
      return o;
    }
    script = detail::first_plies(gen.out(), pattern.plies);
    std::ofstream(script_path) << script;
  }
  // The game as the engine judges the clean script: its moves and its ending, if any.
  std::vector<std::string> expected;
  std::vector<std::string> allowed_results = {game.game.result};
  {
    Child replay({kBin + "/eboard-replay", script_path});
    if (replay.wait(60s) != 0) {
      fail("eboard-replay on the clean script failed: " + replay.err());
      return o;
    }
    for (const auto& e : parse_events(replay.out())) {
      if (e.has_move_completed()) expected.push_back(e.move_completed().uci());
      if (e.has_game_ended()) allowed_results.push_back(e.game_ended().result());
      if (e.has_illegal_move_completed() || e.has_clock_press_without_move() || e.has_flag_fell()) {
        fail("the clean script already gives a ruling: " + proto::to_json_line(e));
      }
    }
  }
  o.moves = expected.size();
  std::vector<std::string> fens;  // after each ply
  {
    engine::Position pos = game.game.start;
    for (std::size_t i = 0; i < game.game.moves.size(); ++i) {
      if (i < expected.size() && engine::to_uci(game.game.moves[i]) != expected[i]) {
        fail("the clean script's ply " + std::to_string(i + 1) + " is " + expected[i] +
             ", the PGN's " + engine::to_uci(game.game.moves[i]));
        return o;
      }
      pos.make(game.game.moves[i]);
      fens.push_back(engine::to_fen(pos));
    }
  }
  std::mt19937 random(seed * 2654435761u + 17);
  const double script_s = detail::script_seconds(script);
  const double speed = speed_from_env().value_or(pattern.speed > 0 ? pattern.speed : kSpeed);
  const double wall_s = script_s / speed;
  std::vector<std::string> sim_args = {kBin + "/eboard-sim",
                                       "dgt",
                                       "--link",
                                       dir + "/board.pty",
                                       "--speed",
                                       std::to_string(speed),
                                       "--seed",
                                       std::to_string(seed)};
  sim_args.insert(sim_args.end(), pattern.sim.begin(), pattern.sim.end());
  if (pattern.hangup) {
    std::uniform_real_distribution<double> at(0.2 * script_s, 0.8 * script_s);
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", at(random));
    sim_args.insert(sim_args.end(), {"--hangup-at", text, "--hangup-for", "2"});
  }
  sim_args.push_back(script_path);
  Child sim(sim_args);
  if (!sim.wait_for_stderr("->", 10s)) {
    fail("eboard-sim dgt did not start: " + sim.err());
    return o;
  }
  const std::vector<std::string> daemon_args = {kBin + "/eboardd",
                                                "--board",
                                                "b1=dgt:" + dir + "/board.pty",
                                                "--listen",
                                                "unix:" + dir + "/events.sock",
                                                "--journal",
                                                dir + "/journal",
                                                "--runtime-dir",
                                                dir,
                                                "--print",
                                                "json",
                                                "--rules",
                                                kRules,
                                                "--clock",
                                                kClock};
  auto daemon = std::make_unique<Child>(daemon_args);
  if (!ready(*daemon)) {
    fail("eboardd did not start: " + daemon->err());
    return o;
  }
  // Kill moments, in wall seconds from the daemon's start, inside the game.
  std::vector<double> kills;
  std::uniform_real_distribution<double> moment(0.1 * wall_s, 0.9 * wall_s);
  for (int i = 0; i < pattern.kills; ++i) kills.push_back(moment(random));
  std::sort(kills.begin(), kills.end());
  if (pattern.kill_within_s > 0) {
    std::uniform_real_distribution<double> gap(0.05, pattern.kill_within_s);
    for (std::size_t i = 1; i < kills.size(); ++i) kills[i] = kills[i - 1] + gap(random);
  }
  std::string earlier_lives;  // stderr of the lives killed, for a failure's message
  int life = 0;
  const auto save_life = [&](const Child& d) {  // each life's output, kept with a failure
    ++life;
    std::ofstream(dir + "/life" + std::to_string(life) + ".out") << d.out();
    std::ofstream(dir + "/life" + std::to_string(life) + ".err") << d.err();
  };
  const auto life_start = SteadyClock::now();
  const auto give_up = life_start + std::chrono::seconds(static_cast<long>(wall_s * 2 + 60));
  std::size_t next_kill = 0;
  while (!sim.wait_for_stderr("script finished", 1ms)) {
    if (SteadyClock::now() > give_up) {
      fail("the script did not finish in time: " + sim.err());
      break;
    }
    detail::pump(*daemon, 50ms);
    const double since = std::chrono::duration<double>(SteadyClock::now() - life_start).count();
    if (next_kill < kills.size() && since >= kills[next_kill]) {
      ++next_kill;
      daemon->kill(SIGKILL);
      daemon->wait(10s);
      earlier_lives += daemon->err();
      save_life(*daemon);
      daemon = std::make_unique<Child>(daemon_args);  // restarted at once
      ++o.restarts;
      if (!ready(*daemon)) {
        fail("eboardd did not start again: " + daemon->err());
        return o;
      }
    }
  }
  // The last press, then time for a restore request (BoardSession waits kDumpJudgeWait,
  // 3 s, before asking): done at once when this life completed the game's last move.
  const std::string last_ply = "\"ply\":" + std::to_string(expected.size()) + ",";
  detail::pump(*daemon, 4500ms, [&](const std::string& out, const std::string&) {
    return !expected.empty() && out.find(last_ply) != std::string::npos;
  });
  std::string error;
  const std::vector<v1::Event> events = detail::stream_from_seq_one(dir + "/events.sock", error);
  if (!error.empty()) fail(error);
  sim.kill(SIGTERM);
  daemon->kill(SIGTERM);
  daemon->wait(10s);
  save_life(*daemon);
  std::ofstream(dir + "/sim.err") << sim.err();

  // The checks.
  const auto ruling = [&](const v1::Event& e, const std::string& what) {
    ++o.false_rulings;
    fail(what + ": " + proto::to_json_line(e));
  };
  std::map<std::uint32_t, std::uint32_t> completed_at;  // ply -> seq
  std::size_t started_games = 0;
  std::string result;  // the first gameEnded's
  for (std::size_t i = 0; i < events.size(); ++i) {
    const v1::Event& e = events[i];
    const std::uint32_t want = i == 0 ? 1 : events[i - 1].seq() + 1;
    if (e.seq() != want) {
      const bool declared = e.has_seqs_lost() && e.seqs_lost().first_seq() == want &&
                            e.seqs_lost().last_seq() + 1 == e.seq();
      if (!declared)
        fail("seq " + std::to_string(e.seq()) + " after " + std::to_string(want - 1) +
             " without a seqsLost: " + proto::to_json_line(e));
    }
    if (e.has_game_started()) ++started_games;
    if (e.has_illegal_move_completed()) ruling(e, "a false illegal move");
    if (e.has_clock_press_without_move()) ruling(e, "a false press without a move");
    if (e.has_flag_fell()) ruling(e, "a false flag");
    if (e.has_penalty()) ruling(e, "a false penalty");
    if (e.has_game_ended() && std::find(allowed_results.begin(), allowed_results.end(),
                                        e.game_ended().result()) == allowed_results.end()) {
      ruling(e, "a wrong result (the game's is " + game.game.result + ")");
    }
    if (e.has_game_ended()) {
      if (!result.empty() && e.game_ended().result() != result)
        ruling(e, "a result that contradicts the earlier " + result);
      result = e.game_ended().result();
    }
    if (e.has_restore_requested()) ++o.restores;
    if (e.has_move_completed()) {
      const v1::MoveCompleted& m = e.move_completed();
      if (m.ply() < 1 || m.ply() > expected.size()) {
        fail("a move beyond the game: " + proto::to_json_line(e));
      } else if (m.uci() != expected[m.ply() - 1]) {
        fail("a wrong move (the game's is " + expected[m.ply() - 1] +
             "): " + proto::to_json_line(e));
      } else if (completed_at.count(m.ply())) {
        fail("ply " + std::to_string(m.ply()) + " completed twice: " + proto::to_json_line(e));
      } else if (m.ply() > 1 && !completed_at.count(m.ply() - 1)) {
        fail("ply " + std::to_string(m.ply()) + " before ply " + std::to_string(m.ply() - 1) +
             ": " + proto::to_json_line(e));
      }
      completed_at[m.ply()] = e.seq();
      o.recovered += m.recovered() ? 1 : 0;
    }
  }
  if (started_games != 1)
    fail(std::to_string(started_games) + " gameStarted events, not 1 (the game continues)");
  std::size_t m = 0;
  while (completed_at.count(static_cast<std::uint32_t>(m + 1))) ++m;
  o.completed = m;
  if (m < expected.size()) {
    // The rest of the game is missing: the stream must ask for the position after ply m.
    const std::uint32_t after = m == 0 ? 0 : completed_at[static_cast<std::uint32_t>(m)];
    const std::string want =
        detail::board_field(m == 0 ? engine::to_fen(game.game.start) : fens[m - 1]);
    const bool asked = std::any_of(events.begin(), events.end(), [&](const v1::Event& e) {
      return e.seq() > after && e.has_restore_requested() &&
             detail::board_field(e.restore_requested().fen()) == want;
    });
    if (!asked) {
      fail(std::to_string(m) + " of " + std::to_string(expected.size()) +
           " moves and no restore request for the position after ply " + std::to_string(m) +
           (m < expected.size() ? " (the next is " + expected[m] + ")" : ""));
    }
  }
  o.wall_seconds = std::chrono::duration<double>(SteadyClock::now() - started).count();
  if (o.failures.empty() && !std::getenv("EBOARD_SOAK_KEEP")) {
    std::filesystem::remove_all(dir);
  } else if (o.failures.empty()) {
    std::printf("%s: kept %s\n", o.label.c_str(), dir.c_str());
  } else {
    o.failures.back() += "\n  (kept: " + dir + "; the daemon's log:\n" + earlier_lives +
                         daemon->err().substr(0, 20000) + ")";
  }
  return o;
}

struct SoakRun {
  const CorpusGame* game;
  FaultPattern pattern;
  std::uint32_t seed;
};

// Plays `runs`, `parallel` at a time; the outcomes in the order of `runs`.
inline std::vector<Outcome> play_all(const std::vector<SoakRun>& runs, unsigned parallel) {
  std::vector<Outcome> outcomes(runs.size());
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::max(1u, parallel); ++w) {
    workers.emplace_back([&] {
      for (std::size_t i = next++; i < runs.size(); i = next++)
        outcomes[i] = play_game(*runs[i].game, runs[i].pattern, runs[i].seed);
    });
  }
  for (auto& t : workers) t.join();
  return outcomes;
}

// Reports every failure and the pattern's figures (the line BENCHMARKS.md quotes).
inline Totals report(const std::string& pattern, const std::vector<Outcome>& outcomes,
                     double wall_seconds) {
  Totals totals;
  for (const auto& o : outcomes) {
    totals.add(o);
    for (const auto& f : o.failures) ADD_FAILURE() << f;
  }
  totals.wall_seconds = wall_seconds;
  std::printf("%s\n", totals.line(pattern).c_str());
  std::fflush(stdout);
  return totals;
}

// A seed per game and pattern, fixed (the pattern's name, not its place in the list, so
// that adding a pattern changes no other run); EBOARD_SOAK_SEED overrides it.
inline std::uint32_t seed_of(const CorpusGame& game, const FaultPattern& pattern) {
  if (const char* text = std::getenv("EBOARD_SOAK_SEED"); text && *text)
    return static_cast<std::uint32_t>(std::strtoul(text, nullptr, 10));
  std::uint32_t name = 2166136261u;  // FNV-1a
  for (const char c : pattern.name) name = (name ^ static_cast<unsigned char>(c)) * 16777619u;
  return static_cast<std::uint32_t>(game.number) * 31 + name % 1000 + 1;
}

}  // namespace eboard::daemon::soak
