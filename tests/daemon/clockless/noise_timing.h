// How long the noise generator's placements stand (simulators/script_gen): the numbers
// the clockless completion times are chosen from (docs/clockless.md).
//
// A generated script, with its clock lines, is played on a plain board model; each
// placement between two sensor lines is one episode, classified against the position
// before the ply's move (committed) and after it (final): a legal move other than the
// game's, pieces only taken off (in the air), or anything else (illegal). An episode
// that leads on to the game's move is "on the way" (hovering over a square, the rook of a
// rook-first castling, the king of a king-first one, a pawn put on the last rank before
// the new piece, an en passant capture before the victim is lifted); one after which the
// board goes back to the committed position is "put back" (a move tried and taken back,
// a knocked piece set back). Pieces in the air that come back to the same squares are a
// flicker or a knock; in the air during a capture is a two-step capture.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/game/pgn.h"
#include "simulators/script/statement.h"

namespace eboard::clockless_testing {

enum class Stand : std::uint8_t {
  kLegalOnTheWay,
  kLegalPutBack,
  kIllegalOnTheWay,
  kIllegalPutBack,
  kInAirPutBack,    // flicker, a piece lifted and set back on its square
  kInAirCapture,    // a capture's pieces in the air (both orders)
  kInAirMove,       // the mover's piece in the air on any other move
  kMoveToOpponent,  // the game's move standing until the opponent's first lift
  kMoveToPress,     // the game's move standing until its player pressed the clock
  kCount,
};

inline const char* stand_name(Stand s) {
  switch (s) {
    case Stand::kLegalOnTheWay: return "legal placement on the way (hover, rook first)";
    case Stand::kLegalPutBack: return "legal placement put back (tried move, knock)";
    case Stand::kIllegalOnTheWay: return "illegal placement on the way (king first, pawn)";
    case Stand::kIllegalPutBack: return "illegal placement put back (knock)";
    case Stand::kInAirPutBack: return "in the air, set back (flicker, knock)";
    case Stand::kInAirCapture: return "in the air during a capture (two-step)";
    case Stand::kInAirMove: return "in the air during another move";
    case Stand::kMoveToOpponent: return "move standing until the opponent's first lift";
    case Stand::kMoveToPress: return "move standing until the clock press";
    case Stand::kCount: break;
  }
  return "";
}

struct StandTimes {
  std::array<std::vector<long>, std::size_t(Stand::kCount)> ms;
  void add(Stand s, long t) { ms[std::size_t(s)].push_back(t); }
  const std::vector<long>& of(Stand s) const { return ms[std::size_t(s)]; }
};

class NoiseTimer {
 public:
  using Board = std::array<char, 64>;

  // One script with its clock lines (the presses mark where each ply ends).
  void measure(const engine::PgnGame& game, const std::vector<script::Statement>& script) {
    engine::Position committed = game.start;
    std::size_t ply = 0;
    Board board{};
    std::vector<Episode> episodes;
    const auto final_of = [&] {
      engine::Position p = committed;
      if (ply < game.moves.size()) p.make(game.moves[ply]);
      return p;
    };
    engine::Position final = final_of();
    std::optional<long> final_since;  // the game's move stands since
    for (const script::Statement& s : script) {
      if (!s.at) continue;
      const long t = long(s.at->count());
      if (std::holds_alternative<script::Lever>(s.body)) {
        if (final_since) times_.add(Stand::kMoveToPress, t - *final_since);
        close_ply(episodes, committed, t);
        committed = final;
        ++ply;
        final = final_of();
        // The move just pressed keeps standing until the opponent lifts a piece.
        pressed_since_ = final_since;
        final_since.reset();
        continue;
      }
      if (!apply(s.body, board)) continue;
      if (const auto* lift = std::get_if<script::Lift>(&s.body); lift && pressed_since_) {
        const engine::Piece p = committed.piece_on(engine::Square(lift->square));
        if (p != engine::kNoPiece && engine::color_of(p) == committed.side_to_move()) {
          times_.add(Stand::kMoveToOpponent, t - *pressed_since_);
          pressed_since_.reset();
        }
      }
      const Class c = classify(board, committed, final);
      if (episodes.empty() || episodes.back().board != board) {
        if (!episodes.empty()) episodes.back().end = t;
        episodes.push_back({c, board, t, t});
      }
      if (c == Class::kFinal && !final_since) final_since = t;
      if (c != Class::kFinal) final_since.reset();
    }
    pressed_since_.reset();
  }

  const StandTimes& times() const { return times_; }

 private:
  enum class Class : std::uint8_t { kCommitted, kFinal, kOtherLegal, kInAir, kIllegal };
  struct Episode {
    Class cls;
    Board board;
    long start;
    long end;
  };

  static bool apply(const script::Body& body, Board& board) {
    if (const auto* p = std::get_if<script::Placement>(&body)) {
      for (int s = 0; s < 64; ++s)
        board[s] = p->squares[s] == script::kEmptySquare ? 0 : p->squares[s];
      return true;
    }
    if (const auto* l = std::get_if<script::Lift>(&body)) {
      board[l->square] = 0;
      return true;
    }
    if (const auto* u = std::get_if<script::Put>(&body)) {
      board[u->square] = u->piece;
      return true;
    }
    return false;
  }

  static Board board_of(const engine::Position& pos) {
    Board b{};
    for (int s = 0; s < 64; ++s) {
      const engine::Piece p = pos.piece_on(engine::Square(s));
      b[s] = p == engine::kNoPiece ? 0 : engine::piece_to_char(p);
    }
    return b;
  }

  static bool only_removals(const Board& board, const Board& from) {
    for (int s = 0; s < 64; ++s)
      if (board[s] && board[s] != from[s]) return false;
    return true;
  }

  static Class classify(const Board& board, const engine::Position& committed,
                        const engine::Position& final) {
    const Board c = board_of(committed);
    if (board == c) return Class::kCommitted;
    const Board f = board_of(final);
    if (board == f) return Class::kFinal;
    engine::MoveList legal;
    engine::generate_legal(committed, legal);
    for (const engine::Move m : legal) {
      engine::Position p = committed;
      p.make(m);
      if (board_of(p) == board) return Class::kOtherLegal;
    }
    if (only_removals(board, c) || only_removals(board, f)) return Class::kInAir;
    return Class::kIllegal;
  }

  // The ply's episodes, each judged by where the board went next.
  void close_ply(std::vector<Episode>& episodes, const engine::Position& committed, long t) {
    if (!episodes.empty()) episodes.back().end = t;
    const Board c = board_of(committed);
    for (std::size_t i = 0; i < episodes.size(); ++i) {
      const Episode& e = episodes[i];
      const long length = e.end - e.start;
      // The game's move tried and taken back before it is played again counts as a
      // legal placement put back.
      if (e.cls == Class::kFinal && !leads_to_final(episodes, i) && returns(episodes, i))
        times_.add(Stand::kLegalPutBack, length);
      if (e.cls == Class::kOtherLegal || e.cls == Class::kIllegal) {
        const bool on_the_way = leads_to_final(episodes, i);
        times_.add(e.cls == Class::kOtherLegal
                       ? (on_the_way ? Stand::kLegalOnTheWay : Stand::kLegalPutBack)
                       : (on_the_way ? Stand::kIllegalOnTheWay : Stand::kIllegalPutBack),
                   length);
      }
      if (e.cls != Class::kInAir || (i > 0 && episodes[i - 1].cls == Class::kInAir)) continue;
      // A run of in-the-air episodes: one hand's work.
      std::size_t j = i;
      while (j + 1 < episodes.size() && episodes[j + 1].cls == Class::kInAir) ++j;
      const long run = episodes[j].end - e.start;
      const Board& before = i > 0 ? episodes[i - 1].board : c;
      const Board* after = j + 1 < episodes.size() ? &episodes[j + 1].board : nullptr;
      if (after && *after == before)
        times_.add(Stand::kInAirPutBack, run);
      else if (after && removed_opponent(before, *after, committed))
        times_.add(Stand::kInAirCapture, run);
      else if (after)
        times_.add(Stand::kInAirMove, run);
    }
    episodes.clear();
  }

  static bool returns(const std::vector<Episode>& episodes, std::size_t i) {
    for (std::size_t j = i + 1; j < episodes.size(); ++j)
      if (episodes[j].cls == Class::kCommitted) return true;
    return false;
  }

  static bool leads_to_final(const std::vector<Episode>& episodes, std::size_t i) {
    for (std::size_t j = i + 1; j < episodes.size(); ++j) {
      if (episodes[j].cls == Class::kFinal) return true;
      if (episodes[j].cls == Class::kCommitted) return false;
    }
    return false;
  }

  // A piece of the side not on move is gone between the two boards: a capture.
  static bool removed_opponent(const Board& before, const Board& after,
                               const engine::Position& committed) {
    const bool white_moves = committed.side_to_move() == engine::kWhite;
    int before_count = 0, after_count = 0;
    for (int s = 0; s < 64; ++s) {
      const auto theirs = [&](char x) {
        return x && (white_moves ? (x >= 'a' && x <= 'z') : (x >= 'A' && x <= 'Z'));
      };
      before_count += theirs(before[s]);
      after_count += theirs(after[s]);
    }
    return after_count < before_count;
  }

  StandTimes times_;
  std::optional<long> pressed_since_;
};

inline long percentile(std::vector<long> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5))];
}

}  // namespace eboard::clockless_testing
