#include "daemon/core/game_archive.h"

#include <fstream>

#include "engine/board/fen.h"
#include "engine/board/notation.h"
#include "engine/game/pgn.h"

namespace eboard::daemon {

Result<std::string> snapshot_pgn(const eboard::v1::Snapshot& s) {
  engine::PgnGame game;
  auto start = engine::parse_fen(s.start_fen().empty() ? engine::kStartFen : s.start_fen());
  if (!start) return Error{"start fen: " + start.error()};
  game.start = start.value();
  engine::Position pos = game.start;
  std::vector<std::optional<std::chrono::milliseconds>> clocks;
  for (const auto& record : s.moves()) {
    auto move = engine::parse_uci(pos, record.uci());
    if (!move) return Error{"move " + record.uci() + ": " + move.error()};
    pos.make(move.value());
    game.moves.push_back(move.value());
    game.comments.emplace_back();
    clocks.emplace_back(std::chrono::milliseconds(record.clock_ms()));
  }
  game.result = s.result().empty() ? "*" : s.result();
  bool has_result = false;
  for (const auto& tag : s.tags()) {
    game.tags.emplace_back(tag.name(), tag.name() == "Result" ? game.result : tag.value());
    has_result = has_result || tag.name() == "Result";
  }
  if (!has_result) game.tags.emplace_back("Result", game.result);
  game.tags.emplace_back("TimeControl", s.time_control());
  return engine::write_pgn(game, clocks);
}

void GameArchive::on_event(std::size_t board, const eboard::v1::Event& event, const SharedBytes&) {
  if (!event.has_game_ended() || event.game_ended().proposed()) return;
  const auto& snapshot = hub_.state(board).snapshot();
  auto text = snapshot_pgn(snapshot);
  const std::string path =
      dir_ + "/" + snapshot.board_id() + "-game" + std::to_string(snapshot.game_id()) + ".pgn";
  if (!text) {
    log_("board " + snapshot.board_id() + ": cannot write " + path + ": " + text.error());
    return;
  }
  std::ofstream out(path, std::ios::trunc);
  out << text.value();
  if (!out) log_("board " + snapshot.board_id() + ": cannot write " + path);
}

}  // namespace eboard::daemon
