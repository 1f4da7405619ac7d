#include "daemon/core/demo_game.h"

#include <sstream>

#include "engine/board/fen.h"
#include "engine/game/pgn.h"
#include "simulators/script/script_writer.h"

namespace eboard::daemon {
namespace {

namespace script = eboard::script;
using script::Millis;

constexpr const char* kDemoPgn = R"([Event "FIDE-Wch k.o."]
[Site "Groningen"]
[Date "1997.??.??"]
[Round "2.1"]
[White "Seirawan, Yasser"]
[Black "Ivanchuk, Vassily"]
[Result "1-0"]
[ECO "E70"]

1.d4 Nf6 2.c4 g6 3.Nc3 Bg7 4.e4 d6 5.Bd3 e5 6.d5 a5 7.Nge2 Na6 8.f3 Nd7 9.Be3 Bh6
10.Qd2 Bxe3 11.Qxe3 c6 12.Qh6 Ndc5 13.Rd1 Qb6 14.Bb1 Ke7 15.f4 exf4 16.Rf1 Rf8
17.Qxf4 f6 18.dxc6 Qxc6 19.Nd4 Qe8 20.Nd5+ Kd8 21.Qxd6+ Bd7 22.Nb5  1-0
)";

// Thinking times in seconds, cycled: quick opening replies and longer middlegame thought.
constexpr int kThinkSeconds[] = {2, 3, 2, 4, 6, 3, 5, 8, 4, 3, 7, 5, 9, 4, 6};

void add(std::ostringstream& out, std::optional<Millis> at, script::Body body) {
  script::write_statement(out, script::Statement{0, at, std::move(body)});
}

}  // namespace

const char* demo_game_pgn() { return kDemoPgn; }

Result<std::string> demo_script() {
  auto games = engine::read_pgn(kDemoPgn, "demo");
  if (!games || games->empty()) return Error{"demo game: " + (games ? "no game" : games.error())};
  const engine::PgnGame& game = games->front();
  std::ostringstream out;
  add(out, std::nullopt, script::BoardId{"demo"});
  add(out, std::nullopt, script::RulesName{"fide-blitz"});
  add(out, std::nullopt, script::TimeControl{"300+2"});
  add(out, std::nullopt, script::Start{"startpos"});
  for (const auto& [name, value] : game.tags) add(out, std::nullopt, script::Tag{name, value});

  engine::Position pos = game.start;
  Millis t{0};
  add(out, t, script::Placement{script::start_placement()});
  int ply = 0;
  for (const engine::Move m : game.moves) {
    t += Millis(1000 * kThinkSeconds[ply % std::size(kThinkSeconds)]);
    const engine::Color mover = pos.side_to_move();
    engine::Piece before[engine::kSquareCount];
    for (int s = 0; s < engine::kSquareCount; ++s) before[s] = pos.piece_on(engine::Square(s));
    pos.make(m);
    // Vacated squares first (the hand lifts the moving piece), then captures and puts.
    for (int s = 0; s < engine::kSquareCount; ++s) {
      if (before[s] != engine::kNoPiece && pos.empty(engine::Square(s))) {
        add(out, t, script::Lift{s});
        t += Millis(300);
      }
    }
    for (int s = 0; s < engine::kSquareCount; ++s) {
      const engine::Piece now = pos.piece_on(engine::Square(s));
      if (now == engine::kNoPiece || now == before[s]) continue;
      if (before[s] != engine::kNoPiece) {
        add(out, t, script::Lift{s});
        t += Millis(300);
      }
      add(out, t, script::Put{s, engine::piece_to_char(now)});
      t += Millis(300);
    }
    t += Millis(400);
    add(out, t,
        script::Lever{mover == engine::kWhite ? script::Side::kWhite : script::Side::kBlack});
    ++ply;
  }
  // The result gesture: the winner's result piece on the first empty square.
  const char piece = game.result == "1-0" ? '2' : game.result == "0-1" ? '3' : '1';
  for (int s = 0; s < engine::kSquareCount; ++s) {
    if (pos.empty(engine::Square(s))) {
      t += Millis(3000);
      add(out, t, script::Put{s, piece});
      break;
    }
  }
  return out.str();
}

}  // namespace eboard::daemon
