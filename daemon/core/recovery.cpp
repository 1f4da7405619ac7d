#include "daemon/core/recovery.h"

#include <algorithm>

#include "engine/board/fen.h"
#include "engine/board/movegen.h"
#include "engine/board/notation.h"

namespace eboard::daemon {
namespace {

namespace v1 = eboard::v1;
using engine::Millis;
using engine::Position;
using Board = std::array<engine::SquareCode, engine::kSquareCount>;

Board codes_of(const Position& pos) {
  Board board{};
  for (int s = 0; s < engine::kSquareCount; ++s) {
    board[s] = engine::SquareCode(pos.piece_on(engine::Square(s)));
  }
  return board;
}

engine::Color color_of(v1::Side side) {
  return side == v1::SIDE_BLACK ? engine::kBlack : engine::kWhite;
}

// Board-only comparison (placement and side to move): the counters of the journal's FEN
// are the tracker's too, but a restored position may carry others.
std::string position_key(const std::string& fen) {
  const auto second_space = fen.find(' ', fen.find(' ') + 1);
  return fen.substr(0, second_space);
}

class Replay {
 public:
  // The replay ends at tracker time zero, where the caller's time line starts: it begins
  // early enough for the debounce of each illegal placement.
  Replay(engine::GameTracker& tracker, int illegal_moves, Millis end)
      : tracker_(tracker), now_(end - illegal_moves * step()) {}

  Millis now() const { return now_; }
  // What the tracker emitted since the last call.
  engine::GameEvents& emitted() { return dropped_; }

  std::optional<std::string> move(const v1::MoveCompleted& m) {
    const Position before = tracker_.committed();
    auto move = engine::parse_uci(before, m.uci());
    if (!move) return "move " + m.uci() + " is not legal in " + engine::to_fen(before);
    Position after = before;
    after.make(move.value());
    const std::size_t moves = tracker_.moves().size();
    tracker_.placement(now_, codes_of(after), dropped_);
    tracker_.lever(now_, before.side_to_move(), dropped_);
    if (tracker_.moves().size() != moves + 1) return "move " + m.uci() + " did not complete";
    return std::nullopt;
  }
  std::optional<std::string> press_without_move(v1::Side side) {
    tracker_.placement(now_, codes_of(tracker_.committed()), dropped_);
    tracker_.lever(now_, color_of(side), dropped_);
    return std::nullopt;
  }
  // The illegal placement from its pseudo-move: the piece taken from `from` to `to`.
  std::optional<std::string> illegal(const v1::IllegalMoveCompleted& i) {
    if (i.uci().size() < 4) return "an illegal move without squares cannot be played again";
    const auto from = engine::parse_square(i.uci().substr(0, 2));
    const auto to = engine::parse_square(i.uci().substr(2, 2));
    if (from == engine::kNoSquare || to == engine::kNoSquare) {
      return "illegal move '" + i.uci() + "' names no squares";
    }
    Board board = codes_of(tracker_.committed());
    board[to] = board[from];
    board[from] = engine::kEmptyCode;
    const int before = tracker_.illegal_count(color_of(i.side()));
    tracker_.placement(now_, board, dropped_);
    now_ += step();  // it must stand to be analysed (D2)
    tracker_.advance(now_, dropped_);
    tracker_.lever(now_, color_of(i.side()), dropped_);
    if (tracker_.illegal_count(color_of(i.side())) != before + 1) {
      return "illegal move " + i.uci() + " was not completed again";
    }
    return std::nullopt;
  }
  std::optional<std::string> position(const std::string& fen) {
    if (position_key(engine::to_fen(tracker_.committed())) == position_key(fen))
      return std::nullopt;
    auto pos = engine::parse_fen(fen);
    if (!pos) return "position " + fen + ": " + pos.error();
    tracker_.replace_committed(now_, pos.value(), "recovered from the journal", dropped_);
    return std::nullopt;
  }

 private:
  Millis step() const { return tracker_.rules().debounce + Millis(1); }

  engine::GameTracker& tracker_;
  Millis now_{0};
  engine::GameEvents dropped_;
};

}  // namespace

std::vector<std::uint32_t> command_caused_seqs(const std::vector<v1::Event>& history) {
  std::vector<std::uint32_t> seqs;
  for (const v1::Event& e : history) {
    if (!e.has_command_applied() || !e.command_applied().outcome().ok()) continue;
    const std::uint32_t first = e.command_applied().outcome().seq();
    if (first == 0) continue;
    for (std::uint32_t s = first; s <= e.command_applied().last_seq(); ++s) seqs.push_back(s);
  }
  return seqs;
}

std::optional<std::string> replay_game(engine::GameTracker& tracker,
                                       const std::vector<v1::Event>& history,
                                       const v1::Snapshot& journal, Millis end,
                                       const ReplayHooks& hooks) {
  const std::vector<std::uint32_t> caused = command_caused_seqs(history);
  const auto by_command = [&caused](const v1::Event& e) {
    return std::find(caused.begin(), caused.end(), e.seq()) != caused.end();
  };
  const auto replayed_illegal = [&](const v1::Event& e) {
    return e.has_illegal_move_completed() &&
           e.illegal_move_completed().reason() != v1::REASON_PRESS_WITHOUT_MOVE && !by_command(e);
  };
  Replay replay(tracker, int(std::count_if(history.begin(), history.end(), replayed_illegal)), end);
  for (const v1::Event& e : history) {
    std::optional<std::string> error;
    if (by_command(e)) {
      continue;  // its command's replay causes it again
    } else if (e.has_move_completed()) {
      error = replay.move(e.move_completed());
    } else if (e.has_clock_press_without_move()) {
      error = replay.press_without_move(e.clock_press_without_move().side());
    } else if (replayed_illegal(e)) {
      error = replay.illegal(e.illegal_move_completed());
    } else if (e.has_position_changed()) {
      error = replay.position(e.position_changed().fen());
    } else if (hooks.other) {
      hooks.other(e, replay.now());
    }
    if (hooks.emitted) hooks.emitted(e, replay.emitted());
    replay.emitted().clear();
    if (tracker.ended()) error = "the game ended when played again";
    if (error) return "seq " + std::to_string(e.seq()) + ": " + *error;
  }
  if (position_key(engine::to_fen(tracker.committed())) != position_key(journal.fen())) {
    return "played again it ends in " + engine::to_fen(tracker.committed()) + ", not " +
           journal.fen();
  }
  if (int(tracker.moves().size()) != journal.moves_size()) return "the move count differs";
  // A move made with two hands (7.5.4) is counted by the arbiter, not the tracker: its
  // event's count adds the side's two-hands moves so far to the tracker's count.
  const auto tracker_count = [&history](v1::Side side) {
    int count = 0;
    int two_hands = 0;
    for (const v1::Event& e : history) {
      if (!e.has_illegal_move_completed() || e.illegal_move_completed().side() != side) continue;
      const bool hands = e.illegal_move_completed().reason() == v1::REASON_TWO_HANDS;
      two_hands += hands ? 1 : 0;
      count = int(e.illegal_move_completed().count()) - (hands ? two_hands : 0);
    }
    return count;
  };
  if (tracker.illegal_count(engine::kWhite) != tracker_count(v1::SIDE_WHITE) ||
      tracker.illegal_count(engine::kBlack) != tracker_count(v1::SIDE_BLACK)) {
    return "the illegal move counts differ";
  }
  return std::nullopt;
}

}  // namespace eboard::daemon
