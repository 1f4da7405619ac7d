// The shared corpus through every family's emulator and decoder, in process (board_loop.h):
// a game of ../shared/data/pgn is scripted with a noise model, its clock lines removed
// (these boards have no clock), and replayed twice through the session eboard-replay
// uses, without a clock (docs/clockless.md, as eboardd plays these boards: their decoders
// report no clock) - once as written, once as the family's decoder reported it from the
// emulator's bytes. The completed moves must be the same, and the game's own.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/programs/eboard_replay/replay_session.h"
#include "drivers/chessnut/chessnut_driver.h"
#include "drivers/factory.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"
#include "simulators/certabo/certabo_emulator.h"
#include "simulators/chesslink/chesslink_emulator.h"
#include "simulators/chessnut/chessnut_emulator.h"
#include "simulators/script_gen/script_gen.h"
#include "tests/daemon/clockless/clockless_corpus.h"
#include "tests/simulators/boards/board_loop.h"

namespace eboard::sim::testing {

inline std::vector<engine::PgnGame> corpus_games(const std::string& file) {
  std::ifstream in(std::string(EBOARD_SHARED_DIR) + "/data/pgn/" + file, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  engine::PgnReader reader(text, file);
  std::vector<engine::PgnGame> games;
  while (auto game = reader.next()) {
    if (game->ok()) games.push_back(game->value());
  }
  return games;
}

inline std::vector<script::Statement> clockless(std::vector<script::Statement> script) {
  return clockless_testing::without_clock_lines(std::move(script));
}

// The game's moves in UCI, what a move-exact replay completes.
inline std::vector<std::string> uci_moves(const engine::PgnGame& game) {
  std::vector<std::string> moves;
  for (const auto& move : game.moves) moves.push_back(engine::to_uci(move));
  return moves;
}

struct Replayed {
  std::vector<std::string> moves;
  int illegal_completed = 0;
  bool no_clock_reported = false;  // the decoder said so (ClockAbsent), as eboardd hears it
};

class Replayer {
 public:
  void feed(const script::Statement& s) {
    engine::GameEvents events;
    if (auto error = session_.feed(s, events)) errors_.push_back(*error);
    note(events);
  }
  Replayed finish() {
    engine::GameEvents events;
    session_.finish(events);
    note(events);
    return result_;
  }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  void note(const engine::GameEvents& events) {
    for (const auto& e : events) {
      if (const auto* m = e.get<engine::events::MoveCompleted>())
        result_.moves.push_back(engine::to_uci(m->move));
      if (e.is<engine::events::IllegalMoveCompleted>()) ++result_.illegal_completed;
    }
  }
  static daemon::ReplayOptions without_clock() {
    daemon::ReplayOptions options;
    options.clock_presence = engine::ClockPresence::kNone;  // eboard-replay --no-clock
    return options;
  }
  daemon::ReplaySession session_{without_clock()};
  Replayed result_;
  std::vector<std::string> errors_;
};

inline Replayed replay_script(const std::vector<script::Statement>& script) {
  Replayer replayer;
  for (const auto& s : script) replayer.feed(s);
  return replayer.finish();
}

enum class Family { kChessLink, kCertabo, kChessnut };
inline const char* family_name(Family f) {
  return f == Family::kChessLink ? "chesslink" : f == Family::kCertabo ? "certabo" : "chessnut";
}

// The script as `family`'s board reports it, replayed. `resyncs` counts the decoder's.
inline Replayed replay_through(Family family, const std::vector<script::Statement>& script,
                               std::uint32_t seed, std::uint64_t* resyncs = nullptr) {
  script::Placement start = script::start_placement();
  for (const auto& s : script) {
    if (const auto* st = std::get_if<script::Start>(&s.body); st && st->fen != "startpos") {
      if (auto p = script::parse_placement(st->fen.substr(0, st->fen.find(' ')))) start = *p;
    }
  }
  std::unique_ptr<BoardEmulator> board;
  std::unique_ptr<drivers::Decoder> decoder;
  auto delivery = BoardLoop::Delivery::kRandomSplits;
  if (family == Family::kChessLink) {
    board = std::make_unique<ChessLinkEmulator>(ChessLinkOptions{seed % 2 == 0, 2, 1});
    decoder = drivers::make_decoder(drivers::BoardSpec{"chesslink", "x", {}, {}, {}});
  } else if (family == Family::kCertabo) {
    auto certabo = std::make_unique<CertaboEmulator>(CertaboOptions{false, true, seed});
    certabo->set_placement(start);
    drivers::DecoderContext context{certabo->calibration_text()};
    decoder = drivers::make_decoder(drivers::BoardSpec{"certabo", "x", {}, {}, {}}, context);
    board = std::move(certabo);
  } else {
    board = std::make_unique<ChessnutEmulator>();
    decoder =
        std::make_unique<drivers::chessnut::ChessnutDriver>(drivers::chessnut::Framing::kReports);
    delivery = BoardLoop::Delivery::kWholeMessages;
  }
  board->set_placement(start);
  BoardLoop loop(*board, *decoder, delivery, seed);
  Replayer replayer;
  bool connected = false;
  for (const auto& s : script) {
    if (!s.at || !script::is_sensor(s.body)) {
      replayer.feed(s);  // header lines; what players and arbiters do, the board cannot see
      continue;
    }
    if (!connected) {
      loop.connect();
      connected = true;
    }
    for (const auto& report : loop.play(s)) replayer.feed(report);
  }
  if (resyncs) *resyncs = loop.resyncs();
  Replayed replayed = replayer.finish();
  replayed.no_clock_reported = loop.clock_absent() && !decoder->traits().clock;
  return replayed;
}

}  // namespace eboard::sim::testing
