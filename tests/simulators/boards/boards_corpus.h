// The shared corpus through every family's emulator and decoder, in process (board_loop.h):
// a game of ../shared/data/pgn is scripted with a noise model, its clock lines removed
// (these boards have no clock), and replayed twice through the session eboard-replay
// uses - once as written, once as the family's decoder reported it from the emulator's
// bytes. The completed moves must be the same (until the engine completes moves on
// clockless boards by itself, a move completes at the opponent's next move, so the two
// replays, not the PGN, are compared).
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
#include "engine/game/pgn.h"
#include "simulators/certabo/certabo_emulator.h"
#include "simulators/chesslink/chesslink_emulator.h"
#include "simulators/chessnut/chessnut_emulator.h"
#include "simulators/script_gen/script_gen.h"
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
  std::erase_if(script, [](const script::Statement& s) {
    return std::holds_alternative<script::Lever>(s.body) ||
           std::holds_alternative<script::ClockTime>(s.body) ||
           std::holds_alternative<script::Flag>(s.body);
  });
  return script;
}

struct Replayed {
  std::vector<std::string> moves;
  int illegal_completed = 0;
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
      if (e.kind == engine::GameEventKind::kMoveCompleted) result_.moves.push_back(e.uci);
      if (e.kind == engine::GameEventKind::kIllegalMoveCompleted) ++result_.illegal_completed;
    }
  }
  daemon::ReplaySession session_{{}};
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
  return replayer.finish();
}

}  // namespace eboard::sim::testing
